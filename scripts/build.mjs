#!/usr/bin/env node
// Builds the project with electron-vite. electron-vite reads Electron's version from
// the installed `electron` package; where the runtime could not be installed (no
// access to Electron's download host), we tell it the pinned major instead.
// `--if-stale` (used by `npm install`'s prepare step) skips the build when out/ is
// newer than every source file.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (process.argv.includes('--if-stale')) {
  const built = join(root, 'out/main/cli.js');
  if (existsSync(built)) {
    const sources = Math.max(
      newestMtime(join(root, 'src')),
      statSync(join(root, 'electron.vite.config.ts')).mtimeMs,
      statSync(join(root, 'package.json')).mtimeMs,
    );
    if (statSync(built).mtimeMs > sources) process.exit(0);
  }
}

const env = { ...process.env };
if (!env.ELECTRON_MAJOR_VER) {
  let installed = false;
  try {
    require.resolve('electron/package.json');
    installed = true;
  } catch {
    installed = false;
  }
  if (!installed) {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const range = pkg.optionalDependencies?.electron ?? '';
    const major = /(\d+)/.exec(range)?.[1];
    if (!major) {
      console.error('build: cannot read the pinned Electron major from package.json');
      process.exit(1);
    }
    env.ELECTRON_MAJOR_VER = major;
  }
}

const bin = join(root, 'node_modules/electron-vite/bin/electron-vite.js');
const result = spawnSync(process.execPath, [bin, 'build'], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
