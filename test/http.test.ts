// The daemon over real HTTP on loopback (port 0): the security checks, each with its exact
// status, the API, server-sent events, and MCP over Streamable HTTP with a real SDK client.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../src/main/api';
import { startDaemon, type Daemon } from '../src/main/daemon';
import { Engine } from '../src/main/engine/engine';
import { rotateToken } from '../src/main/engine/store/token';
import { startHttpServer } from '../src/main/http/server';
import { tempDir } from './helpers/engine';
import { rawRequest, type RawRequest, type RawResponse } from './helpers/http';

let daemon: Daemon;
let dir: string;

beforeAll(async () => {
  dir = tempDir('loci-http-');
  daemon = await startDaemon({ dataDir: dir, port: 0, env: {}, engine: { embedWrites: 'await' } });
});
afterAll(async () => {
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
});

type Raw = RawResponse;

/** A raw HTTP request to the daemon (or to `port`). */
const raw = (options: Omit<RawRequest, 'port'> & { port?: number }): Promise<Raw> =>
  rawRequest({ ...options, port: options.port ?? daemon.http.port });

const auth = () => ({ authorization: `Bearer ${daemon.token}` });
const api = (method: string, body: unknown, headers: Record<string, string> = {}) =>
  raw({
    method: 'POST',
    path: `/api/${method}`,
    headers: { 'content-type': 'application/json', ...auth(), ...headers },
    body: JSON.stringify(body),
  });

describe('the daemon over HTTP', () => {
  it('listens on loopback only and answers /health without a token, saying little', async () => {
    expect(daemon.http.server.address()).toMatchObject({ address: '127.0.0.1' });
    const r = await raw({ path: '/health' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ status: 'ok', service: 'loci', version: '0.1.0' });
  });

  it('serves the contract at /api/<method> with the token', async () => {
    const created = await api('memory.remember', {
      content: 'Written over the HTTP API by the observatory.',
    });
    expect(created.status).toBe(200);
    const id = (JSON.parse(created.body) as { result: { id: string } }).result.id;
    const got = JSON.parse((await api('memory.get', { id })).body) as {
      result: { source: string };
    };
    expect(got.result.source).toBe('user');
    const missing = await api('memory.get', { id: '01HZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ error: { code: 'not-found' } });
  });

  it('refuses what it must, with the exact status, before reading the body', async () => {
    const port = daemon.http.port;
    const cases: [string, Promise<Raw>, number, RegExp][] = [
      [
        'foreign Host',
        raw({
          path: '/api/stats.get',
          method: 'POST',
          headers: { host: `evil.example:${port}`, ...auth() },
          body: '{}',
        }),
        403,
        /Forbidden host/,
      ],
      [
        'right name, wrong port',
        raw({ path: '/health', headers: { host: `127.0.0.1:${port + 1}` } }),
        403,
        /Forbidden host/,
      ],
      [
        'foreign Origin',
        api('stats.get', {}, { origin: 'https://evil.example' }),
        403,
        /foreign Origin/,
      ],
      ['Origin null', api('stats.get', {}, { origin: 'null' }), 403, /Origin \\"null\\"/],
      [
        'cross-site without Origin',
        api('stats.get', {}, { 'sec-fetch-site': 'cross-site' }),
        403,
        /cross-site/,
      ],
      [
        'no token',
        raw({
          method: 'POST',
          path: '/api/stats.get',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
        401,
        /bearer token/,
      ],
      [
        'wrong token',
        api('stats.get', {}, { authorization: 'Bearer not-the-token' }),
        401,
        /bearer token/,
      ],
      [
        'no token on /mcp',
        raw({
          method: 'POST',
          path: '/mcp',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
        401,
        /bearer token/,
      ],
      [
        'oversized body',
        raw({
          method: 'POST',
          path: '/api/memory.remember',
          headers: { ...auth(), 'content-type': 'application/json' },
          body: Buffer.alloc(1024 * 1024 + 10, 32),
        }),
        413,
        /over 1048576 bytes/,
      ],
      [
        'malformed JSON',
        raw({
          method: 'POST',
          path: '/api/stats.get',
          headers: { ...auth(), 'content-type': 'application/json' },
          body: '{"store": ',
        }),
        400,
        /not valid JSON/,
      ],
      ['unknown method', api('memory.teleport', {}), 404, /no method \\"memory.teleport\\"/],
      ['extra arguments', api('stats.get', { colour: 'red' }), 400, /unknown field \\"colour\\"/],
      ['GET on an API method', raw({ path: '/api/stats.get', headers: auth() }), 405, /Use POST/],
    ];
    for (const [name, pending, status, message] of cases) {
      const r = await pending;
      expect(r.status, name).toBe(status);
      expect(r.body, name).toMatch(message);
    }
    expect((await api('stats.get', {}, { origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it('streams engine events to /api/events', async () => {
    const events: string[] = [];
    const controller = new AbortController();
    const response = await fetch(`${daemon.url}/api/events`, {
      headers: auth(),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          events.push(decoder.decode(chunk));
          if (events.join('').includes('event: memory.changed')) break;
        }
      } catch {
        /* aborted */
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    await api('memory.remember', { content: 'An event for the live feed of the observatory.' });
    await Promise.race([reader, new Promise((r) => setTimeout(r, 3000))]);
    controller.abort();
    expect(events.join('')).toMatch(
      /event: memory\.changed\ndata: \{"store":"default","ids":\["[0-9A-Z]{26}"\],"change":"created","actor":"ui"\}/,
    );
  });

  it('speaks MCP over Streamable HTTP and names the client from Mcp-Client-Id', async () => {
    const changes: number[] = [];
    const off = daemon.engine.events.on('clients.changed', ({ connected }) =>
      changes.push(connected),
    );
    const client = new Client({ name: 'Some IDE', version: '2.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
        requestInit: { headers: { ...auth(), 'mcp-client-id': 'Windsurf' } },
      }),
    );
    const r = await client.callTool({
      name: 'remember',
      arguments: { content: 'Remembered by an MCP client over HTTP.' },
    });
    expect(r.isError).toBeFalsy();
    const sessions = JSON.parse((await api('clients.list', {})).body) as {
      result: { sessions: { client: string; transport: string; calls: number }[] };
    };
    expect(sessions.result.sessions).toContainEqual(
      expect.objectContaining({ client: 'windsurf', transport: 'http', calls: 1 }),
    );
    // The Connect view hears of the session without polling; and of its end.
    expect(changes[0]).toBeGreaterThan(0);
    const transport = client.transport as StreamableHTTPClientTransport;
    await transport.terminateSession();
    await client.close();
    expect(changes.at(-1)).toBe(changes[0]! - 1);
    off();
    const activity = JSON.parse((await api('activity.list', { limit: 1 })).body) as {
      result: { items: { actor: string; tool: string }[] };
    };
    expect(activity.result.items[0]).toMatchObject({ actor: 'mcp:windsurf', tool: 'remember' });
  });

  it('answers an MCP request without a session, or with an unknown one, with a JSON-RPC error', async () => {
    const noInit = await raw({
      method: 'POST',
      path: '/mcp',
      headers: {
        ...auth(),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noInit.status).toBe(400);
    expect(noInit.body).toMatch(/start with an initialize request/);
    const stale = await raw({
      method: 'POST',
      path: '/mcp',
      headers: {
        ...auth(),
        'content-type': 'application/json',
        'mcp-session-id': 'gone',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(stale.status).toBe(404);
  });

  it('takes a rotated token at once and refuses the old one', async () => {
    const old = daemon.token as string;
    await new Promise((r) => setTimeout(r, 20));
    const fresh = rotateToken(dir).token;
    expect((await api('stats.get', {}, { authorization: `Bearer ${old}` })).status).toBe(401);
    expect((await api('stats.get', {}, { authorization: `Bearer ${fresh}` })).status).toBe(200);
    daemon.token = fresh;
  });
});

describe('starting the daemon', () => {
  it('refuses to serve a non-loopback address without a token', async () => {
    const d = tempDir();
    await expect(
      startDaemon({ dataDir: d, host: '0.0.0.0', port: 0, noAuth: true, env: {} }),
    ).rejects.toThrow(/Refusing to serve on 0.0.0.0 without a token/);
    rmSync(d, { recursive: true, force: true });
  });

  it('records its port and token in the lock file and falls back to a free port when its port is taken', async () => {
    const d = tempDir();
    const second = await startDaemon({ dataDir: d, port: daemon.http.port, env: {} });
    try {
      expect(second.http.port).not.toBe(daemon.http.port);
      expect(second.engine.lockInfo).toMatchObject({
        kind: 'serve',
        port: second.http.port,
        token_path: join(d, 'token'),
      });
    } finally {
      await second.close();
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('the observatory files', () => {
  it('serves the built files, falls back to the app shell, and refuses paths outside', async () => {
    const d = tempDir();
    const site = join(d, 'site');
    mkdirSync(join(site, 'assets'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '<!doctype html><title>Loci</title>');
    writeFileSync(join(site, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(d, 'secret.txt'), 'not for the web');
    const engine = await Engine.open({ dataDir: join(d, 'data'), owner: 'test', env: {} });
    const http = await startHttpServer({
      engine,
      handlers: createHandlers(engine),
      host: '127.0.0.1',
      port: 0,
      token: () => 'x'.repeat(43),
      staticDir: site,
    });
    try {
      const get = (path: string) => raw({ path, port: http.port });
      const index = await get('/');
      expect(index.status).toBe(200);
      expect(index.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect((await get('/assets/app.js')).headers['content-type']).toMatch(/javascript/);
      expect((await get('/memories/123')).body).toContain('<title>Loci</title>');
      expect((await get('/assets/missing.js')).status).toBe(404);
      for (const attack of [
        '/../secret.txt',
        '/%2e%2e/secret.txt',
        '/assets/..%2f..%2fsecret.txt',
        '/%00',
      ]) {
        const r = await get(attack);
        expect(r.body, attack).not.toContain('not for the web');
        expect([400, 403, 404], attack).toContain(r.status);
      }
    } finally {
      await http.close();
      await engine.close();
      rmSync(d, { recursive: true, force: true });
    }
  });
});
