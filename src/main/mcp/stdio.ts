// `loci mcp`: MCP over stdio for editors that spawn their servers. When a daemon or the
// app owns the data directory, every message is forwarded to it over HTTP (one writer,
// one copy of the models); otherwise this process opens the store itself, holding the
// lock. stdout carries JSON-RPC only — logs go to stderr. It exits when stdin closes,
// and when no `initialize` arrives within the timeout.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { openEngine, resolveDataDir } from '../api/host';
import { findOwner } from '../http/client';
import { isolatedFetch } from '../http/isolatedFetch';
import { BoundedStdioTransport } from './lineTransport';
import { buildMcpServer } from './server';

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

const isInitialize = (m: JSONRPCMessage) => 'method' in m && m.method === 'initialize';

/** Runs until stdin closes (or the init timeout); resolves with the exit code. */
export async function runStdio(options: StdioOptions = {}): Promise<number> {
  const log = options.log ?? ((line: string) => process.stderr.write(`loci mcp: ${line}\n`));
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const dataDir = options.dataDir ?? resolveDataDir();
  const stdio = new BoundedStdioTransport(stdin, stdout);
  stdio.onerror = (err) => log(err.message);
  let initialized = false;
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => (finish = resolve));
  const timer = setTimeout(() => {
    if (!initialized) {
      log(
        `no initialize request within ${Math.round((options.initTimeoutMs ?? DEFAULT_INIT_TIMEOUT_MS) / 1000)} s; exiting`,
      );
      finish(1);
    }
  }, options.initTimeoutMs ?? DEFAULT_INIT_TIMEOUT_MS);
  timer.unref();
  stdin.on('end', () => finish(0));
  stdin.on('close', () => finish(0));

  // A client token of its own (`loci clients add`, written by `loci setup`): the client's
  // name and policy hold for every call, here or in the daemon it forwards to.
  const clientToken = (options.env ?? process.env).LOCI_TOKEN?.trim() || null;
  const owner = findOwner(dataDir);
  if (owner) {
    // Forward every message, both ways, to the running owner.
    log(
      `forwarding to the Loci ${owner.kind === 'app' ? 'app' : 'daemon'} at ${owner.url} (pid ${owner.pid})`,
    );
    const http = new StreamableHTTPClientTransport(new URL(`${owner.url}/mcp`), {
      requestInit: {
        headers: {
          authorization: `Bearer ${clientToken ?? owner.token}`,
          'x-loci-transport': 'stdio-proxy',
        },
      },
      fetch: isolatedFetch(),
    });
    stdio.onmessage = (message) => {
      if (isInitialize(message)) initialized = true;
      http.send(message).catch((err: Error) => {
        log(`forwarding failed: ${err.message}`);
        if ('id' in message && message.id !== undefined) {
          void stdio.send({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32603, message: `The Loci daemon did not answer: ${err.message}` },
          });
        }
      });
    };
    http.onmessage = (message) => {
      void stdio.send(message);
    };
    http.onerror = (err) => log(`daemon connection: ${err.message}`);
    await http.start();
    await stdio.start();
    const code = await done;
    clearTimeout(timer);
    await http.terminateSession().catch(() => undefined);
    await http.close().catch(() => undefined);
    await stdio.close().catch(() => undefined);
    return code;
  }

  const { engine, handlers } = await openEngine({
    dataDir,
    owner: 'mcp',
    embedWrites: 'background',
    ...(options.env ? { env: options.env } : {}),
  });
  const grant = clientToken ? engine.access.grants.verify(clientToken) : null;
  if (clientToken && !grant) {
    log(
      'LOCI_TOKEN is not a client token of this data directory (revoked or rotated?): `loci clients list` shows them, `loci setup` writes a new one',
    );
    clearTimeout(timer);
    await engine.close();
    return 1;
  }
  const server = buildMcpServer({
    handlers,
    activity: engine.activity,
    events: engine.events,
    transport: 'stdio',
    ...(grant ? { grant } : {}),
    defaultStore: options.store,
    onCall: (client) => engine.clients.touch('stdio', { client, call: true }),
  });
  server.oninitialized = () => {
    initialized = true;
    engine.clients.connect({
      id: 'stdio',
      client: server.getClientVersion()?.name ?? 'unknown',
      transport: 'stdio',
    });
  };
  stdio.onclose = () => finish(0);
  await server.connect(stdio);
  const code = await done;
  clearTimeout(timer);
  await server.close().catch(() => undefined);
  await engine.close();
  return code;
}
