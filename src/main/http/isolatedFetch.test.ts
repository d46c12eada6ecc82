import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedFetch } from './isolatedFetch';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/forever') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      return; // never ends
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('isolatedFetch', () => {
  it('leaves no listener on the shared signal once each body is read', async () => {
    const session = new AbortController();
    const f = isolatedFetch();
    for (let i = 0; i < 300; i++) {
      const r = await f(`${url}/json`, { signal: session.signal });
      expect(await r.json()).toEqual({ ok: true });
    }
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('keeps status and headers, and still aborts a request in flight with the session', async () => {
    const session = new AbortController();
    const r = await isolatedFetch()(`${url}/forever`, { signal: session.signal });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/event-stream');
    const reader = r.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(1);
    session.abort(new Error('session closed'));
    await expect(reader.read()).rejects.toThrow();
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('refuses to start when the session is already aborted', async () => {
    const session = new AbortController();
    session.abort(new Error('gone'));
    await expect(isolatedFetch()(`${url}/json`, { signal: session.signal })).rejects.toThrow(
      'gone',
    );
  });
});
