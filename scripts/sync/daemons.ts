// Real `loci serve` daemons, each on its own data directory, for the sync tests and
// `npm run bench:sync`: started as users start them (the built CLI when there is one,
// else the sources through tsx), driven over their HTTP API with the owner's token,
// stopped gracefully or killed with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOwner } from '../../src/main/http/client';

const root = fileURLToPath(new URL('../..', import.meta.url));

function daemonCommand(): string[] {
  return existsSync(join(root, 'out/main/cli.js'))
    ? [join(root, 'bin/loci.js'), 'serve', '--port', '0']
    : ['--import', 'tsx', join(root, 'src/main/cli.ts'), 'serve', '--port', '0'];
}

export interface DaemonHandle {
  home: string;
  child: ChildProcess;
  url: string;
  /** Calls a contract method; throws the engine's error (code and message) when it fails. */
  api<T = unknown>(method: string, args: unknown): Promise<T>;
  /** Graceful stop (SIGTERM), waiting for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no chance to flush anything. */
  kill(): Promise<void>;
}

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function tempHome(prefix = 'loci-sync-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startDaemon(
  home: string,
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<DaemonHandle> {
  const child = spawn(process.execPath, daemonCommand(), {
    cwd: root,
    env: { ...process.env, LOCI_HOME: home, LOCI_MODEL_PATH: '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-8000)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`the daemon did not serve in ${timeoutMs / 1000} s: ${err}`)),
      timeoutMs,
    );
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (/MCP endpoint:\s+(\S+)/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the daemon exited (${code}) before serving: ${err}`));
    });
  });
  const owner = findOwner(home);
  if (!owner) throw new Error('the daemon serves but left no lock file');
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const api = async <T>(method: string, args: unknown): Promise<T> => {
    const r = await fetch(`${owner.url}/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    const body = (await r.json()) as { result?: T; error?: { code: string; message: string } };
    if (body.error) throw new ApiError(body.error.code, `${method}: ${body.error.message}`);
    return body.result as T;
  };
  return {
    home,
    child,
    url: owner.url,
    api,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
