#!/usr/bin/env node
// `npm start`: builds what is stale, then runs Loci. With Electron's runtime installed,
// that is the desktop app (tray icon, window; the engine and MCP at
// http://127.0.0.1:4747/mcp). Without it (machines that cannot download Electron), it
// is the headless daemon `loci serve` in the foreground, with the observatory opened in
// the default browser when there is one. Ctrl+C stops either.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { browserCommand, detectElectron, observatoryUrlFrom } from './runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-stale'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

function follow(child) {
  // Ctrl+C reaches the child through the terminal; a plain kill of this process is passed on.
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  process.on('SIGINT', () => undefined);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const electron = detectElectron(root);
if (electron.binary) {
  if (!existsSync(join(root, 'native/electron/better_sqlite3.node'))) {
    console.log('Building better-sqlite3 for Electron once (native/electron/)…');
    const native = spawnSync(process.execPath, [join(root, 'scripts/native-electron.mjs')], {
      cwd: root,
      stdio: 'inherit',
    });
    if (native.status !== 0) process.exit(native.status ?? 1);
  }
  console.log('Starting the Loci desktop app (tray icon and window).');
  // Inherited, ELECTRON_RUN_AS_NODE would turn the app into a plain Node process.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  follow(
    spawn(electron.binary, [root, ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' }),
  );
} else {
  const where = browserCommand('http://127.0.0.1/')
    ? 'its observatory opens in your browser'
    : 'open the Observatory address below in a browser';
  console.log(
    `Electron's runtime is not installed here (${electron.reason}), so Loci runs as the headless daemon; ${where}.\n`,
  );
  const daemon = spawn(
    process.execPath,
    [join(root, 'bin/loci.js'), 'serve', ...process.argv.slice(2)],
    { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] },
  );
  let opened = false;
  createInterface({ input: daemon.stdout }).on('line', (line) => {
    process.stdout.write(`${line}\n`);
    const url = opened ? null : observatoryUrlFrom(line);
    if (!url) return;
    opened = true;
    const open = browserCommand(url);
    if (!open) return;
    // Opening a browser is a convenience: any failure (no browser, no opener) is ignored.
    try {
      const child = spawn(open.command, open.args, { stdio: 'ignore', detached: true });
      child.on('error', () => undefined);
      child.unref();
    } catch {
      /* no opener on this machine */
    }
  });
  follow(daemon);
}
