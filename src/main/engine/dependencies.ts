// The versions of the dependencies Loci's safety rests on, asserted when the engine
// opens (the daemon, the CLI, the desktop app): pdf.js before 4.2.67 runs script embedded
// in a PDF (CVE-2024-4367), the MCP SDK before 1.24 lacks the DNS-rebinding and session
// fixes the HTTP transport relies on. SQLite's bound (the WAL-reset fix) is checked on
// every database open (store/database.ts). A failure names the package and the fix.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LociError } from '../../shared/errors';
import { compareVersions } from './store/database';

export const REQUIRED_VERSIONS: readonly {
  name: string;
  entry: string;
  min: string;
  why: string;
}[] = [
  {
    name: 'pdfjs-dist',
    entry: 'pdfjs-dist/legacy/build/pdf.mjs',
    min: '4.2.67',
    why: 'older versions run script embedded in a PDF (CVE-2024-4367)',
  },
  {
    name: '@modelcontextprotocol/sdk',
    entry: '@modelcontextprotocol/sdk/server/mcp.js',
    min: '1.24.0',
    why: 'older versions lack the transport security fixes Loci relies on',
  },
];

/**
 * Packages the build bundles into out/main (electron.vite.config.ts) are not in
 * node_modules where the built CLI runs (the npm package ships without them): the build
 * writes down the version it bundled. Undefined when running from the sources.
 */
declare const __LOCI_BUNDLED_VERSIONS__: Readonly<Record<string, string>> | undefined;

function bundledVersion(name: string): string | null {
  if (typeof __LOCI_BUNDLED_VERSIONS__ !== 'object') return null;
  return __LOCI_BUNDLED_VERSIONS__[name] ?? null;
}

/** The version of a package: the one bundled into the build, else the installed one. */
export function installedVersion(name: string, entry: string): string | null {
  const bundled = bundledVersion(name);
  if (bundled !== null) return bundled;
  let file: string;
  try {
    file = createRequire(import.meta.url).resolve(entry);
  } catch {
    return null;
  }
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg)) continue;
    try {
      const parsed = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === name && typeof parsed.version === 'string') return parsed.version;
    } catch {
      /* an unreadable package.json on the way up: keep looking */
    }
  }
  return null;
}

/** Throws LociError('environment') naming the first package below its required version. */
export function assertDependencyVersions(
  lookup: (name: string, entry: string) => string | null = installedVersion,
): void {
  for (const dep of REQUIRED_VERSIONS) {
    const version = lookup(dep.name, dep.entry);
    if (version === null) {
      throw new LociError(
        'environment',
        `${dep.name} is not installed (Loci needs ${dep.min} or newer). Reinstall Loci (npm install).`,
        { package: dep.name, required: dep.min },
      );
    }
    if (compareVersions(version.replace(/[-+].*$/, ''), dep.min) < 0) {
      throw new LociError(
        'environment',
        `${dep.name} ${version} is too old: Loci needs ${dep.min} or newer (${dep.why}). Reinstall Loci (npm install).`,
        { package: dep.name, version, required: dep.min },
      );
    }
  }
}
