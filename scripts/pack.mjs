#!/usr/bin/env node
// npm run pack — the npm package `loci-memory` (`npx -y loci-memory mcp`), built from a
// staging folder rather than from the repository: bin/loci.js, the files of out/main the
// CLI loads (not the Electron main process), out/renderer (the observatory `loci serve`
// serves), README.md, LICENSE, a generated package.json whose dependencies are exactly
// the packages that code imports at run time (at the versions package-lock.json
// installs), and an npm-shrinkwrap.json cut from package-lock.json, so users install the
// tested tree without asking the registry for package metadata. The pure logic is in
// scripts/packLib.mjs (tested by test/package.test.ts); the installed package is tried by
// scripts/pack-test.mjs.
//
//   node scripts/pack.mjs [--out <dir>] [--no-build] [--quiet]
//
// --out       where the tarball goes (default .pack/); its path is the last line printed.
// --no-build  do not run `scripts/build.mjs --if-stale` first.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  ENTRIES,
  FORBIDDEN,
  IGNORED,
  PACKAGE_META,
  PACKAGE_NAME,
  runtimeDependencies,
  runtimeOptionalDependencies,
  scanBuild,
  shrinkwrapRoot,
  shrinkwrapSubset,
  stagedPackageJson,
} from './packLib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
function fail(message) {
  console.error(`pack: ${message}`);
  process.exit(1);
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

async function main() {
  const { values: opts } = parseArgs({
    options: {
      out: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
  });
  const log = (line) => {
    if (!opts.quiet) console.log(`pack: ${line}`);
  };
  const outDir = resolve(opts.out ?? join(root, '.pack'));

  if (!opts['no-build']) {
    // Silent when out/ is newer than the sources; otherwise it builds.
    const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-stale'], {
      cwd: root,
      encoding: 'utf8',
    });
    if (built.status !== 0) fail(`the build failed:\n${built.stdout}${built.stderr}`);
    if (built.stdout.trim()) log('out/ was older than the sources: built it again');
  }
  const mainDir = join(root, 'out/main');
  const rendererDir = join(root, 'out/renderer');
  for (const need of [join(mainDir, 'cli.js'), join(rendererDir, 'index.html')]) {
    if (!existsSync(need)) fail(`${need} is missing: run \`npm run build\` first`);
  }
  for (const need of ['README.md', 'LICENSE', 'bin/loci.js', 'server.json']) {
    if (!existsSync(join(root, need))) fail(`${need} is missing`);
  }

  const rootPackage = readJson(join(root, 'package.json'));
  const lock = readJson(join(root, 'package-lock.json'));
  const server = readJson(join(root, 'server.json'));

  // The lockfile must be the one package.json was installed with.
  const locked = lock.packages?.['']?.dependencies ?? {};
  for (const [name, range] of Object.entries(rootPackage.dependencies ?? {})) {
    if (locked[name] !== range)
      fail(
        `package-lock.json is stale (${name}: "${range}" vs "${locked[name]}"): run npm install`,
      );
  }
  // server.json (the MCP registry's entry) describes this package.
  const npmEntry = (server.packages ?? []).find((p) => p.registryType === 'npm');
  if (!npmEntry || npmEntry.identifier !== PACKAGE_NAME)
    fail(`server.json has no npm package "${PACKAGE_NAME}"`);
  if (server.version !== rootPackage.version || npmEntry.version !== rootPackage.version)
    fail(
      `server.json says version ${server.version} (package ${npmEntry.version}), package.json ${rootPackage.version}`,
    );

  // What the CLI loads, and what that imports.
  const scan = scanBuild(mainDir, ENTRIES);
  const electronOnly = new Set(scanBuild(mainDir, ['index.js']).files);
  const orphans = scan.unreached.filter((f) => !electronOnly.has(f));
  if (orphans.length > 0)
    fail(
      `out/main has files neither the CLI nor the desktop app loads: ${orphans.join(', ')} ` +
        '(a worker entry must be named by a string literal, e.g. spawnWorker(…, "x.js", …))',
    );
  for (const [file, loads] of scan.dynamic) {
    for (const d of loads)
      log(`note: out/main/${file}:${d.line} loads a computed specifier: ${d.text}`);
  }
  let dependencies;
  let optionalDependencies;
  try {
    const which = { ignored: IGNORED, forbidden: FORBIDDEN };
    dependencies = runtimeDependencies(scan.packages, rootPackage, lock, which);
    optionalDependencies = runtimeOptionalDependencies(scan.packages, rootPackage, lock, which);
  } catch (err) {
    fail(`the built code's imports do not fit package.json:\n${err.message}`);
  }
  const pkg = stagedPackageJson(
    rootPackage,
    dependencies,
    { ...PACKAGE_META, mcpName: server.name },
    optionalDependencies,
  );
  let shrinkwrap;
  try {
    shrinkwrap = shrinkwrapSubset(lock, shrinkwrapRoot(pkg));
  } catch (err) {
    fail(`cannot cut npm-shrinkwrap.json from package-lock.json:\n${err.message}`);
  }

  // The staging folder: exactly what is published.
  const stage = join(root, '.pack', PACKAGE_NAME);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, 'bin'), { recursive: true });
  mkdirSync(join(stage, 'out/main'), { recursive: true });
  copyFileSync(join(root, 'bin/loci.js'), join(stage, 'bin/loci.js'));
  for (const file of scan.files) {
    mkdirSync(dirname(join(stage, 'out/main', file)), { recursive: true });
    copyFileSync(join(mainDir, file), join(stage, 'out/main', file));
  }
  cpSync(rendererDir, join(stage, 'out/renderer'), { recursive: true });
  copyFileSync(join(root, 'README.md'), join(stage, 'README.md'));
  copyFileSync(join(root, 'LICENSE'), join(stage, 'LICENSE'));
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(stage, 'npm-shrinkwrap.json'), `${JSON.stringify(shrinkwrap, null, 2)}\n`);

  const entries = Object.keys(shrinkwrap.packages).length - 1;
  const optional = Object.values(shrinkwrap.packages).filter((e) => e.optional).length;
  const withScripts = Object.entries(shrinkwrap.packages)
    .filter(([, e]) => e.hasInstallScript)
    .map(([p]) => p.replace(/^.*node_modules\//, ''));
  log(
    `${PACKAGE_NAME}@${pkg.version}: ${scan.files.length} files of out/main, ` +
      `${Object.keys(dependencies).length} dependencies ` +
      `(and ${Object.keys(optionalDependencies).length} optional), ${entries} packages in npm-shrinkwrap.json ` +
      `(${optional} optional), install scripts: ${withScripts.join(', ') || 'none'}`,
  );

  mkdirSync(outDir, { recursive: true });
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', outDir], {
    cwd: stage,
    encoding: 'utf8',
    env: { ...process.env, npm_config_ignore_scripts: 'true' },
  });
  if (packed.status !== 0) fail(`npm pack failed:\n${packed.stderr}`);
  const [info] = JSON.parse(packed.stdout);
  const tarball = join(outDir, info.filename);
  log(
    `${info.entryCount} files, ${(info.size / 1e6).toFixed(2)} MB packed, ${(info.unpackedSize / 1e6).toFixed(2)} MB unpacked`,
  );
  console.log(tarball);
}

await main();
