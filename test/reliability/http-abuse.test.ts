// HTTP abuse the security tests in test/http.test.ts do not cover (issue 10, item 5):
// slow clients (slowloris: headers trickled, a body that never finishes) are cut off by
// the server's timeouts; a flood of calls from one client gets 429 (before its bodies are
// read) while the observatory's API keeps answering promptly. Host, Origin (foreign, null,
// cross-site without Origin), tokens, body limits and static path traversal are in
// test/http.test.ts; stdio hygiene in test/stdio.test.ts.
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import { startHttpServer, type RunningHttpServer } from '../../src/main/http/server';
import { tempDir } from '../helpers/engine';

const TOKEN = 't'.repeat(43);
let engine: Engine;
let http: RunningHttpServer;
let dir: string;
beforeAll(async () => {
  dir = tempDir('loci-abuse-');
  engine = await Engine.open({ dataDir: dir, owner: 'test', env: {} });
  http = await startHttpServer({
    engine,
    handlers: createHandlers(engine),
    host: '127.0.0.1',
    port: 0,
    token: () => TOKEN,
    timeouts: { headersMs: 800, requestMs: 1500 },
    maxInFlightPerClient: 8,
  });
});
afterAll(async () => {
  await http.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens a raw socket and reports when (and with what) the server ends it. */
function slowClient(send: (s: Socket) => void): Promise<{ ms: number; reply: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const s = connect(http.port, '127.0.0.1', () => send(s));
    let reply = '';
    s.on('data', (d) => (reply += d.toString()));
    s.on('close', () => resolve({ ms: Date.now() - started, reply }));
    s.on('error', reject);
    setTimeout(() => {
      s.destroy();
      reject(new Error('the server kept a slow client for 10 s'));
    }, 10_000).unref();
  });
}

function api(method: string, actor: 'cli' | 'ui'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: http.port,
        method: 'POST',
        path: `/api/${method}`,
        headers: {
          host: `127.0.0.1:${http.port}`,
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          ...(actor === 'cli' ? { 'x-loci-actor': 'cli' } : {}),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

describe('slow clients', () => {
  it('cuts off a client that trickles its headers (slowloris)', async () => {
    const r = await slowClient((s) => {
      s.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\n`);
      const drip = setInterval(() => s.writable && s.write('X-Slow: 1\r\n'), 200);
      s.on('close', () => clearInterval(drip));
    });
    expect(r.ms).toBeLessThan(5000);
    expect(r.reply === '' || /^HTTP\/1\.1 408/.test(r.reply)).toBe(true);
  });

  it('cuts off a request whose body never finishes', async () => {
    const r = await slowClient((s) => {
      s.write(
        `POST /api/stats.get HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"st`,
      );
    });
    expect(r.ms).toBeLessThan(6000);
    expect(r.reply).not.toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('floods', () => {
  it('answers 429 past a client’s calls in flight, and the observatory’s API stays responsive', async () => {
    // 8 calls held in flight (bodies that trickle in) fill the CLI's slots.
    const held: Socket[] = [];
    for (let i = 0; i < 8; i++) {
      const s = connect(http.port, '127.0.0.1');
      s.on('error', () => {});
      s.write(
        `POST /api/stats.get HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          `X-Loci-Actor: cli\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{`,
      );
      held.push(s);
    }
    await new Promise((r) => setTimeout(r, 200));
    const flood = await Promise.all(Array.from({ length: 50 }, () => api('stats.get', 'cli')));
    expect(flood.every((r) => r.status === 429)).toBe(true);
    expect(JSON.parse(flood[0]?.body ?? '{}').error).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/Too many calls in flight .*limit is 8/),
    });
    const started = Date.now();
    const ui = await api('stats.get', 'ui');
    expect(ui.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    // The held calls time out (requestMs), their slots free up, and the CLI is served again.
    await new Promise((r) => setTimeout(r, 2500));
    for (const s of held) s.destroy();
    expect((await api('stats.get', 'cli')).status).toBe(200);
  });
});
