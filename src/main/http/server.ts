// The daemon's HTTP server: /health (open, says little), /api/<method> (the contract as
// JSON over POST), /api/events (server-sent events), /mcp (MCP Streamable HTTP) and the
// built observatory at /. Every request passes the Host and Origin checks before its body
// is read; /api and /mcp need the bearer token; bodies are capped (1 MiB; 48 MiB for
// ingest.upload, which carries a file); requests time out.
// No business logic: every call goes through the handler registry.
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { DEFAULT_PORT, type Actor } from '../../shared/api';
import { toErrorData, type ErrorCode } from '../../shared/errors';

export { DEFAULT_PORT };
import { EVENT_NAMES } from '../../shared/events';
import type { HandlerRegistry } from '../api';
import type { Engine } from '../engine/engine';
import { McpHttpSessions } from '../mcp/http';
import { normalizeClient, SERVER_VERSION } from '../mcp/server';
import { authenticate, checkHost, checkOrigin, type SecurityPolicy } from './security';
import { ClientLimiter, clientKey, MAX_IN_FLIGHT_PER_CLIENT } from './limits';

/**
 * Who calls /api: the CLI, the observatory, or an editor's hook speaking for its agent
 * (`x-loci-actor: agent` with `x-loci-client: claude-code`): an agent's rights, its
 * visibility and its reads in the read log, whoever holds the token.
 */
function actorOf(
  kind: string | string[] | undefined,
  client: string | string[] | undefined,
): Actor {
  if (kind === 'cli') return { kind: 'cli', transport: 'http' };
  if (kind === 'agent') {
    return {
      kind: 'mcp',
      client: normalizeClient(typeof client === 'string' ? client : undefined),
      transport: 'hook',
    };
  }
  return { kind: 'ui', transport: 'http' };
}

export const BODY_LIMIT = 1024 * 1024;
/**
 * `ingest.upload` carries one file as base64 (at most LIMITS.uploadFileMaxBytes, 32 MiB,
 * which is about 43 MiB of JSON): that one method may send a body up to 48 MiB. Every
 * other method keeps BODY_LIMIT. The checks of Host, Origin and token still run first.
 */
export const UPLOAD_BODY_LIMIT = 48 * 1024 * 1024;
const LARGE_BODY_METHODS: ReadonlySet<string> = new Set(['ingest.upload', 'store.import']);

/** The body cap of one API method: UPLOAD_BODY_LIMIT for uploads, BODY_LIMIT otherwise. */
export function bodyLimitFor(
  method: string,
  limits: { body: number; upload: number } = { body: BODY_LIMIT, upload: UPLOAD_BODY_LIMIT },
): number {
  return LARGE_BODY_METHODS.has(method) ? limits.upload : limits.body;
}
export const REQUEST_TIMEOUT_MS = 30_000;

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  'invalid-args': 400,
  'unknown-method': 404,
  'not-found': 404,
  'store-not-found': 404,
  conflict: 409,
  'store-exists': 409,
  forbidden: 403,
  'store-locked': 423,
  'store-corrupt': 503,
  'key-required': 423,
  'wrong-key': 403,
  unavailable: 503,
  environment: 500,
  integrity: 422,
  // The caller went away before the answer (nginx's "client closed request").
  cancelled: 499,
  internal: 500,
};

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface HttpServerOptions {
  engine: Engine;
  handlers: HandlerRegistry;
  host: string;
  port: number;
  /** null: no token required (refused unless bound to loopback; see daemon.ts). */
  token: () => string | null;
  /** The built observatory (out/renderer); absent in a build without it. */
  staticDir?: string | undefined;
  defaultStore?: string | undefined;
  extraOrigins?: string[];
  bodyLimit?: number;
  /** The cap for `ingest.upload` (default UPLOAD_BODY_LIMIT). */
  uploadBodyLimit?: number;
  /** Slow clients: the headers, and the whole request, must arrive within these (ms). */
  timeouts?: { headersMs?: number; requestMs?: number };
  /** Calls in flight per client before 429 (default MAX_IN_FLIGHT_PER_CLIENT). */
  maxInFlightPerClient?: number;
}

export interface RunningHttpServer {
  server: Server;
  port: number;
  mcp: McpHttpSessions;
  /** While paused (the tray's "Pause MCP"), /mcp answers 503; the API keeps working. */
  setMcpPaused(paused: boolean): void;
  readonly mcpPaused: boolean;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      ...headers,
    })
    .end(JSON.stringify(body));
}

/** Reads a JSON body of at most `limit` bytes; 413 past it, 400 when it is not JSON. */
async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit)
    throw new HttpError(413, `Request body over ${limit} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, `Request body over ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
}

function serveStatic(root: string, urlPath: string, res: ServerResponse): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    throw new HttpError(400, 'Malformed path.');
  }
  if (decoded.includes('\0')) throw new HttpError(400, 'Malformed path.');
  const base = realpathSync(root);
  let file = resolve(base, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`);
  if (file !== base && !file.startsWith(base + sep))
    throw new HttpError(403, 'Outside the observatory.');
  if (!existsSync(file)) {
    // Client-side routes fall back to the app shell; missing assets are 404s.
    if (extname(decoded)) throw new HttpError(404, 'Not found.');
    file = join(base, 'index.html');
  }
  const real = realpathSync(file);
  if (real !== base && !real.startsWith(base + sep))
    throw new HttpError(403, 'Outside the observatory.');
  if (!statSync(real).isFile()) throw new HttpError(404, 'Not found.');
  res.writeHead(200, {
    'content-type': MIME[extname(real)] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'referrer-policy': 'no-referrer',
    'cache-control': extname(real) === '.html' ? 'no-cache' : 'public, max-age=3600',
  });
  createReadStream(real).pipe(res);
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const limit = options.bodyLimit ?? BODY_LIMIT;
  const limits = { body: limit, upload: options.uploadBodyLimit ?? UPLOAD_BODY_LIMIT };
  const { engine, handlers } = options;
  let boundPort = options.port;
  const policy: SecurityPolicy = {
    port: () => boundPort,
    boundHost: ['127.0.0.1', 'localhost', '::1'].includes(options.host) ? undefined : options.host,
    origins: options.extraOrigins ?? [],
    token: options.token,
    clientGrant: (token) => engine.access.grants.verify(token),
  };
  const mcp = new McpHttpSessions(
    handlers,
    engine.activity,
    engine.clients,
    options.defaultStore,
    engine.events,
  );
  const openStreams = new Set<ServerResponse>();
  const limiter = new ClientLimiter(options.maxInFlightPerClient ?? MAX_IN_FLIGHT_PER_CLIENT);
  let mcpPaused = false;

  // Timed-out (slowloris) connections are looked for every second, not every 30 s.
  const server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    void (async () => {
      // The first request on this connection has arrived: the idle-connection timer ends.
      req.socket.setTimeout(0);
      const url = new URL(req.url ?? '/', 'http://loci.invalid');
      const path = url.pathname;
      // 1. DNS rebinding and cross-site requests: refused before anything else. Node keeps
      // only the first of two Host headers; a request that sends two is refused outright.
      if ((req.headersDistinct.host?.length ?? 0) > 1)
        throw new HttpError(400, 'The request has more than one Host header.');
      if (!checkHost(req, policy)) throw new HttpError(403, 'Forbidden host.');
      if (path === '/health' && req.method === 'GET') {
        sendJson(res, 200, { status: 'ok', service: 'loci', version: SERVER_VERSION });
        return;
      }
      const origin = checkOrigin(req, policy);
      if (!origin.ok) throw new HttpError(403, `Forbidden origin: ${origin.reason}.`);

      if (path === '/mcp' || path.startsWith('/api/')) {
        const caller = authenticate(req, policy);
        if (!caller) {
          res.setHeader('www-authenticate', 'Bearer realm="loci"');
          throw new HttpError(
            401,
            'Missing or wrong bearer token. Find it with `loci token show`, or give the client its own with `loci clients add <name>`.',
          );
        }
        const grant = caller.kind === 'client' ? caller.grant : undefined;
        // Floods: a client past its calls in flight gets 429 before its body is read.
        if (req.method === 'POST') {
          const key = clientKey(req, path);
          if (!limiter.acquire(key)) {
            res.setHeader('retry-after', '1');
            sendJson(res, 429, {
              error: {
                code: 'unavailable',
                message: `Too many calls in flight from this client (the limit is ${limiter.max}); wait for some to finish.`,
              },
            });
            req.resume();
            return;
          }
          res.once('close', () => limiter.release(key));
        }
        if (path === '/mcp') {
          if (mcpPaused)
            throw new HttpError(503, 'Loci has paused MCP (the tray menu resumes it).');
          const body = req.method === 'POST' ? await readJson(req, limit) : undefined;
          await mcp.handle(req, res, body, grant);
          return;
        }
        if (path === '/api/events') {
          if (req.method !== 'GET') throw new HttpError(405, 'Use GET for /api/events.');
          // Every store's changes: the owner's, not a client token's.
          if (grant) {
            throw new HttpError(
              403,
              `Client "${grant.name}" may not follow /api/events: the event stream is the owner's.`,
            );
          }
          streamEvents(req, res);
          return;
        }
        if (req.method !== 'POST') throw new HttpError(405, 'Use POST for /api/<method>.');
        let method: string;
        try {
          method = decodeURIComponent(path.slice('/api/'.length));
        } catch {
          throw new HttpError(400, 'The method name in the path has bad percent-encoding.');
        }
        const body = (await readJson(req, bodyLimitFor(method, limits))) ?? {};
        // A client token speaks for its client, whatever headers it sends.
        const actor: Actor = grant
          ? { kind: 'mcp', client: grant.name, transport: 'http', grant }
          : actorOf(req.headers['x-loci-actor'], req.headers['x-loci-client']);
        try {
          const result = await handlers.dispatch(method, body, { actor });
          sendJson(res, 200, { result });
        } catch (err) {
          const data = toErrorData(err);
          sendJson(res, STATUS_BY_CODE[data.code] ?? 500, { error: data });
        }
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new HttpError(405, 'Method not allowed.');
      if (!options.staticDir || !existsSync(join(options.staticDir, 'index.html'))) {
        throw new HttpError(
          404,
          'The observatory is not built in this installation (run `npm run build`).',
        );
      }
      serveStatic(options.staticDir, path, res);
    })().catch((err: unknown) => {
      if (err instanceof HttpError) {
        sendJson(res, err.status, {
          error: {
            code:
              err.status === 400 || err.status === 405 || err.status === 413
                ? 'invalid-args'
                : err.status === 404
                  ? 'not-found'
                  : err.status === 503
                    ? 'unavailable'
                    : 'forbidden',
            message: err.message,
          },
        });
        if (err.status === 413 || err.status === 503) req.resume();
        return;
      }
      process.emitWarning(`HTTP request failed: ${(err as Error)?.stack ?? String(err)}`);
      sendJson(res, 500, {
        error: { code: 'internal', message: 'Internal error in the Loci engine.' },
      });
    });
  });

  function streamEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': connected\n\n');
    openStreams.add(res);
    const offs = EVENT_NAMES.map((name) =>
      engine.events.on(name, (payload) => {
        res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
      }),
    );
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    heartbeat.unref();
    const stop = () => {
      clearInterval(heartbeat);
      for (const off of offs) off();
      openStreams.delete(res);
    };
    req.on('close', stop);
    res.on('close', stop);
  }

  server.requestTimeout = options.timeouts?.requestMs ?? REQUEST_TIMEOUT_MS;
  server.headersTimeout = options.timeouts?.headersMs ?? 10_000;
  server.keepAliveTimeout = 5_000;
  // Node's header timeout starts with the first byte of a request, so a connection that
  // never sends one stays open for ever (seen: still open after 130 s). Such a connection
  // gets the same time as a request's headers; the first request clears the timer, and
  // keep-alive connections between requests are closed by keepAliveTimeout.
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(server.headersTimeout, () => socket.destroy());
  });

  await new Promise<void>((resolvePromise, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE' && options.port !== 0) {
        // The documented port is taken: fall back to a free one.
        server.listen(0, options.host);
        return;
      }
      reject(err);
    };
    server.on('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolvePromise();
    });
  });
  boundPort = (server.address() as AddressInfo).port;

  return {
    server,
    port: boundPort,
    mcp,
    setMcpPaused(paused: boolean) {
      mcpPaused = paused;
    },
    get mcpPaused() {
      return mcpPaused;
    },
    async close() {
      for (const res of openStreams) res.end();
      await mcp.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
    },
  };
}
