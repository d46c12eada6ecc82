#!/usr/bin/env node
// `npm start`: builds what is stale, then runs Loci. This version of Loci is the
// engine and its command line; the command prints the state of your default store and
// the commands to use it.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

const build = run([join(root, 'scripts/build.mjs'), '--if-stale']);
if (build.status !== 0) process.exit(build.status ?? 1);

const loci = join(root, 'bin/loci.js');
console.log('Loci is installed. Your default store:\n');
const stats = run([loci, 'stats']);
if (stats.status !== 0) process.exit(stats.status ?? 1);
console.log('\nTry:  npx loci remember "We deploy on Tuesdays"   then   npx loci recall deploy\n');
run([loci, '--help']);
