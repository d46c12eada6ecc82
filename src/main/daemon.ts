// `loci serve` (and the desktop app's engine): the engine, its handlers and the HTTP
// server (MCP at /mcp, the API, the observatory) in one process that owns the data
// directory. The lock file records the port and where the token is, so `loci mcp` and
// the CLI forward to this process instead of opening the database themselves.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LociError } from '../shared/errors';
import { createHandlers, type HandlerRegistry } from './api';
import { Engine, type EngineOptions } from './engine/engine';
import type { OwnerKind } from './engine/store/lock';
import { DEFAULT_PORT, startHttpServer, type RunningHttpServer } from './http/server';
import { isLoopbackHost } from './http/security';
import { loadOrCreateToken, tokenSource } from './engine/store/token';
import { Maintenance } from './engine/store/maintenance';

export interface DaemonOptions {
  dataDir?: string;
  host?: string;
  /** 0 picks a free port; the default falls back to a free one when taken. */
  port?: number;
  /** Default store for MCP tools called without one. */
  store?: string;
  /** Serve without a token (refused unless bound to a loopback address). */
  noAuth?: boolean;
  owner?: OwnerKind;
  env?: Record<string, string | undefined>;
  extraOrigins?: string[];
  engine?: Partial<EngineOptions>;
}

export interface Daemon {
  engine: Engine;
  handlers: HandlerRegistry;
  http: RunningHttpServer;
  /** Base URL, e.g. http://127.0.0.1:4747 */
  url: string;
  token: string | null;
  tokenPath: string | null;
  /** The observatory's address with the token (in the fragment, so it never reaches a log). */
  observatoryUrl: string;
  /** WAL checkpoints and scheduled backups of the open stores. */
  maintenance: Maintenance;
  /** Stores that could not be opened at start (damaged and moved aside, say), with why. */
  storeProblems: { store: string; message: string }[];
  close(): Promise<void>;
}

/** The built observatory: out/renderer next to the built main bundle, or in the repository. */
export function rendererDir(): string | undefined {
  const here = fileURLToPath(import.meta.url);
  const candidates = here.endsWith('.ts')
    ? [resolve(dirname(here), '../../out/renderer')]
    : // out/main/cli.js, or a chunk under out/main/chunks/ (shared with the Electron entry).
      [resolve(dirname(here), '../renderer'), resolve(dirname(here), '../../renderer')];
  return candidates.find((d) => existsSync(join(d, 'index.html')));
}

export async function startDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const host = options.host ?? '127.0.0.1';
  if (options.noAuth && !isLoopbackHost(host)) {
    throw new LociError(
      'forbidden',
      `Refusing to serve on ${host} without a token: anyone on the network could read and change your memories. Drop --no-auth, or bind to 127.0.0.1.`,
    );
  }
  const engine = await Engine.open({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    owner: options.owner ?? 'serve',
    embedWrites: 'background',
    ...(options.env ? { env: options.env } : {}),
    ...options.engine,
  });
  try {
    if (options.store) await engine.store(options.store);
    // Every store is opened (and so checked) now, not at the first call that needs it: a
    // damaged one is found at start and named in the banner, and the rest still serve.
    const storeProblems: { store: string; message: string }[] = [];
    // The default store exists from the first start.
    engine.registry.resolve(undefined);
    for (const { name } of engine.registry.list()) {
      try {
        await engine.store(name);
      } catch (err) {
        // A store that cannot open is named, and the others still serve.
        if (!(err instanceof LociError)) throw err;
        storeProblems.push({ store: name, message: err.message });
      }
    }
    const handlers = createHandlers(engine);
    const tok = options.noAuth ? null : loadOrCreateToken(engine.dataDir);
    const currentToken = tok ? tokenSource(engine.dataDir) : () => null;
    const http = await startHttpServer({
      engine,
      handlers,
      host,
      port: options.port ?? DEFAULT_PORT,
      token: currentToken,
      staticDir: rendererDir(),
      defaultStore: options.store,
      extraOrigins: options.extraOrigins ?? [],
    });
    engine.updateLock({
      port: http.port,
      ...(tok ? { token_path: tok.path } : {}),
      kind: options.owner ?? 'serve',
    });
    // WAL checkpoints when idle and daily backups (config `backup`), for the open stores.
    const maintenance = new Maintenance({
      dataDir: engine.dataDir,
      stores: () => engine.openStores(),
      now: engine.now,
      backupEveryHours: engine.config.backup.every_hours,
      backupKeep: engine.config.backup.keep,
      onError: (err, store) =>
        process.stderr.write(`loci: maintenance of store "${store}" failed: ${err.message}\n`),
    }).start();
    const displayHost = host.includes(':') ? `[${host}]` : host;
    const url = `http://${displayHost === '0.0.0.0' ? '127.0.0.1' : displayHost}:${http.port}`;
    engine.setServing({ url, port: http.port, tokenPath: tok?.path ?? null, host });
    // Dreams run on their own once the daemon has been idle (config `dream.*`).
    engine.dreams.startSchedule(() => engine.registry.list().map((s) => s.name));
    engine.sync.start();
    // Worker threads and caches go back once the daemon is quiet (config `memory.*`).
    engine.footprint.start();
    return {
      engine,
      handlers,
      http,
      url,
      token: tok?.token ?? null,
      tokenPath: tok?.path ?? null,
      observatoryUrl: tok ? `${url}/#token=${tok.token}` : `${url}/`,
      maintenance,
      storeProblems,
      async close() {
        engine.setServing(null);
        await maintenance.stop();
        await http.close();
        await engine.close();
      },
    };
  } catch (err) {
    await engine.close();
    throw err;
  }
}
