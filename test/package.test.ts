// The npm package `loci-memory` (scripts/pack.mjs, issue 22): server.json, the MCP
// registry's entry, agrees with package.json and the staged package; the scan of the
// built code finds every runtime import and nothing else; the npm-shrinkwrap.json cut
// from package-lock.json follows Node's resolution (nested node_modules, upward, top),
// keeps platform packages as optional with their os/cpu, and refuses what would break an
// install. scripts/pack-test.mjs installs the real package and runs it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ENTRIES,
  FORBIDDEN,
  IGNORED,
  PACKAGE_META,
  PACKAGE_NAME,
  isBuiltin,
  packageNameOf,
  registryTarball,
  resolveInLock,
  runtimeDependencies,
  runtimeOptionalDependencies,
  scanBuild,
  scanModule,
  shrinkwrapRoot,
  shrinkwrapSubset,
  stagedPackageJson,
  type Lockfile,
  type PackageJson,
} from '../scripts/packLib.mjs';

const root = join(import.meta.dirname, '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const rootPackage = readJson<PackageJson>(join(root, 'package.json'));

interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  repository?: { url: string; source: string };
  packages: {
    registryType: string;
    identifier: string;
    version: string;
    runtimeHint?: string;
    transport: { type: string };
    packageArguments?: { type: string; value?: string }[];
    environmentVariables?: { name: string; description?: string; isSecret?: boolean }[];
  }[];
}
const server = readJson<ServerJson>(join(root, 'server.json'));

const work = mkdtempSync(join(tmpdir(), 'loci-package-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('server.json (the MCP registry entry)', () => {
  const npm = server.packages.find((p) => p.registryType === 'npm');

  it('follows the registry schema the docs publish', () => {
    expect(server.$schema).toMatch(
      /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/,
    );
    // The schema's own limits: a reverse-DNS name with one slash, a short description.
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.description.length).toBeGreaterThan(0);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.repository?.source).toBe('github');
    expect(server.name.startsWith('io.github.')).toBe(true);
    // io.github.<owner>/…: the registry checks the owner against the repository's.
    const owner = server.name.slice('io.github.'.length).split('/')[0];
    expect(server.repository?.url).toBe(`https://github.com/${owner}/loci`);
  });

  it('has the version of package.json, and names the staged package', () => {
    expect(server.version).toBe(rootPackage.version);
    expect(npm).toBeDefined();
    expect(npm?.identifier).toBe(PACKAGE_NAME);
    expect(npm?.version).toBe(rootPackage.version);
    const staged = stagedPackageJson(rootPackage, {}, { ...PACKAGE_META, mcpName: server.name });
    expect(staged.name).toBe(npm?.identifier);
    expect(staged.version).toBe(server.version);
    // The registry verifies ownership of an npm package by its mcpName.
    expect(staged.mcpName).toBe(server.name);
    expect(staged.bin).toEqual({ loci: 'bin/loci.js' });
    expect(staged).not.toHaveProperty('private');
    expect(staged.engines).toEqual({ node: '>=20.19' });
    expect(staged.files).toContain('npm-shrinkwrap.json');
  });

  it('starts `loci mcp` over stdio', () => {
    expect(npm?.transport).toEqual({ type: 'stdio' });
    expect(npm?.runtimeHint).toBe('npx');
    expect(npm?.packageArguments).toEqual([{ type: 'positional', value: 'mcp' }]);
  });

  it('lists only environment variables the README documents (and onnxruntime’s install switch)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const names = (npm?.environmentVariables ?? []).map((v) => v.name);
    expect(names).toContain('LOCI_HOME');
    expect(names).toContain('LOCI_TOKEN');
    // `NAME` in the environment table, or `NAME=value` in an example.
    for (const name of names) expect(new RegExp(`\`${name}[\`=]`).test(readme), name).toBe(true);
    for (const v of npm?.environmentVariables ?? []) {
      if (/TOKEN|PASSPHRASE/.test(v.name)) expect(v.isSecret, v.name).toBe(true);
    }
  });
});

describe('scanModule', () => {
  it('finds every kind of load and nothing inside strings or comments', () => {
    const source = `
      import a from "pkg-a";
      import { b } from "@scope/pkg-b/sub/path.js";
      import "./side.js";
      export { c } from "pkg-c";
      export * from "./chunk-1.js";
      import { createRequire } from "node:module";
      const d = await import("pkg-d/deep");
      const e = require("pkg-e");
      const f = createRequire(import.meta.url)("pkg-f/package.json");
      const g = createRequire(import.meta.url).resolve("pkg-g");
      const h = import.meta.resolve("pkg-h");
      const i = import(\`pkg-i\`);
      const text = 'import x from "not-a-package"';
      // import y from "nor-this-one";
      /* require("nor-that") */
      spawnWorker(import.meta.url, "embedWorker.js", "./worker.ts");
      const computed = await import(\`./\${name}.js\`);
      const other = require(name);
    `;
    const scan = scanModule(source);
    expect(scan.imports).toEqual([
      'pkg-a',
      '@scope/pkg-b/sub/path.js',
      './side.js',
      'pkg-c',
      './chunk-1.js',
      'node:module',
      'pkg-d/deep',
      'pkg-e',
      'pkg-f/package.json',
      'pkg-g',
      'pkg-h',
      'pkg-i',
    ]);
    expect(scan.strings).toContain('embedWorker.js');
    expect(scan.strings).toContain('import x from "not-a-package"');
    expect(scan.dynamic.map((d) => d.text)).toEqual(['import(`./${name}.js`)', 'require(name)']);
  });

  it('names packages and Node’s own modules', () => {
    expect(packageNameOf('a/b/c.js')).toBe('a');
    expect(packageNameOf('@s/a/b')).toBe('@s/a');
    expect(packageNameOf('@s/a')).toBe('@s/a');
    expect(isBuiltin('node:fs')).toBe(true);
    expect(isBuiltin('fs/promises')).toBe(true);
    expect(isBuiltin('worker_threads')).toBe(true);
    expect(isBuiltin('fsevents')).toBe(false);
  });
});

function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

describe('scanBuild', () => {
  const dir = join(work, 'out-main');
  writeTree(dir, {
    'cli.js': `import { x } from "./daemon-AbC123.js"; import "commander"; import "node:fs";`,
    'hook.js': `import("./hook-Xyz.js");`,
    'mcp.js': `import("./cli.js");`,
    'hook-Xyz.js': `import "node:http";`,
    'daemon-AbC123.js': `
      import Database from "better-sqlite3-multiple-ciphers";
      import { z } from "zod/v4";
      const w = spawnWorker(import.meta.url, "embedWorker.js", "./worker.ts");
      const tsx = createRequire(here).resolve("tsx/package.json");
      const dyn = await import("./lazy-1.js");
    `,
    'lazy-1.js': `export const lazy = await import("mammoth");`,
    'embedWorker.js': `import * as ort from "onnxruntime-node"; import "./shared-9.js";`,
    'shared-9.js': `import "@huggingface/tokenizers";`,
    'index.js': `import("./app-E1.js");`,
    'app-E1.js': `import { app } from "electron"; import "./shared-9.js";`,
    'notes.txt': 'import "not-scanned";',
  });

  it('follows relative imports and worker entries named by a literal, from the CLI’s entries', () => {
    const scan = scanBuild(dir, ENTRIES);
    expect(scan.files).toEqual([
      'cli.js',
      'daemon-AbC123.js',
      'embedWorker.js',
      'hook-Xyz.js',
      'hook.js',
      'lazy-1.js',
      'mcp.js',
      'shared-9.js',
    ]);
    expect([...scan.packages.keys()]).toEqual([
      '@huggingface/tokenizers',
      'better-sqlite3-multiple-ciphers',
      'commander',
      'mammoth',
      'onnxruntime-node',
      'tsx',
      'zod',
    ]);
    expect(scan.packages.get('zod')).toEqual(['daemon-AbC123.js']);
    // The Electron main process and what only it loads are left out.
    expect(scan.unreached).toEqual(['app-E1.js', 'index.js']);
    expect(scanBuild(dir, ['index.js']).packages.has('electron')).toBe(true);
  });

  it('refuses a relative import that is not in the folder', () => {
    writeTree(join(work, 'broken'), {
      'cli.js': 'import "./missing-1.js";',
      'hook.js': '',
      'mcp.js': '',
    });
    expect(() => scanBuild(join(work, 'broken'), ENTRIES)).toThrow(/missing-1\.js is not in/);
  });
});

const lockOf = (packages: Lockfile['packages']): Lockfile => ({
  name: 'loci',
  version: '1.0.0',
  lockfileVersion: 3,
  requires: true,
  packages,
});

describe('runtimeDependencies', () => {
  const pkg: PackageJson = {
    name: 'loci',
    version: '1.0.0',
    dependencies: { a: '^1.0.0', '@s/b': '~2.0.0', react: '^19.0.0' },
    devDependencies: { vitest: '^4.0.0', tsx: '^4.0.0' },
    optionalDependencies: { electron: '^40.0.0', ffi: '^3.0.0' },
  };
  const lock = lockOf({
    '': {},
    'node_modules/a': { version: '1.4.2' },
    'node_modules/@s/b': { version: '2.0.7' },
    'node_modules/react': { version: '19.3.1' },
    'node_modules/electron': { version: '40.8.5', optional: true },
    'node_modules/ffi': { version: '3.3.4', optional: true },
  });
  const imported = (...names: string[]) => new Map(names.map((n) => [n, [`${n}.js`]]));

  it('pins each imported package to the version the lockfile installs', () => {
    expect(
      runtimeDependencies(imported('@s/b', 'a', 'tsx'), pkg, lock, { ignored: IGNORED }),
    ).toEqual({ '@s/b': '2.0.7', a: '1.4.2' });
  });

  it('fails loudly on a devDependency, an undeclared package and a forbidden one', () => {
    const run =
      (...names: string[]) =>
      () =>
        runtimeDependencies(imported(...names), pkg, lock, {
          ignored: IGNORED,
          forbidden: FORBIDDEN,
        });
    expect(run('vitest')).toThrow(
      /"vitest" is imported at run time \(imported by vitest\.js\) but is a devDependency/,
    );
    expect(run('left-pad')).toThrow(/"left-pad" .* is not declared/);
    expect(run('electron')).toThrow(/"electron" must not be a dependency/);
    expect(run('react')).toThrow(/"react" must not be a dependency.*out\/renderer/);
  });

  it('keeps an optional dependency the code imports optional, at its locked version', () => {
    const names = imported('a', 'ffi', 'electron');
    const which = { ignored: IGNORED, forbidden: { electron: 'the desktop app only' } };
    expect(() => runtimeDependencies(names, pkg, lock, which)).toThrow(/"electron" must not/);
    expect(runtimeDependencies(imported('a', 'ffi'), pkg, lock, which)).toEqual({ a: '1.4.2' });
    expect(runtimeOptionalDependencies(names, pkg, lock, which)).toEqual({ ffi: '3.3.4' });
    const staged = stagedPackageJson(pkg, { a: '1.4.2' }, PACKAGE_META, { ffi: '3.3.4' });
    expect(staged).toMatchObject({
      dependencies: { a: '1.4.2' },
      optionalDependencies: { ffi: '3.3.4' },
    });
    expect(shrinkwrapRoot(staged).optionalDependencies).toEqual({ ffi: '3.3.4' });
    expect(stagedPackageJson(pkg, { a: '1.4.2' }, PACKAGE_META)).not.toHaveProperty(
      'optionalDependencies',
    );
  });
});

describe('resolveInLock', () => {
  const packages = lockOf({
    '': {},
    'node_modules/x': { version: '1.0.0' },
    'node_modules/a': { version: '1.0.0' },
    'node_modules/a/node_modules/x': { version: '2.0.0' },
    'node_modules/a/node_modules/@s/y': { version: '1.0.0' },
    'node_modules/a/node_modules/@s/y/node_modules/z': { version: '1.0.0' },
  }).packages;

  it('looks in the package’s own node_modules, then upward, then at the top', () => {
    expect(resolveInLock(packages, '', 'x')).toBe('node_modules/x');
    expect(resolveInLock(packages, 'node_modules/a', 'x')).toBe('node_modules/a/node_modules/x');
    expect(resolveInLock(packages, 'node_modules/a/node_modules/@s/y', 'x')).toBe(
      'node_modules/a/node_modules/x',
    );
    expect(resolveInLock(packages, 'node_modules/a/node_modules/@s/y/node_modules/z', 'x')).toBe(
      'node_modules/a/node_modules/x',
    );
    expect(resolveInLock(packages, 'node_modules/a/node_modules/x', 'a')).toBe('node_modules/a');
    expect(resolveInLock(packages, 'node_modules/x', 'z')).toBeNull();
  });
});

describe('shrinkwrapSubset', () => {
  const integrity = (n: string) => `sha512-${n}`;
  const lock = lockOf({
    '': {
      name: 'loci',
      version: '1.0.0',
      dependencies: { a: '^1.0.0', b: '^1.0.0', ui: '^1.0.0' },
      devDependencies: { devtool: '^1.0.0' },
    },
    // a needs x@2, nested under it; x@2 needs y, found at the top.
    'node_modules/a': {
      version: '1.0.0',
      integrity: integrity('a'),
      dependencies: { x: '^2.0.0' },
    },
    'node_modules/a/node_modules/x': {
      version: '2.0.0',
      integrity: integrity('x2'),
      dependencies: { y: '^1.0.0' },
    },
    // b needs x@1 (the top one), a native module with platform packages, and a peer.
    'node_modules/b': {
      version: '1.0.0',
      integrity: integrity('b'),
      hasInstallScript: true,
      dependencies: { x: '^1.0.0' },
      optionalDependencies: {
        'b-linux-x64': '1.0.0',
        'b-darwin-arm64': '1.0.0',
        'b-gone': '1.0.0',
      },
      peerDependencies: { p: '^1.0.0', q: '^1.0.0' },
      peerDependenciesMeta: { q: { optional: true } },
    },
    'node_modules/x': { version: '1.0.0', integrity: integrity('x1') },
    'node_modules/y': { version: '1.0.0', integrity: integrity('y') },
    'node_modules/p': { version: '1.0.0', integrity: integrity('p'), peer: true },
    'node_modules/q': { version: '1.0.0', integrity: integrity('q'), dev: true },
    'node_modules/b-linux-x64': {
      version: '1.0.0',
      integrity: integrity('bl'),
      optional: true,
      os: ['linux'],
      cpu: ['x64'],
      dependencies: { helper: '^1.0.0' },
    },
    'node_modules/b-darwin-arm64': {
      version: '1.0.0',
      integrity: integrity('bd'),
      optional: true,
      os: ['darwin'],
      cpu: ['arm64'],
    },
    'node_modules/helper': { version: '1.0.0', integrity: integrity('h'), devOptional: true },
    // A scoped package that the lockfile already knows the address of.
    'node_modules/@s/ui': {
      version: '3.0.0',
      resolved: 'https://example.test/ui.tgz',
      integrity: integrity('ui'),
    },
    // An aliased one.
    'node_modules/ui': { name: '@s/ui', version: '3.0.0', integrity: integrity('ui') },
    // Not reachable from the package's dependencies.
    'node_modules/devtool': { version: '1.0.0', integrity: integrity('dt'), dev: true },
  });
  const rootEntry = {
    name: 'loci-memory',
    version: '1.0.0',
    dependencies: { a: '1.0.0', b: '1.0.0' },
  };
  const sw = shrinkwrapSubset(lock, rootEntry);

  it('keeps what Node would load, at the same paths, and the root describes the package', () => {
    expect(sw.lockfileVersion).toBe(3);
    expect(sw.name).toBe('loci-memory');
    expect(sw.packages['']).toEqual(rootEntry);
    expect(Object.keys(sw.packages).sort()).toEqual([
      '',
      'node_modules/a',
      'node_modules/a/node_modules/x',
      'node_modules/b',
      'node_modules/b-darwin-arm64',
      'node_modules/b-linux-x64',
      'node_modules/helper',
      'node_modules/p',
      'node_modules/x',
      'node_modules/y',
    ]);
    expect(sw.packages['node_modules/a/node_modules/x']?.version).toBe('2.0.0');
    expect(sw.packages['node_modules/x']?.version).toBe('1.0.0');
    expect(sw.packages['node_modules/b']?.hasInstallScript).toBe(true);
  });

  it('marks what only optional edges reach as optional, with the platform fields', () => {
    expect(sw.packages['node_modules/b-linux-x64']).toMatchObject({
      optional: true,
      os: ['linux'],
      cpu: ['x64'],
    });
    expect(sw.packages['node_modules/b-darwin-arm64']).toMatchObject({
      optional: true,
      os: ['darwin'],
      cpu: ['arm64'],
    });
    // Required by an optional package only: optional too, and without the dev flags.
    expect(sw.packages['node_modules/helper']).toMatchObject({ optional: true });
    expect(sw.packages['node_modules/helper']).not.toHaveProperty('devOptional');
    for (const path of ['node_modules/a', 'node_modules/b', 'node_modules/p', 'node_modules/y']) {
      expect(sw.packages[path], path).not.toHaveProperty('optional');
      expect(sw.packages[path], path).not.toHaveProperty('peer');
    }
  });

  it('gives registry packages their tarball address, and keeps one already known', () => {
    expect(sw.packages['node_modules/a/node_modules/x']?.resolved).toBe(
      'https://registry.npmjs.org/x/-/x-2.0.0.tgz',
    );
    expect(registryTarball('@s/ui', '3.0.0')).toBe(
      'https://registry.npmjs.org/@s/ui/-/ui-3.0.0.tgz',
    );
    const withUi = shrinkwrapSubset(lock, {
      name: 'n',
      version: '1.0.0',
      dependencies: { ui: '1' },
    });
    expect(withUi.packages['node_modules/ui']?.resolved).toBe(
      'https://registry.npmjs.org/@s/ui/-/ui-3.0.0.tgz',
    );
    const scoped = lockOf({ ...lock.packages });
    const direct = shrinkwrapSubset(scoped, {
      name: 'n',
      version: '1.0.0',
      dependencies: { '@s/ui': '3.0.0' },
    });
    expect(direct.packages['node_modules/@s/ui']?.resolved).toBe('https://example.test/ui.tgz');
  });

  it('refuses a missing required dependency, a dev-only entry and a link', () => {
    const missing = lockOf({ ...lock.packages, 'node_modules/y': undefined as never });
    delete missing.packages['node_modules/y'];
    expect(() => shrinkwrapSubset(missing, rootEntry)).toThrow(
      /node_modules\/a\/node_modules\/x needs "y", which package-lock.json lacks/,
    );
    const dev = lockOf({ ...lock.packages, 'node_modules/y': { version: '1.0.0', dev: true } });
    expect(() => shrinkwrapSubset(dev, rootEntry)).toThrow(/node_modules\/y is dev-only/);
    const linked = lockOf({
      ...lock.packages,
      'node_modules/y': { link: true, resolved: '../y' },
    });
    expect(() => shrinkwrapSubset(linked, rootEntry)).toThrow(/node_modules\/y is a link/);
  });
});

describe.skipIf(!existsSync(join(root, 'out/main/cli.js')))('the real package', () => {
  it('imports only root dependencies from the built CLI, and its shrinkwrap is complete', () => {
    const lock = readJson<Lockfile>(join(root, 'package-lock.json'));
    const scan = scanBuild(join(root, 'out/main'), ENTRIES);
    const deps = runtimeDependencies(scan.packages, rootPackage, lock, {
      ignored: IGNORED,
      forbidden: FORBIDDEN,
    });
    expect(Object.keys(deps)).toContain('better-sqlite3-multiple-ciphers');
    expect(Object.keys(deps)).toContain('onnxruntime-node');
    // Pure JavaScript is bundled into the CLI (a faster start): the SDK and zod included.
    expect(Object.keys(deps)).not.toContain('@modelcontextprotocol/sdk');
    expect(Object.keys(deps)).not.toContain('zod');
    expect(Object.keys(deps)).not.toContain('electron');
    // koffi (malloc_trim at an idle trim) is optional: npm skips it where it cannot install.
    const optional = runtimeOptionalDependencies(scan.packages, rootPackage, lock, {
      ignored: IGNORED,
      forbidden: FORBIDDEN,
    });
    expect(Object.keys(optional)).toEqual(['koffi']);
    const pkg = stagedPackageJson(
      rootPackage,
      deps,
      { ...PACKAGE_META, mcpName: server.name },
      optional,
    );
    const sw = shrinkwrapSubset(lock, shrinkwrapRoot(pkg));
    const entries = Object.entries(sw.packages).filter(([path]) => path !== '');
    expect(entries.length).toBeGreaterThan(Object.keys(deps).length);
    for (const [path, entry] of entries) {
      expect(entry.dev, path).toBeUndefined();
      if (!entry.inBundle) {
        expect(entry.integrity, path).toMatch(/^sha512-/);
        expect(entry.resolved, path).toMatch(/^https:\/\//);
      }
    }
    // sqlite-vec's platform packages come along, optional, with their os and cpu.
    expect(sw.packages['node_modules/sqlite-vec-linux-x64']).toMatchObject({
      optional: true,
      os: ['linux'],
      cpu: ['x64'],
    });
  });
});
