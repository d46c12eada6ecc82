// Findings of the outside test (issue 16), each as a case that failed before its fix:
// a daemon that keeps answering while adversarial writes are scanned, the HTTP rough
// edges (bad percent-encoding, duplicate Host, idle connections), an oversized stdio
// message, the bootstrap prompt at the top of its range, and dropped audit triggers.
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../src/main/api';
import { startDaemon, type Daemon } from '../src/main/daemon';
import { Engine } from '../src/main/engine/engine';
import { startHttpServer } from '../src/main/http/server';
import { runStdio } from '../src/main/mcp/stdio';
import { tokenCounter } from '../src/main/engine/recall/tokenCounter';
import { tempDir } from './helpers/engine';
import { rawRequest, type RawRequest, type RawResponse } from './helpers/http';

let daemon: Daemon;
let dir: string;
const dirs: string[] = [];

beforeAll(async () => {
  dir = tempDir('loci-hardening-');
  daemon = await startDaemon({ dataDir: dir, port: 0, env: {} });
});
afterAll(async () => {
  await daemon.close();
  for (const d of [dir, ...dirs]) rmSync(d, { recursive: true, force: true });
});

type Raw = RawResponse;

/** A raw HTTP request to the daemon (or to `port`). */
const raw = (options: Omit<RawRequest, 'port'> & { port?: number }): Promise<Raw> =>
  rawRequest({ ...options, port: options.port ?? daemon.http.port });

/** A real MCP client of the daemon, over Streamable HTTP. */
async function mcpClient(name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${daemon.http.port}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
    }),
  );
  return client;
}

const api = (method: string, body: unknown) =>
  raw({
    method: 'POST',
    path: `/api/${method}`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${daemon.token}` },
    body: JSON.stringify(body),
  });

/** One provider prefix repeated to the 64 KiB limit: the shapes that stalled the daemon. */
const adversarial = (prefix: string) =>
  prefix.repeat(Math.ceil(65_000 / prefix.length)).slice(0, 65_000);

describe('the daemon under adversarial writes', () => {
  it('answers /health within 100 ms while four 64 KiB adversarial writes are in flight', async () => {
    // Warm up: the scan worker and the write path's modules are loaded once.
    await api('memory.remember', { content: 'warm-up note about the deploy' });
    const started = performance.now();
    const writes = ['pypi-', 'sk-ant-', 'sk-', 'xoxb-'].map((p) =>
      api('memory.remember', { content: adversarial(p) }),
    );
    let settled = false;
    const all = Promise.all(writes).finally(() => (settled = true));
    // Probes every 20 ms for as long as the writes are in flight (at least five).
    const probes: number[] = [];
    await new Promise((r) => setTimeout(r, 20));
    while (!settled || probes.length < 5) {
      const h = await raw({ path: '/health' });
      expect(h.status).toBe(200);
      probes.push(h.ms);
      await new Promise((r) => setTimeout(r, 20));
    }
    const done = await all;
    for (const w of done) expect(w.status).toBe(200);
    const elapsed = performance.now() - started;
    // Before: the writes took 3–13 s, and /health waited 3.2 s behind the first of them.
    // On a machine that other tests keep busy a probe can wait for a core on its own; the
    // typical probe must be fast, and none may wait behind the scans.
    const sorted = [...probes].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    expect(median).toBeLessThanOrEqual(100);
    expect(Math.max(...probes)).toBeLessThan(500);
    expect(elapsed).toBeLessThan(3000);
  });
});

describe('HTTP rough edges', () => {
  it('answers 400, not 500, to a path with bad percent-encoding', async () => {
    const r = await raw({
      method: 'POST',
      path: '/api/%E0%A4%A',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${daemon.token}` },
      body: '{}',
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({
      error: { code: 'invalid-args', message: expect.stringMatching(/percent-encoding/) },
    });
  });

  it('refuses a request with two Host headers (400)', async () => {
    const port = daemon.http.port;
    // Written by hand: Node's client will not send a header twice.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example:${port}\r\nConnection: close\r\n\r\n`,
        ),
      );
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toMatch(/Host/);
  });

  it('closes a connection that sends nothing', async () => {
    const home = tempDir('loci-idle-');
    dirs.push(home);
    const engine = await Engine.open({ dataDir: home, owner: 'test', env: {} });
    const http = await startHttpServer({
      engine,
      handlers: createHandlers(engine),
      host: '127.0.0.1',
      port: 0,
      token: () => 'x'.repeat(43),
      timeouts: { headersMs: 400 },
    });
    try {
      const socket: Socket = connect(http.port, '127.0.0.1');
      const closed = await new Promise<boolean>((resolve) => {
        socket.on('close', () => resolve(true));
        socket.on('error', () => resolve(true));
        setTimeout(() => resolve(false), 5_000);
      });
      socket.destroy();
      expect(closed).toBe(true);
    } finally {
      await http.close();
      await engine.close();
    }
  });
});

describe('MCP rough edges', () => {
  it('serves the bootstrap prompt at the top of its declared range', async () => {
    const client = await mcpClient('hardening');
    try {
      await client.callTool({
        name: 'remember',
        arguments: { content: 'The team deploys on Thursdays.' },
      });
      const prompt = await client.getPrompt({
        name: 'bootstrap',
        arguments: { max_tokens: '100000' },
      });
      const first = prompt.messages[0]?.content;
      expect(first?.type).toBe('text');
      expect((first as { text: string }).text).toMatch(/Thursdays/);
      // A small budget holds, counted with recall's tokenizer.
      const small = await client.getPrompt({ name: 'bootstrap', arguments: { max_tokens: '300' } });
      const [tokens] = await tokenCounter().count([
        (small.messages[0]?.content as { text: string }).text,
      ]);
      expect(tokens).toBeLessThanOrEqual(300);
    } finally {
      await client.close();
    }
  });

  it('answers a stdio message over the size limit with a JSON-RPC error and goes on', async () => {
    const home = tempDir('loci-stdio-big-');
    dirs.push(home);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: Record<string, unknown>[] = [];
    let pending = '';
    stdout.on('data', (d: Buffer) => {
      pending += d.toString();
      let i: number;
      while ((i = pending.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(pending.slice(0, i)) as Record<string, unknown>);
        pending = pending.slice(i + 1);
      }
    });
    const answered = async (id: number) => {
      for (let t = 0; t < 600; t++) {
        const line = lines.find((l) => l.id === id);
        if (line) return line;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no answer to ${id}`);
    };
    const send = (m: unknown) => stdin.write(`${JSON.stringify(m)}\n`);
    const run = runStdio({ dataDir: home, stdin, stdout, env: {}, log: () => undefined });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    await answered(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (const [id, size] of [
      [2, 10 * 1024 * 1024],
      [3, 11 * 1024 * 1024],
    ] as const) {
      const big = JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'remember', arguments: { content: 'x'.repeat(size) } },
      });
      // Written in pieces, as a pipe delivers it.
      for (let at = 0; at < big.length; at += 1024 * 1024)
        stdin.write(big.slice(at, at + 1024 * 1024));
      stdin.write('\n');
      const error = await answered(id);
      expect(error).toMatchObject({
        error: { code: -32600, message: expect.stringMatching(/limit/) },
      });
    }
    send({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
    expect(await answered(4)).toMatchObject({ result: { tools: expect.any(Array) } });
    stdin.end();
    expect(await run).toBe(0);
  });
});

describe('the audit triggers', () => {
  it('are checked by the doctor and restored at start-up, in the chain', async () => {
    const home = tempDir('loci-triggers-');
    dirs.push(home);
    let engine = await Engine.open({ dataDir: home, owner: 'test', env: {} });
    const client = () =>
      createHandlers(engine).dispatch(
        'doctor.run',
        {},
        { actor: { kind: 'cli', transport: 'in-process' } },
      ) as Promise<{ checks: { id: string; status: string; finding: string }[] }>;
    await createHandlers(engine).dispatch(
      'memory.remember',
      { content: 'A fact to audit.' },
      { actor: { kind: 'cli', transport: 'in-process' } },
    );
    const store = await engine.store(undefined);
    store.db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
    const report = await client();
    const check = report.checks.find((c) => c.id === 'audit.triggers');
    expect(check?.status).toBe('fail');
    await engine.close();

    engine = await Engine.open({ dataDir: home, owner: 'test', env: {} });
    const reopened = await engine.store(undefined);
    const triggers = reopened.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit'")
      .all() as { name: string }[];
    expect(triggers.map((t) => t.name).sort()).toEqual(['audit_no_delete', 'audit_no_update']);
    const last = reopened.db
      .prepare('SELECT action, data FROM audit ORDER BY seq DESC LIMIT 1')
      .get() as { action: string; data: string };
    expect(last.action).toBe('audit.triggers_restored');
    expect(JSON.parse(last.data)).toMatchObject({
      restored: ['audit_no_delete', 'audit_no_update'],
    });
    const after = (await client()).checks.find((c) => c.id === 'audit.triggers');
    expect(after?.status).toBe('warn');
    expect(after?.finding).toMatch(/restored/);
    await engine.close();
  });
});

describe('also seen', () => {
  it('finds a damaged store when serve starts, names it, and keeps serving', async () => {
    const home = tempDir('loci-damaged-');
    dirs.push(home);
    const first = await Engine.open({ dataDir: home, owner: 'test', env: {} });
    await createHandlers(first).dispatch(
      'memory.remember',
      { content: 'Kept before the damage.' },
      { actor: { kind: 'cli', transport: 'in-process' } },
    );
    await first.close();
    const fd = openSync(join(home, 'stores', 'default', 'loci.db'), 'r+');
    writeSync(fd, Buffer.from('definitely not sqlite'), 0, 21, 0);
    closeSync(fd);
    const d = await startDaemon({ dataDir: home, port: 0, env: {} });
    try {
      expect(d.storeProblems).toEqual([
        { store: 'default', message: expect.stringMatching(/failed its integrity check/) },
      ]);
      expect((await raw({ path: '/health', port: d.http.port })).status).toBe(200);
    } finally {
      await d.close();
    }
  });

  it('tells an agent how many memories are quarantined, and when its update quarantined one', async () => {
    const client = await mcpClient('hardening-agent');
    try {
      const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text ?? '';
      const made = await client.callTool({
        name: 'remember',
        arguments: { content: 'The release bot posts to the #deploys channel.' },
      });
      const id = (made.structuredContent as { id: string }).id;
      const token = `ghp_${'aB3x9Q'.repeat(6)}`;
      const updated = await client.callTool({
        name: 'update',
        arguments: { id, content: `The release bot uses ${token} to post.` },
      });
      expect(text(updated)).toMatch(/quarantined/);
      expect(updated.structuredContent).toMatchObject({ quarantined: true });
      const stats = await client.callTool({ name: 'stats', arguments: {} });
      expect(
        (stats.structuredContent as { memories: { quarantined: number } }).memories.quarantined,
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await client.close();
    }
  });

  it('refuses a __proto__ key in MCP arguments over HTTP, as /api does', async () => {
    const body = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"remember","arguments":{"content":"x","__proto__":{"polluted":true}}}}`;
    const r = await raw({
      method: 'POST',
      path: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${daemon.token}`,
      },
      body,
    });
    expect(JSON.parse(r.body)).toMatchObject({
      id: 9,
      error: { code: -32602, message: expect.stringMatching(/__proto__.*params\.arguments/) },
    });
    const api = await raw({
      method: 'POST',
      path: '/api/memory.remember',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${daemon.token}` },
      body: '{"content":"x","__proto__":{"polluted":true}}',
    });
    expect(api.status).toBe(400);
  });
});
