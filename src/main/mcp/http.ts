// MCP over Streamable HTTP: one MCP server and transport per client session, created on
// `initialize` and found again by the `Mcp-Session-Id` header. Sessions idle for longer
// than the limit are closed. Security checks happen before this (http/server.ts).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { HandlerRegistry } from '../api';
import type { ActivityLog } from '../engine/activity';
import type { ClientGrant } from '../../shared/api';
import type { ClientRegistry } from '../engine/clients';
import type { EngineEvents } from '../engine/events';
import { prototypeKeyError } from './lineTransport';
import { buildMcpServer, normalizeClient } from './server';

interface Session {
  id: string;
  transport: StreamableHTTPServerTransport;
  server: ReturnType<typeof buildMcpServer>;
  transportLabel: string;
  headerClient: string | undefined;
  /** The client token the session began with (a later request must carry the same). */
  grant: ClientGrant | undefined;
  connectedAt: number;
  lastSeen: number;
  /** Open GET streams (server-sent notifications: subscriptions, the daemon's logs). */
  streams: number;
}

export interface SessionInfo {
  id: string;
  client: string;
  transport: string;
  connected_at: string;
  last_seen: string;
}

export const SESSION_IDLE_MS = 30 * 60_000;

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export class McpHttpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly handlers: HandlerRegistry,
    private readonly activity: ActivityLog,
    private readonly clients: ClientRegistry,
    private readonly defaultStore?: string,
    private readonly events?: EngineEvents,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const s of this.sessions.values()) {
      // A client listening on its stream (subscriptions) is not idle.
      if (s.streams === 0 && now - s.lastSeen > SESSION_IDLE_MS) void this.closeSession(s.id);
    }
  }

  private async closeSession(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    this.clients.disconnect(id);
    await s.transport.close().catch(() => undefined);
    await s.server.close().catch(() => undefined);
  }

  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    grant?: ClientGrant,
  ): Promise<void> {
    const refused = prototypeKeyError(body);
    if (refused) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(refused));
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session) {
        jsonRpcError(
          res,
          404,
          -32001,
          'Session not found: it ended or the server restarted. Initialize again.',
        );
        return;
      }
      if (session.grant?.id !== grant?.id) {
        jsonRpcError(
          res,
          403,
          -32001,
          'This session belongs to another token: a session is used with the token it began with.',
        );
        return;
      }
      session.lastSeen = Date.now();
      if (req.method === 'GET') {
        session.streams++;
        res.once('close', () => {
          session.streams--;
          session.lastSeen = Date.now();
        });
      }
      await session.transport.handleRequest(req, res, body);
      if (req.method === 'DELETE') await this.closeSession(sessionId);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      jsonRpcError(
        res,
        400,
        -32000,
        'No session: start with an initialize request (no Mcp-Session-Id header).',
      );
      return;
    }
    const headerClient =
      typeof req.headers['mcp-client-id'] === 'string' ? req.headers['mcp-client-id'] : undefined;
    const transportLabel =
      req.headers['x-loci-transport'] === 'stdio-proxy' ? 'stdio-proxy' : 'http';
    let sessionKey: string | undefined;
    const server = buildMcpServer({
      backend: { handlers: this.handlers, activity: this.activity, events: this.events },
      transport: transportLabel,
      clientId: grant?.name ?? headerClient,
      grant,
      defaultStore: this.defaultStore,
      onCall: (client) => {
        if (sessionKey) this.clients.touch(sessionKey, { client, call: true });
      },
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const now = Date.now();
        sessionKey = id;
        this.sessions.set(id, {
          id,
          transport,
          server,
          transportLabel,
          headerClient: grant?.name ?? headerClient,
          grant,
          connectedAt: now,
          lastSeen: now,
          streams: 0,
        });
        this.clients.connect({
          id,
          client: normalizeClient(grant?.name ?? headerClient ?? server.getClientVersion()?.name),
          transport: transportLabel,
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        this.sessions.delete(transport.sessionId);
        this.clients.disconnect(transport.sessionId);
      }
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((s) => ({
      id: s.id,
      client: normalizeClient(s.headerClient ?? s.server.getClientVersion()?.name),
      transport: s.transportLabel,
      connected_at: new Date(s.connectedAt).toISOString(),
      last_seen: new Date(s.lastSeen).toISOString(),
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.closeSession(id)));
  }
}
