#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into a separate file, leaving node_modules
// (built for Node: the CLI, the tests) untouched: a copy of the package is compiled with
// node-gyp against Electron's headers, and its better_sqlite3.node is copied out.
// The app loads it through better-sqlite3's `nativeBinding` option (src/main/index.ts).
//   node scripts/native-electron.mjs [--electron <version>] [--arch <arch>] [--out <file>]
// Defaults: the installed electron package's version, this machine's arch,
// native/electron/better_sqlite3.node. Needs Electron's headers (electronjs.org/headers).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  copyFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

export const DEFAULT_OUT = join(root, 'native', 'electron', 'better_sqlite3.node');

export function installedElectronVersion() {
  try {
    return JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/** Compiles better-sqlite3 for one Electron version and arch; returns the output file. */
export function buildElectronSqlite({
  electronVersion,
  arch = process.arch,
  outFile = DEFAULT_OUT,
}) {
  if (!/^\d+\.\d+\.\d+/.test(electronVersion ?? ''))
    throw new Error(`native-electron: not an Electron version: ${electronVersion}`);
  const pkgDir = dirname(require.resolve('better-sqlite3-multiple-ciphers/package.json'));
  const work = mkdtempSync(join(tmpdir(), 'loci-native-'));
  try {
    const copy = join(work, 'better-sqlite3-multiple-ciphers');
    cpSync(pkgDir, copy, {
      recursive: true,
      filter: (src) => !src.startsWith(join(pkgDir, 'build')),
    });
    const gyp = require.resolve('node-gyp/bin/node-gyp.js');
    const result = spawnSync(
      process.execPath,
      [
        gyp,
        'rebuild',
        '--release',
        `--target=${electronVersion}`,
        `--arch=${arch}`,
        '--dist-url=https://electronjs.org/headers',
        `--devdir=${join(work, 'gyp')}`,
      ],
      // The system's Node headers must not be used for Electron: drop npm's nodedir.
      { cwd: copy, stdio: 'inherit', env: { ...process.env, npm_config_nodedir: '' } },
    );
    if (result.status !== 0)
      throw new Error(`native-electron: node-gyp failed for Electron ${electronVersion} (${arch})`);
    const built = join(copy, 'build', 'Release', 'better_sqlite3.node');
    if (!existsSync(built)) throw new Error(`native-electron: no ${built} after the build`);
    mkdirSync(dirname(outFile), { recursive: true });
    copyFileSync(built, outFile);
    return outFile;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function argValue(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const electronVersion = argValue('--electron') ?? installedElectronVersion();
  if (!electronVersion) {
    console.error('native-electron: Electron is not installed; pass --electron <version>.');
    process.exit(1);
  }
  try {
    const out = buildElectronSqlite({
      electronVersion,
      arch: argValue('--arch') ?? process.arch,
      outFile: resolve(argValue('--out') ?? DEFAULT_OUT),
    });
    console.log(`native-electron: better-sqlite3 for Electron ${electronVersion} → ${out}`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
