// npm run bench:core — the engine core's speed and memory on synthetic stores of
// 10k and 100k memories: remember throughput (batched and one by one, each a durable
// transaction) through the whole default write path (the recogniser kept up to date,
// vectors embedded in the background with the hashing fallback), how long the vectors
// take to catch up, how long the contradiction check of the batches takes after them
// (and how many it recorded in a corpus that never contradicts on purpose), lexical
// recall latency (BM25 tiers alone, p50/p95) and resident
// memory. Full hybrid recall is `npm run bench:recall`.
// Writes bench-results/core.json and prints a Markdown table for the README.
// BENCH_ENCRYPTED=1: the same on a store encrypted at rest (ChaCha20-Poly1305, key
// file), written to bench-results/core-encrypted.json, to read the overhead.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import { generator } from './corpus';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 1000);
const SINGLES = Number(process.env.BENCH_SINGLES ?? 1000);
/** The contradiction check of the batches is waited for this long at most (s). */
const CONFLICTS_CAP_S = Number(process.env.BENCH_CONFLICTS_CAP_S ?? 300);
/** Batched loads are measured this many times (each on a fresh store): median and min. */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCH = 1000;

const dir = mkdtempSync(join(tmpdir(), 'loci-bench-'));
const engine = await Engine.open({ dataDir: dir, owner: 'bench' });
const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
const ENCRYPTED = process.env.BENCH_ENCRYPTED === '1';
if (ENCRYPTED) await client.call('store.encrypt', { source: 'keyfile' });
const next = generator(7);
const queries: string[] = [];
const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

interface Row {
  size: number;
  /** Run 1's rate, then the median and the slowest of all runs. */
  batched_per_s: number;
  batched_median_per_s: number;
  batched_min_per_s: number;
  batched_runs: number[];
  /**
   * A batch of 1,000 once warm: the median time of every run's batches after the first
   * two of each load (less spread by a busy machine than a whole load's rate).
   */
  steady_batch_ms: number;
  single_per_s: number | null;
  vectors_caught_up_s: number;
  /** How long after the last write the contradiction check of the batches was done (null: not within the cap). */
  conflicts_caught_up_s: number | null;
  /** Conflicts it recorded in the synthetic corpus (its memories never contradict on purpose). */
  conflicts: number;
  recall_p50_ms: number;
  recall_p95_ms: number;
  hit_rate: number;
  rss_mb: number;
  db_mb: number;
}
const rows: Row[] = [];
let loaded = 0;
let batchedMs = 0;

// A daemon that has answered one recall keeps its recogniser up to date on every write:
// so does this benchmark.
await client.call('memory.recall', { query: 'warm up', rehearse: false });

/**
 * Remembers memories from `from` up to `to`, 1,000 a call, and returns the rate. The
 * memories are generated before the clock starts: only remembering is timed.
 */
async function loadTo(
  call: typeof client.call,
  from: number,
  to: number,
  gen: ReturnType<typeof generator>,
  label: string,
): Promise<{ perS: number; ms: number; batchMs: number[] }> {
  const batches: { content: string; tags: string[] }[][] = [];
  for (let i = from; i < to; i += BATCH) {
    batches.push(
      Array.from({ length: Math.min(BATCH, to - i) }, () => {
        const g = gen();
        if (queries.length < 5000 && Math.random() < 0.05) queries.push(g.query);
        return { content: g.content, tags: g.tags };
      }),
    );
  }
  const bar = new SingleBar(
    { format: `${label} [{bar}] {value}/{total} {rate}/s`, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(to, from, { rate: 0 });
  const t0 = performance.now();
  let done = from;
  const batchMs: number[] = [];
  for (const items of batches) {
    const b0 = performance.now();
    await call('memory.rememberMany', { items });
    batchMs.push(performance.now() - b0);
    done += items.length;
    bar.update(done, { rate: Math.round((done - from) / ((performance.now() - t0) / 1000)) });
  }
  bar.stop();
  const ms = performance.now() - t0;
  return { perS: Math.round((to - from) / (ms / 1000)), ms, batchMs: batchMs.slice(2) };
}

/** Batched rates of the later runs, by size (each run on a fresh store). */
const laterRuns = new Map<number, number[]>(SIZES.map((s) => [s, []]));
/** Warm batch times of every run, by size. */
const warmBatches = new Map<number, number[]>(SIZES.map((s) => [s, []]));

for (const size of SIZES) {
  const load = await loadTo(
    client.call.bind(client),
    loaded,
    size,
    next,
    `run 1 of ${RUNS}: loading ${size.toLocaleString()} memories`,
  );
  loaded = size;
  batchedMs += load.ms;
  warmBatches.get(size)?.push(...load.batchMs);
  const batchedPerS = load.perS;

  // One by one: each remember is its own transaction with synchronous=FULL.
  let singlePerS: number | null = null;
  if (rows.length === 0) {
    const singles = Array.from({ length: SINGLES }, () => next().content);
    const ts = performance.now();
    for (const content of singles) await client.call('memory.remember', { content });
    singlePerS = Math.round(SINGLES / ((performance.now() - ts) / 1000));
    loaded += SINGLES;
  }

  // The vectors of what was just written are embedded in the background; a benchmark
  // loop of in-process calls never yields to it, so wait for it here, timed.
  const tc = performance.now();
  await engine.semantic.idle();
  const catchUpS = Number(((performance.now() - tc) / 1000).toFixed(1));
  // So is the contradiction check of the batches (a single write is checked before it
  // answers, inside the timing above).
  const tk = performance.now();
  const checked = await Promise.race([
    engine.conflicts.idle().then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), CONFLICTS_CAP_S * 1000).unref()),
  ]);
  const conflictsS = checked ? Number(((performance.now() - tk) / 1000).toFixed(1)) : null;

  // Lexical recall: warm up, then timed queries (each a real rehearsal, flushed in the
  // background).
  engine.config.recall.use_vectors = false;
  engine.config.recall.use_recognizer = false;
  for (let i = 0; i < 50; i++)
    await client.call('memory.recall', { query: queries[i % queries.length]! });
  const lat: number[] = [];
  let hits = 0;
  for (let i = 0; i < QUERIES; i++) {
    const q = queries[i % queries.length]!;
    const t = performance.now();
    const r = await client.call('memory.recall', { query: q });
    lat.push(performance.now() - t);
    if (r.results.length > 0) hits++;
  }
  engine.config.recall.use_vectors = true;
  engine.config.recall.use_recognizer = true;
  await engine.rehearsals.flush();
  const stats = await client.call('stats.get', {});
  rows.push({
    size: stats.memories.live,
    batched_per_s: batchedPerS,
    batched_median_per_s: batchedPerS,
    batched_min_per_s: batchedPerS,
    batched_runs: [batchedPerS],
    steady_batch_ms: 0,
    single_per_s: singlePerS,
    vectors_caught_up_s: catchUpS,
    conflicts_caught_up_s: conflictsS,
    conflicts: (await client.call('conflict.list', { limit: 1 })).open,
    recall_p50_ms: Number(pct(lat, 50).toFixed(2)),
    recall_p95_ms: Number(pct(lat, 95).toFixed(2)),
    hit_rate: Number((hits / QUERIES).toFixed(3)),
    rss_mb: rssMb(),
    db_mb: Number(
      ((stats.database.size_bytes + stats.database.wal_bytes) / 1024 / 1024).toFixed(1),
    ),
  });
}

await engine.close();
rmSync(dir, { recursive: true, force: true });

// Runs 2…RUNS: the same batched loads on fresh stores, the rest not measured again.
for (let run = 2; run <= RUNS; run++) {
  const runDir = mkdtempSync(join(tmpdir(), 'loci-bench-'));
  const e = await Engine.open({ dataDir: runDir, owner: 'bench' });
  const c = createInProcessClient(createHandlers(e), { actor: { kind: 'cli' } });
  if (ENCRYPTED) await c.call('store.encrypt', { source: 'keyfile' });
  await c.call('memory.recall', { query: 'warm up', rehearse: false });
  const gen = generator(7);
  let at = 0;
  for (const size of SIZES) {
    const load = await loadTo(
      c.call.bind(c),
      at,
      size,
      gen,
      `run ${run} of ${RUNS}: loading ${size.toLocaleString()} memories`,
    );
    laterRuns.get(size)?.push(load.perS);
    warmBatches.get(size)?.push(...load.batchMs);
    at = size;
    // The vectors of this size are made before the next load, as in run 1; the
    // contradiction check waits for writes to pause, and is not timed again here.
    await e.semantic.idle();
  }
  await e.close();
  rmSync(runDir, { recursive: true, force: true });
}
rows.forEach((row, i) => {
  const all = [row.batched_per_s, ...(laterRuns.get(SIZES[i] as number) ?? [])];
  const sorted = [...all].sort((a, b) => a - b);
  row.batched_runs = all;
  row.batched_median_per_s = sorted[Math.floor(sorted.length / 2)] as number;
  row.batched_min_per_s = sorted[0] as number;
  row.steady_batch_ms = Math.round(pct(warmBatches.get(SIZES[i] as number) ?? [], 50));
});

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, ${process.platform}`;
mkdirSync('bench-results', { recursive: true });
writeFileSync(
  ENCRYPTED ? 'bench-results/core-encrypted.json' : 'bench-results/core.json',
  JSON.stringify(
    { machine, date: new Date().toISOString(), encrypted: ENCRYPTED, queries: QUERIES, rows },
    null,
    2,
  ),
);
console.log(`\nmachine: ${machine}${ENCRYPTED ? ' — store encrypted at rest' : ''}`);
console.log(
  `| memories | remember, batched (/s), median of ${RUNS} | slowest run | warm batch of 1,000 (ms), median | remember, one by one (/s) | vectors caught up (s) | conflicts checked (s) | conflicts found | lexical recall p50 (ms) | p95 (ms) | RSS (MB) | database (MB) |`,
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.size.toLocaleString('en')} | ${r.batched_median_per_s.toLocaleString('en')} | ${r.batched_min_per_s.toLocaleString('en')} | ${r.steady_batch_ms} | ${r.single_per_s?.toLocaleString('en') ?? '—'} | ${r.vectors_caught_up_s} | ${r.conflicts_caught_up_s ?? `> ${CONFLICTS_CAP_S}`} | ${r.conflicts} | ${r.recall_p50_ms} | ${r.recall_p95_ms} | ${r.rss_mb} | ${r.db_mb} |`,
  );
}
console.log(
  `(recall: ${QUERIES} queries per size, two-term queries built from stored memories; ${Math.round(batchedMs / 1000)} s spent loading)`,
);
