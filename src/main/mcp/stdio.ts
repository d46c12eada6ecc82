// `loci mcp`: MCP over stdio for editors that spawn their servers. When a daemon or the
// app owns the data directory, every message is forwarded to it over HTTP (one writer,
// one copy of the models) and no engine is loaded (stdioProxy.ts); otherwise this process
// serves the store itself, holding the lock (stdioLocal.ts). stdout carries JSON-RPC
// only — logs go to stderr. It exits when stdin closes, and when no `initialize` arrives
// within the timeout. Each side is loaded only when it is the one that runs: a cold start
// loads what its first answer needs and nothing else.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { findOwner } from '../http/client';
import { resolveDataDir, verifyClientToken } from '../api/discovery';
import { BoundedStdioTransport } from './lineTransport';

export const DEFAULT_INIT_TIMEOUT_MS = 60_000;

export interface StdioOptions {
  dataDir?: string;
  store?: string;
  env?: Record<string, string | undefined>;
  initTimeoutMs?: number;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  log?: (line: string) => void;
}

/** What both sides share: the stdio transport and the session's end. */
export interface StdioSession {
  stdio: BoundedStdioTransport;
  log: (line: string) => void;
  /** Resolves with the exit code when stdin closes or the init timeout passes. */
  done: Promise<number>;
  finish: (code: number) => void;
  /** Called on the first `initialize`: the init timeout no longer applies. */
  initialized: () => void;
}

export const isInitialize = (m: JSONRPCMessage) => 'method' in m && m.method === 'initialize';

/** Runs until stdin closes (or the init timeout); resolves with the exit code. */
export async function runStdio(options: StdioOptions = {}): Promise<number> {
  const log = options.log ?? ((line: string) => process.stderr.write(`loci mcp: ${line}\n`));
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const dataDir = options.dataDir ?? resolveDataDir();
  const env = options.env ?? process.env;
  const stdio = new BoundedStdioTransport(stdin, stdout);
  stdio.onerror = (err) => log(err.message);
  let initialized = false;
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finish = resolve));
  const initTimeoutMs = options.initTimeoutMs ?? DEFAULT_INIT_TIMEOUT_MS;
  const timer = setTimeout(() => {
    if (!initialized) {
      log(`no initialize request within ${Math.round(initTimeoutMs / 1000)} s; exiting`);
      finish(1);
    }
  }, initTimeoutMs);
  timer.unref();
  stdin.on('end', () => finish(0));
  stdin.on('close', () => finish(0));
  const session: StdioSession = {
    stdio,
    log,
    done,
    finish,
    initialized: () => (initialized = true),
  };

  // A client token of its own (`loci clients add`, written by `loci setup`): the client's
  // name and policy hold for every call, here or in the daemon it forwards to.
  const clientToken = env.LOCI_TOKEN?.trim() || null;
  try {
    const owner = findOwner(dataDir);
    if (owner) {
      const { forwardStdio } = await import('./stdioProxy');
      return await forwardStdio(session, owner, clientToken);
    }
    const grant = clientToken ? verifyClientToken(dataDir, clientToken) : null;
    if (clientToken && !grant) {
      log(
        'LOCI_TOKEN is not a client token of this data directory (revoked or rotated?): `loci clients list` shows them, `loci setup` writes a new one',
      );
      return 1;
    }
    const { serveStdio } = await import('./stdioLocal');
    return await serveStdio(session, {
      dataDir,
      env: options.env,
      store: options.store,
      grant,
    });
  } finally {
    clearTimeout(timer);
  }
}
