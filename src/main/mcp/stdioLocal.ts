// `loci mcp` with no daemon running: this process serves the store itself. initialize,
// tools/list and prompts/list need no engine, so they are answered before it is loaded;
// the engine opens as soon as tools/list has been answered (or a request needs it, or
// shortly after initialize when a client lists nothing), and a call waits for it.
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientGrant } from '../../shared/api';
import type { Engine } from '../engine/engine';
import { buildMcpServer, type McpBackend } from './server';
import type { StdioSession } from './stdio';

/** After initialize, how long a client that lists no tools waits before the engine opens. */
const OPEN_AFTER_INITIALIZE_MS = 250;

export interface LocalStdioOptions {
  dataDir: string;
  env: Record<string, string | undefined> | undefined;
  store: string | undefined;
  grant: ClientGrant | null;
}

export async function serveStdio(session: StdioSession, o: LocalStdioOptions): Promise<number> {
  const { stdio, log } = session;
  // Served here: every message is checked against the SDK's own schema before it is read.
  stdio.accepts = (value) => JSONRPCMessageSchema.safeParse(value).success;
  let engine: Engine | null = null;
  let client: string | null = null;
  let ended = false;
  let opening: Promise<McpBackend> | null = null;
  const connectClient = () => {
    if (engine && client) engine.clients.connect({ id: 'stdio', client, transport: 'stdio' });
  };
  const open = (): Promise<McpBackend> => {
    opening ??= (async () => {
      const { openEngine } = await import('../api/host');
      const opened = await openEngine({
        dataDir: o.dataDir,
        owner: 'mcp',
        embedWrites: 'background',
        ...(o.env ? { env: o.env } : {}),
      });
      engine = opened.engine;
      // This process stays up as long as the editor: it gives back what it can when quiet.
      engine.footprint.start();
      connectClient();
      return { handlers: opened.handlers, activity: engine.activity, events: engine.events };
    })();
    opening.catch((err: unknown) =>
      log(
        `the store did not open: ${err instanceof Error ? err.message : String(err)} (every call says so until this process restarts)`,
      ),
    );
    return opening;
  };
  const warm = () => {
    if (!ended) void open().catch(() => undefined);
  };

  const server = buildMcpServer({
    backend: open,
    afterToolsList: warm,
    transport: 'stdio',
    ...(o.grant ? { grant: o.grant } : {}),
    defaultStore: o.store,
    onCall: (name) =>
      void open().then(
        () => engine?.clients.touch('stdio', { client: name, call: true }),
        () => undefined,
      ),
  });
  server.oninitialized = () => {
    session.initialized();
    client = server.getClientVersion()?.name ?? 'unknown';
    connectClient();
    setTimeout(warm, OPEN_AFTER_INITIALIZE_MS).unref();
  };
  stdio.onclose = () => session.finish(0);
  await server.connect(stdio);
  const code = await session.done;
  ended = true;
  await server.close().catch(() => undefined);
  // An engine still opening is waited for, then closed (its lock released).
  const pending = opening as Promise<McpBackend> | null;
  if (pending) await pending.catch(() => undefined);
  const opened = engine as Engine | null;
  if (opened) await opened.close();
  return code;
}
