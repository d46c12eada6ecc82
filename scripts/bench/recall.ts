// npm run bench:recall — recall speed and vector-search quality.
//  1. End to end: recall p50/p95 at 10k and 100k memories with the hashing fallback and
//     with the tiny ONNX model (query inference reported apart, not in the totals).
//  2. Vector search alone: the binary pre-filter + exact rescoring at 100k and 1M × 384,
//     its recall@10 against an exact scan, and vec0's exact scan for comparison.
//  3. With the real all-MiniLM-L6-v2 export when present: recall@10 of the pre-filter on
//     real embeddings.
// Writes bench-results/recall.json and prints Markdown tables for the README.
// BENCH_ENCRYPTED=1: the end-to-end stores encrypted at rest (key file), written to
// bench-results/recall-encrypted.json, to read the overhead.
//
//   BENCH_SIZES=10000,100000 BENCH_KNN=100000,1000000 npm run bench:recall
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import * as sqliteVec from 'sqlite-vec';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import { OnnxModel } from '../../src/main/engine/embed/onnxModel';
import { l2Normalize } from '../../src/main/engine/embed/pooling';
import { binaryCode, searchVectors, VectorIndex } from '../../src/main/engine/recall/vectorIndex';
import { MIGRATIONS } from '../../src/main/engine/store/migrations';
import { buildTinyModel } from '../models/tinyModel';
import { generator } from './corpus';
import { bar, pct } from './stats';
import { mulberry32 } from '../../src/shared/random';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const KNN_SIZES = (process.env.BENCH_KNN ?? '100000,1000000').split(',').map(Number);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 500);
const ENCRYPTED = process.env.BENCH_ENCRYPTED === '1';
const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

// ---------------------------------------------------------------- 1. end to end

interface E2eRow {
  embedder: string;
  size: number;
  p50: number;
  p95: number;
  embed_p50: number | null;
  rss_mb: number;
}

async function endToEnd(kind: 'hash' | 'tiny', modelRoot: string): Promise<E2eRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-bench-recall-'));
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ embedding: { model: kind === 'hash' ? 'none' : 'tiny-384' } }),
  );
  const engine = await Engine.open({
    dataDir: dir,
    owner: 'bench',
    embedWrites: 'await',
    env: { LOCI_MODEL_PATH: modelRoot },
  });
  const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
  if (ENCRYPTED) await client.call('store.encrypt', { source: 'keyfile' });
  const next = generator(11);
  const queries: string[] = [];
  const rows: E2eRow[] = [];
  let loaded = 0;
  try {
    for (const size of SIZES) {
      const b = bar(`${kind}: loading ${size.toLocaleString()}`, size);
      b.update(loaded);
      while (loaded < size) {
        const items = Array.from({ length: Math.min(1000, size - loaded) }, () => {
          const g = next();
          if (queries.length < 2000 && queries.length < loaded / 10 + 10) queries.push(g.query);
          return { content: g.content, tags: g.tags };
        });
        await client.call('memory.rememberMany', { items });
        loaded += items.length;
        b.update(loaded);
      }
      b.stop();
      for (let i = 0; i < 30; i++)
        await client.call('memory.recall', {
          query: queries[i % queries.length] as string,
          rehearse: false,
        });
      const totals: number[] = [];
      const embeds: number[] = [];
      for (let i = 0; i < QUERIES; i++) {
        const r = await client.call('memory.recall', {
          query: queries[i % queries.length] as string,
          rehearse: false,
        });
        totals.push(r.timings.total_ms ?? 0);
        if (r.timings.embed_ms !== undefined) embeds.push(r.timings.embed_ms);
      }
      rows.push({
        embedder: kind === 'hash' ? 'hashing fallback' : 'tiny ONNX model (384 d)',
        size: loaded,
        p50: pct(totals, 50),
        p95: pct(totals, 95),
        embed_p50: embeds.length ? pct(embeds, 50) : null,
        rss_mb: rssMb(),
      });
    }
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

// ---------------------------------------------------------------- 2. vector search alone

/** Uniform in [−0.5, 0.5), seeded. */
function seeded(seed: number): () => number {
  const r = mulberry32(seed);
  return () => r() - 0.5;
}

function vectorStore(file: string) {
  const db = new Database(file);
  sqliteVec.load(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.exec(
    'CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER)',
  );
  for (const m of MIGRATIONS) m.up(db);
  return db;
}

interface KnnRow {
  size: number;
  prefilter_p50: number;
  prefilter_p95: number;
  recall_at_10: number;
  vec0_exact_p50: number | null;
  rss_mb: number;
}

/** Exact top-k by dot product over vectors held in memory (the ground truth). */
function exactTop(all: Float32Array, dims: number, q: Float32Array, k: number): number[] {
  const n = all.length / dims;
  const scores = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const o = i * dims;
    for (let d = 0; d < dims; d++) s += (all[o + d] as number) * (q[d] as number);
    scores[i] = s;
  }
  return [...scores.keys()]
    .sort((a, b) => (scores[b] as number) - (scores[a] as number))
    .slice(0, k)
    .map((i) => i + 1);
}

async function knn(size: number): Promise<KnnRow> {
  const dims = 384;
  const dir = mkdtempSync(join(tmpdir(), 'loci-bench-knn-'));
  const db = vectorStore(join(dir, 'v.db'));
  const random = seeded(size);
  // Real embeddings cluster by topic: 2,000 centres with noise stand in for them here.
  const centres = Array.from({ length: 2000 }, () =>
    l2Normalize(Float32Array.from({ length: dims }, random)),
  );
  const all = new Float32Array(size * dims);
  const mem = db.prepare(
    `INSERT INTO memory (id, title, content, kind, source, created_at, updated_at, content_hash) VALUES (?, 't', 'c', 'semantic', 'user', 0, 0, 'h')`,
  );
  const emb = db.prepare(
    'INSERT INTO memory_embedding (rid, model, dims, vector, code, embedded_at) VALUES (?, ?, ?, ?, ?, 0)',
  );
  const withVec0 = size <= 100_000;
  if (withVec0)
    db.exec(
      `CREATE VIRTUAL TABLE v0 USING vec0(rid INTEGER PRIMARY KEY, embedding float[${dims}])`,
    );
  const v0 = withVec0 ? db.prepare('INSERT INTO v0 (rid, embedding) VALUES (?, ?)') : null;
  const b = bar(`vectors: writing ${size.toLocaleString()}`, size);
  for (let start = 0; start < size; start += 10_000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(size, start + 10_000); i++) {
        const c = centres[i % centres.length] as Float32Array;
        const v = l2Normalize(Float32Array.from(c, (x) => x + random() * 0.08));
        all.set(v, i * dims);
        const rid = Number(mem.run(`M${String(i).padStart(25, '0')}`).lastInsertRowid);
        const blob = Buffer.from(v.buffer);
        emb.run(rid, 'bench', dims, blob, binaryCode(v));
        v0?.run(BigInt(rid), blob);
      }
    })();
    b.update(Math.min(size, start + 10_000));
  }
  b.stop();
  const index = VectorIndex.load(db, 'bench', dims);
  const filter = { sql: '1', params: [] };
  const times: number[] = [];
  let found = 0;
  const nq = 100;
  const exactVec0: number[] = [];
  const v0q = withVec0
    ? db.prepare('SELECT rid, distance FROM v0 WHERE embedding MATCH ? AND k = 10')
    : null;
  for (let n = 0; n < nq; n++) {
    const q = l2Normalize(
      Float32Array.from(
        centres[(n * 7) % centres.length] as Float32Array,
        (x) => x + random() * 0.08,
      ),
    );
    const t = performance.now();
    const { hits } = searchVectors(db, index, q, 10, filter);
    times.push(performance.now() - t);
    const truth = new Set(exactTop(all, dims, q, 10));
    found += hits.filter((h) => truth.has(h.rid)).length;
    if (v0q && n < 30) {
      const t0 = performance.now();
      v0q.all(Buffer.from(q.buffer));
      exactVec0.push(performance.now() - t0);
    }
  }
  const row: KnnRow = {
    size,
    prefilter_p50: pct(times, 50),
    prefilter_p95: pct(times, 95),
    recall_at_10: Number((found / (nq * 10)).toFixed(4)),
    vec0_exact_p50: exactVec0.length ? pct(exactVec0, 50) : null,
    rss_mb: rssMb(),
  };
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return row;
}

// ---------------------------------------------------------------- 3. real embeddings

async function realRecall(
  modelDir: string,
): Promise<{ memories: number; recall_at_10: number; rescored: number } | null> {
  const count = Number(process.env.BENCH_REAL ?? 20000);
  const model = await OnnxModel.load(modelDir);
  const dir = mkdtempSync(join(tmpdir(), 'loci-bench-real-'));
  const db = vectorStore(join(dir, 'v.db'));
  const next = generator(23);
  const texts = Array.from({ length: count }, () => next().content);
  const queries = Array.from({ length: 100 }, () => next().query);
  const dims = model.manifest.dims;
  const all = new Float32Array(count * dims);
  const mem = db.prepare(
    `INSERT INTO memory (id, title, content, kind, source, created_at, updated_at, content_hash) VALUES (?, 't', 'c', 'semantic', 'user', 0, 0, 'h')`,
  );
  const emb = db.prepare(
    'INSERT INTO memory_embedding (rid, model, dims, vector, code, embedded_at) VALUES (?, ?, ?, ?, ?, 0)',
  );
  const b = bar(`real model: embedding ${count.toLocaleString()}`, count);
  for (let start = 0; start < count; start += 256) {
    const vectors = await model.embed(texts.slice(start, start + 256), 'passage');
    db.transaction(() => {
      vectors.forEach((v, j) => {
        const i = start + j;
        all.set(v, i * dims);
        const rid = Number(mem.run(`M${String(i).padStart(25, '0')}`).lastInsertRowid);
        emb.run(rid, 'real', dims, Buffer.from(v.buffer), binaryCode(v));
      });
    })();
    b.update(Math.min(count, start + 256));
  }
  b.stop();
  const index = VectorIndex.load(db, 'real', dims);
  let found = 0;
  let rescored = 0;
  for (const q of await model.embed(queries, 'query')) {
    const { hits, candidates } = searchVectors(db, index, q, 10, { sql: '1', params: [] });
    rescored = candidates;
    const truth = new Set(exactTop(all, dims, q, 10));
    found += hits.filter((h) => truth.has(h.rid)).length;
  }
  await model.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    memories: count,
    recall_at_10: Number((found / (queries.length * 10)).toFixed(4)),
    rescored,
  };
}

// ---------------------------------------------------------------- run

const modelRoot = mkdtempSync(join(tmpdir(), 'loci-bench-models-'));
const vocab = new Set<string>();
const g = generator(11);
for (let i = 0; i < 3000; i++)
  for (const w of g()
    .content.toLowerCase()
    .match(/[a-z]+/g) ?? [])
    vocab.add(w);
buildTinyModel(join(modelRoot, 'tiny-384'), {
  id: 'tiny-384',
  dims: 384,
  words: [...vocab],
  maxTokens: 256,
});

const e2e = [...(await endToEnd('hash', modelRoot)), ...(await endToEnd('tiny', modelRoot))];
const knnRows: KnnRow[] = [];
for (const size of KNN_SIZES) knnRows.push(await knn(size));
const realDir = [
  process.env.LOCI_TEST_MODEL,
  resolve('../shared/models/all-minilm-l6-v2-int8'),
].find((p) => p && existsSync(join(p, 'manifest.json')));
const real =
  realDir && Number(process.env.BENCH_REAL ?? 20000) > 0 ? await realRecall(realDir) : null;
rmSync(modelRoot, { recursive: true, force: true });

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, ${process.platform}`;
mkdirSync('bench-results', { recursive: true });
writeFileSync(
  ENCRYPTED ? 'bench-results/recall-encrypted.json' : 'bench-results/recall.json',
  JSON.stringify(
    { machine, date: new Date().toISOString(), encrypted: ENCRYPTED, e2e, knn: knnRows, real },
    null,
    2,
  ),
);
console.log(`\nmachine: ${machine}${ENCRYPTED ? ' — stores encrypted at rest' : ''}\n`);
console.log(
  '| embedder | memories | recall p50 (ms) | recall p95 (ms) | query embedding p50 (ms, apart) | RSS (MB) |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of e2e)
  console.log(
    `| ${r.embedder} | ${r.size.toLocaleString('en')} | ${r.p50} | ${r.p95} | ${r.embed_p50 ?? '—'} | ${r.rss_mb} |`,
  );
console.log(
  '\n| vectors (384 d) | pre-filter + rescoring p50 (ms) | p95 (ms) | recall@10 vs exact | vec0 exact scan p50 (ms) | RSS (MB) |',
);
console.log('|---:|---:|---:|---:|---:|---:|');
for (const r of knnRows)
  console.log(
    `| ${r.size.toLocaleString('en')} | ${r.prefilter_p50} | ${r.prefilter_p95} | ${r.recall_at_10} | ${r.vec0_exact_p50 ?? '—'} | ${r.rss_mb} |`,
  );
if (real)
  console.log(
    `\nreal all-MiniLM-L6-v2 embeddings: recall@10 of the pre-filter vs exact = ${real.recall_at_10} over ${real.memories.toLocaleString('en')} memories (${real.rescored} rescored per query)`,
  );
