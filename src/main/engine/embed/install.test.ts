import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/engine';
import { tinyModelRoot } from '../../../../test/helpers/models';
import type { LociError } from '../../../shared/errors';
import { installModel, type InstallProgress } from './install';
import { readModelDir, type CatalogueEntry } from './manifest';

// A real HTTP server on loopback serves the tiny model's files. Each test can make a
// file misbehave: cut the connection part-way, answer 500 once, or 404.
const source = tinyModelRoot({ dims: 8, id: 'tiny-install' });
const files = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'];
const bytes = Object.fromEntries(files.map((f) => [f, readFileSync(join(source.dir, f))]));
const sourceManifest = readModelDir(source.dir);

type Behaviour = 'ok' | 'cut-once' | 'error-once' | 'missing' | 'wrong-bytes';
let behaviour: Record<string, Behaviour> = {};
const requests: { file: string; range: string | undefined }[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const file = (req.url ?? '').slice(1);
    const body = bytes[file];
    requests.push({ file, range: req.headers.range });
    const how = behaviour[file] ?? 'ok';
    if (!body || how === 'missing') {
      res.writeHead(404).end();
      return;
    }
    if (how === 'error-once') {
      behaviour[file] = 'ok';
      res.writeHead(503).end();
      return;
    }
    if (how === 'wrong-bytes') {
      res.writeHead(200, { 'content-length': body.length }).end(Buffer.alloc(body.length, 7));
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const rest = body.subarray(start);
    res.writeHead(range ? 206 : 200, {
      'content-length': rest.length,
      ...(range ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (how === 'cut-once') {
      behaviour[file] = 'ok';
      res.write(rest.subarray(0, Math.floor(rest.length / 2)));
      setTimeout(() => res.destroy(), 20);
      return;
    }
    res.end(rest);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(source.root, { recursive: true, force: true });
});

const dirs: string[] = [];
afterEach(() => {
  behaviour = {};
  requests.length = 0;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function entry(pinned = true): CatalogueEntry {
  return {
    id: 'tiny-install',
    name: 'Tiny',
    description: 'test',
    languages: ['en'],
    dims: 8,
    pooling: 'mean',
    normalize: true,
    max_tokens: 32,
    query_prefix: '',
    passage_prefix: '',
    abstain_below: 0.3,
    license: 'MIT',
    source_url: base,
    files: Object.fromEntries(
      files.map((f) => [
        f,
        {
          url: `${base}/${f}`,
          sha256: pinned ? (sourceManifest.files[f]?.sha256 ?? null) : null,
          size: bytes[f]!.length,
        },
      ]),
    ),
  };
}

function modelsDir(): string {
  const d = tempDir('loci-install-');
  dirs.push(d);
  return d;
}

const fail = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: LociError) => e,
  );

describe('installModel', () => {
  it('downloads every file with progress, verifies, test-loads and moves the model into place', async () => {
    const dir = modelsDir();
    const progress: InstallProgress[] = [];
    const result = await installModel(entry(), dir, { onProgress: (p) => progress.push(p) });
    expect(result.dir).toBe(join(dir, 'tiny-install'));
    expect(readdirSync(dir)).toEqual(['tiny-install']);
    const installed = readModelDir(result.dir);
    expect(installed.files['model.onnx']).toEqual({
      sha256: sourceManifest.files['model.onnx']!.sha256,
      size: bytes['model.onnx']!.length,
    });
    const last = progress.filter((p) => p.file === 'model.onnx').at(-1)!;
    expect(last).toMatchObject({
      index: 1,
      files: 3,
      received: bytes['model.onnx']!.length,
      total: bytes['model.onnx']!.length,
    });
    expect(new Set(progress.map((p) => p.file))).toEqual(new Set(files));
  });

  it('resumes a broken transfer with a Range request', async () => {
    behaviour = { 'model.onnx': 'cut-once' };
    const result = await installModel(entry(), modelsDir(), { backoffMs: 1 });
    expect(readModelDir(result.dir).id).toBe('tiny-install');
    const modelRequests = requests.filter((r) => r.file === 'model.onnx');
    expect(modelRequests).toHaveLength(2);
    expect(modelRequests[1]!.range).toMatch(/^bytes=\d+-$/);
  });

  it('retries a server error and gives up on a missing file at once', async () => {
    behaviour = { 'tokenizer.json': 'error-once' };
    await installModel(entry(), modelsDir(), { backoffMs: 1 });
    expect(requests.filter((r) => r.file === 'tokenizer.json')).toHaveLength(2);

    requests.length = 0;
    behaviour = { 'tokenizer.json': 'missing' };
    const dir = modelsDir();
    const err = await fail(installModel(entry(), dir, { backoffMs: 1 }));
    expect(err?.code).toBe('unavailable');
    expect(err?.message).toMatch(/HTTP 404/);
    expect(requests.filter((r) => r.file === 'tokenizer.json')).toHaveLength(1);
    expect(existsSync(join(dir, 'tiny-install'))).toBe(false);
  });

  it('refuses a file that does not match its sha256 and installs nothing', async () => {
    behaviour = { 'model.onnx': 'wrong-bytes' };
    const dir = modelsDir();
    const err = await fail(installModel(entry(), dir, { backoffMs: 1 }));
    expect(err?.code).toBe('integrity');
    expect(err?.message).toMatch(/does not match its checksum/);
    expect(existsSync(join(dir, 'tiny-install'))).toBe(false);
    expect(existsSync(join(dir, '.staging-tiny-install', 'model.onnx.part'))).toBe(false);
  });

  it('records the hash of files the catalogue does not pin, and says so', async () => {
    const unpinned: string[] = [];
    const result = await installModel(entry(false), modelsDir(), {
      onUnpinned: (f) => unpinned.push(f),
    });
    expect(unpinned.sort()).toEqual([...files].sort());
    expect(result.manifest.files['model.onnx']).toMatchObject({
      sha256: sourceManifest.files['model.onnx']!.sha256,
      pinned: false,
    });
  });

  it('replaces an earlier install in one move', async () => {
    const dir = modelsDir();
    await installModel(entry(), dir);
    const again = await installModel(entry(), dir);
    expect(readdirSync(dir)).toEqual(['tiny-install']);
    expect(readModelDir(again.dir).installed_at).toBeDefined();
  });
});
