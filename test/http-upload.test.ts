// The HTTP transport's body caps over real loopback HTTP: `ingest.upload` (a file as
// base64) may send up to UPLOAD_BODY_LIMIT, every other method stays at BODY_LIMIT, and
// the Host, Origin and token checks still come before any body is read. The handlers
// here only record what reached them: this is about the transport, not ingestion.
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../src/shared/schemas';
import { HandlerRegistry } from '../src/main/api';
import { Engine } from '../src/main/engine/engine';
import {
  BODY_LIMIT,
  bodyLimitFor,
  startHttpServer,
  UPLOAD_BODY_LIMIT,
  type RunningHttpServer,
} from '../src/main/http/server';
import { tempDir } from './helpers/engine';

const TOKEN = 't'.repeat(43);
const UPLOAD = '01JD0000000000000000000000';

let dir: string;
let engine: Engine;
let http: RunningHttpServer;
let small: RunningHttpServer;
const received: { method: string; bytes: number }[] = [];

function registry(): HandlerRegistry {
  const r = new HandlerRegistry();
  r.register('ingest.upload', (args) => {
    const bytes = Buffer.from(args.content_base64, 'base64').length;
    received.push({ method: 'ingest.upload', bytes });
    return { upload: args.upload, path: args.path, bytes, files: 1 };
  });
  r.register('memory.remember', (args) => {
    received.push({ method: 'memory.remember', bytes: args.content.length });
    throw new Error('not reached in these tests');
  });
  return r;
}

beforeAll(async () => {
  dir = tempDir('loci-http-upload-');
  engine = await Engine.open({ dataDir: join(dir, 'data'), owner: 'test', env: {} });
  const base = { engine, handlers: registry(), host: '127.0.0.1', port: 0, token: () => TOKEN };
  http = await startHttpServer(base);
  // A server with a small upload cap, to stream past it without sending 48 MiB.
  small = await startHttpServer({ ...base, uploadBodyLimit: 2 * 1024 * 1024 });
});
afterAll(async () => {
  await http.close();
  await small.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  body: string;
}

function post(
  port: number,
  method: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
  chunked = false,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/${method}`,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${TOKEN}`,
          ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    // The server may answer 413 and close before it has read everything we send.
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    if (chunked) {
      const buf = Buffer.from(body);
      const step = 256 * 1024;
      for (let i = 0; i < buf.length; i += step) req.write(buf.subarray(i, i + step));
    } else req.write(body);
    req.end();
  });
}

const uploadBody = (bytes: number) =>
  JSON.stringify({
    upload: UPLOAD,
    path: 'notes/big.txt',
    content_base64: Buffer.alloc(bytes, 'a').toString('base64'),
  });

describe('body caps over HTTP', () => {
  it('gives ingest.upload, and only it, room for the largest file the contract allows', () => {
    const largest = Math.ceil((LIMITS.uploadFileMaxBytes * 4) / 3) + 4 + 2048;
    expect(UPLOAD_BODY_LIMIT).toBeGreaterThan(largest);
    expect(bodyLimitFor('ingest.upload')).toBe(UPLOAD_BODY_LIMIT);
    for (const m of ['ingest.files', 'memory.remember', 'ingest.uploadx', 'stats.get'])
      expect(bodyLimitFor(m), m).toBe(BODY_LIMIT);
  });

  it('accepts an upload over 1 MiB and hands the whole file to the handler', async () => {
    received.length = 0;
    const bytes = 3 * 1024 * 1024;
    const body = uploadBody(bytes);
    expect(Buffer.byteLength(body)).toBeGreaterThan(BODY_LIMIT);
    const r = await post(http.port, 'ingest.upload', body);
    expect(r.status, r.body).toBe(200);
    expect(JSON.parse(r.body)).toEqual({
      result: { upload: UPLOAD, path: 'notes/big.txt', bytes, files: 1 },
    });
    expect(received).toEqual([{ method: 'ingest.upload', bytes }]);
  });

  it('still caps every other method at 1 MiB, declared or streamed', async () => {
    received.length = 0;
    const body = JSON.stringify({ content: 'x'.repeat(BODY_LIMIT + 10) });
    for (const chunked of [false, true]) {
      const r = await post(http.port, 'memory.remember', body, {}, chunked);
      expect(r.status, `chunked: ${chunked}`).toBe(413);
      expect(JSON.parse(r.body)).toEqual({
        error: { code: 'invalid-args', message: `Request body over ${BODY_LIMIT} bytes.` },
      });
    }
    expect(received).toEqual([]);
  });

  it('refuses an upload past its cap with 413, declared or streamed', async () => {
    received.length = 0;
    const declared = await post(
      http.port,
      'ingest.upload',
      Buffer.alloc(UPLOAD_BODY_LIMIT + 1, 32),
    );
    expect(declared.status).toBe(413);
    expect(declared.body).toContain(`over ${UPLOAD_BODY_LIMIT} bytes`);
    const streamed = await post(small.port, 'ingest.upload', uploadBody(2 * 1024 * 1024), {}, true);
    expect(streamed.status).toBe(413);
    expect(streamed.body).toContain(`over ${2 * 1024 * 1024} bytes`);
    expect(received).toEqual([]);
  });

  it('checks Host, Origin and the token before reading a large upload', async () => {
    received.length = 0;
    const body = uploadBody(2 * 1024 * 1024);
    const noToken = await post(http.port, 'ingest.upload', body, { authorization: 'Bearer no' });
    expect(noToken.status).toBe(401);
    const foreign = await post(http.port, 'ingest.upload', body, {
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    const host = await post(http.port, 'ingest.upload', body, { host: 'evil.example' });
    expect(host.status).toBe(403);
    expect(received).toEqual([]);
  });
});
