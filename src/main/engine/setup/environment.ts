// What `loci setup` writes into client configurations: the daemon's URL (its running
// port, else the default), the token, and how to start `loci mcp` from this installation.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PORT } from '../../../shared/api';
import { isProcessAlive, readLock } from '../store/lock';
import { loadOrCreateToken } from '../store/token';
import type { SetupEnvironment } from './setup';

/** The repository's package, and the one published to npm (scripts/pack.mjs). */
const PACKAGE_NAMES = new Set(['loci', 'loci-memory']);

/** This installation's `bin/loci.js`, found by walking up to the package root. */
export function binScript(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (let i = 0; i < 8; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && existsSync(join(dir, 'bin', 'loci.js'))) {
      try {
        const name = (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name;
        if (name && PACKAGE_NAMES.has(name)) return join(dir, 'bin', 'loci.js');
      } catch {
        /* keep looking */
      }
    }
    dir = dirname(dir);
  }
  return 'loci';
}

/**
 * How a stdio client starts `loci mcp`: this Node running this installation's script, or,
 * when that script sits in npx's cache (`npx -y loci-memory setup`), which npm may empty
 * or replace with a newer version, `npx -y loci-memory mcp` again.
 */
export function stdioCommand(script: string): { command: string; args: string[] } {
  if (script === 'loci') return { command: 'loci', args: ['mcp'] };
  if (script.includes(`${sep}_npx${sep}`))
    return { command: 'npx', args: ['-y', 'loci-memory', 'mcp'] };
  return { command: process.execPath, args: [script, 'mcp'] };
}

export function setupEnvironment(
  dataDir: string,
  options: { home?: string; env?: Record<string, string | undefined> } = {},
): SetupEnvironment {
  const lock = readLock(dataDir);
  const running = Boolean(lock?.port && isProcessAlive(lock.pid));
  const port = running ? (lock?.port as number) : DEFAULT_PORT;
  // Inside the desktop app, process.execPath is the app itself, which will not run a
  // script (its RunAsNode fuse is off): stdio entries start the `loci` CLI from PATH,
  // which forwards to the app; clients that take HTTP get the app's URL instead.
  const script = process.versions.electron ? 'loci' : binScript();
  return {
    ctx: {
      home: options.home ?? homedir(),
      platform: process.platform,
      env: options.env ?? process.env,
    },
    endpoint: {
      url: `http://127.0.0.1:${port}/mcp`,
      token: loadOrCreateToken(dataDir).token,
      ...stdioCommand(script),
    },
    daemonRunning: running,
  };
}
