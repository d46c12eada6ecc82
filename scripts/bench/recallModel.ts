// npm run bench:recall-model — recall with the real embedding model, the daemon's way
// (writes embedded in the background), at 10k (and 100k) memories:
//  1. idle: recall p50/p95 including the query's embedding, each query asked once (no
//     cached vector), then the same queries again (their vectors kept);
//  2. while a backfill runs: another batch of memories is written (their vectors are
//     missing, so the backfill embeds them in the background) and the same questions,
//     their kept vectors forgotten, are timed meanwhile; only recalls answered while the
//     backfill was still running count.
// Needs the real all-MiniLM-L6-v2 (LOCI_MODEL_PATH, default ../shared/models); says so
// and stops without it. Writes bench-results/recall-model.json.
//
//   LOCI_MODEL_PATH=../shared/models BENCH_SIZES=10000,100000 npm run bench:recall-model
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import { generator } from './corpus';
import { bar, pct } from './stats';

const SIZES = (process.env.BENCH_SIZES ?? '10000').split(',').map(Number);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
/** Memories written to start a backfill, per size. */
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 3000);
const modelRoot = resolve(
  process.env.LOCI_MODEL_PATH ?? join(import.meta.dirname, '../../../shared/models'),
);
if (!existsSync(join(modelRoot, 'all-minilm-l6-v2-int8', 'manifest.json'))) {
  console.log(
    `No all-MiniLM-L6-v2 under ${modelRoot}: this benchmark needs the real model (set LOCI_MODEL_PATH to the folder of models).`,
  );
  process.exit(0);
}

interface Row {
  size: number;
  idle_p50: number;
  idle_p95: number;
  embed_p50: number;
  repeated_p50: number;
  repeated_p95: number;
  backfill_p50: number;
  backfill_p95: number;
  backfill_recalls: number;
  backfill_embedded: number;
  /** Idle, each query asked once: p50 of each stage's time (ms), where the time goes. */
  idle_stages_p50: Record<string, number>;
}

const dir = mkdtempSync(join(tmpdir(), 'loci-bench-recall-model-'));
const engine = await Engine.open({
  dataDir: dir,
  owner: 'bench',
  embedWrites: 'background',
  env: { LOCI_MODEL_PATH: modelRoot },
});
const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
const next = generator(23);
const queries: string[] = [];
const rows: Row[] = [];
let loaded = 0;

const write = async (count: number, label: string) => {
  const b = bar(label, count);
  for (let done = 0; done < count;) {
    const items = Array.from({ length: Math.min(1000, count - done) }, () => {
      const g = next();
      if (queries.length < 20_000 && Math.random() < 0.2) queries.push(g.query);
      return { content: g.content, tags: g.tags };
    });
    await client.call('memory.rememberMany', { items });
    done += items.length;
    b.update(done);
  }
  b.stop();
  loaded += count;
};
const recall = async (query: string) => {
  const r = await client.call('memory.recall', { query, rehearse: false });
  if (r.how === 'lexical') throw new Error('recall ran without the model');
  return r;
};

try {
  for (const size of SIZES) {
    await write(size - loaded, `loading ${size.toLocaleString()}`);
    const t = performance.now();
    process.stderr.write('embedding them with the model (the background backfill)…\n');
    await engine.semantic.idle();
    process.stderr.write(`  ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
    // Idle means idle: the contradiction check of the batches (with a model, each new
    // memory's vector neighbours) runs after the vectors, and is waited for too.
    process.stderr.write('the contradiction check of the batches…\n');
    const tc = performance.now();
    await engine.conflicts.idle();
    process.stderr.write(`  ${((performance.now() - tc) / 1000).toFixed(0)} s\n`);
    for (let i = 0; i < 20; i++) await recall(`warm up ${i} ${queries[i]}`);

    // 1. Idle: each query once (its vector is not kept yet), then again (kept). Distinct
    // questions as generated (an earlier version appended a number to each instead, a
    // word in many memories that made the lexical stage several times slower). The
    // generator asks about a few hundred subjects, so a question of 100,000 may have
    // been asked at 10,000: the kept query vectors are forgotten first.
    const asked = [...new Set(queries)].slice(-QUERIES);
    await engine.semantic.embedding.release('idle');
    const idle: number[] = [];
    const embeds: number[] = [];
    const stages = new Map<string, number[]>();
    for (const q of asked) {
      const t0 = performance.now();
      const r = await recall(q);
      idle.push(performance.now() - t0);
      if (r.timings.embed_ms !== undefined) embeds.push(r.timings.embed_ms);
      for (const [stage, ms] of Object.entries(r.timings)) {
        const times = stages.get(stage) ?? [];
        times.push(ms);
        stages.set(stage, times);
      }
    }
    const repeated: number[] = [];
    for (const q of asked) {
      const t0 = performance.now();
      await recall(q);
      repeated.push(performance.now() - t0);
    }

    // 2. While a backfill runs: a backlog written, recalls timed while it is embedded.
    await write(BACKLOG, `writing a backlog of ${BACKLOG.toLocaleString()}`);
    const during: number[] = [];
    const store = await engine.store(undefined);
    const missing = () =>
      (
        store.db
          .prepare(
            `SELECT count(*) AS n FROM memory m WHERE m.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM memory_embedding e WHERE e.rid = m.rid)`,
          )
          .get() as { n: number }
      ).n;
    const before = missing();
    // The same distinct questions (no appended words: a number or a word found in many
    // memories would make the lexical stage, not the backfill, the cost measured), their
    // kept vectors forgotten each time round, so every recall embeds its query. The
    // store's own count of missing vectors is read only before and after, since at
    // 100,000 it is a scan this thread would run between the recalls.
    let i = 0;
    const deadline = performance.now() + 120_000;
    while (engine.semantic.working && performance.now() < deadline) {
      if (i % asked.length === 0) await engine.semantic.embedding.release('idle');
      const t0 = performance.now();
      await recall(asked[i++ % asked.length] as string);
      const ms = performance.now() - t0;
      if (engine.semantic.working) during.push(ms);
    }
    const embedded = before - missing();
    await engine.semantic.idle();
    rows.push({
      size,
      idle_p50: pct(idle, 50),
      idle_p95: pct(idle, 95),
      embed_p50: pct(embeds, 50),
      repeated_p50: pct(repeated, 50),
      repeated_p95: pct(repeated, 95),
      backfill_p50: pct(during, 50),
      backfill_p95: pct(during, 95),
      backfill_recalls: during.length,
      backfill_embedded: embedded,
      idle_stages_p50: Object.fromEntries([...stages].map(([k, v]) => [k, pct(v, 50)])),
    });
  }
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`;
mkdirSync('bench-results', { recursive: true });
writeFileSync(
  'bench-results/recall-model.json',
  JSON.stringify({ machine, date: new Date().toISOString(), queries: QUERIES, rows }, null, 2),
);
console.log(`\nmachine: ${machine}; all-MiniLM-L6-v2 (int8), ${QUERIES} queries per size`);
console.log(
  '| memories | recall p50, idle (ms) | p95 | query embedding p50 | repeated query p50 | p95 | recall p50 during a backfill (ms) | p95 | recalls timed | vectors made meanwhile |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.size.toLocaleString('en')} | ${r.idle_p50} | ${r.idle_p95} | ${r.embed_p50} | ${r.repeated_p50} | ${r.repeated_p95} | ${r.backfill_p50} | ${r.backfill_p95} | ${r.backfill_recalls} | ${r.backfill_embedded.toLocaleString('en')} |`,
  );
}
for (const r of rows) {
  const stages = Object.entries(r.idle_stages_p50).map(([k, v]) => `${k.replace(/_ms$/, '')} ${v}`);
  console.log(`${r.size.toLocaleString('en')}, idle, p50 by stage (ms): ${stages.join(', ')}`);
}
