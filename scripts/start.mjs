#!/usr/bin/env node
// `npm start`: builds what is stale, then runs Loci — the daemon that serves your memory
// to every editor over MCP (http://127.0.0.1:4747/mcp), with the API and the observatory
// on the same port. It runs in the foreground; Ctrl+C stops it. The desktop shell
// (Electron, tray icon) is not part of this version, so the daemon runs headless and
// the observatory opens in a browser.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-stale'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

console.log(
  'Starting the Loci daemon (headless: the desktop app is not part of this version).\n' +
    'Open the Observatory address below in your browser; connect your editors with\n' +
    '`npx loci setup` in another terminal.\n',
);
const daemon = spawn(
  process.execPath,
  [join(root, 'bin/loci.js'), 'serve', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
// Ctrl+C reaches the daemon through the terminal; a plain kill of this process is passed on.
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => daemon.kill(signal));
process.on('SIGINT', () => undefined);
daemon.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
