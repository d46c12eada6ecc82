// npm run bench:dream — a dream over a synthetic store (BENCH_DREAM_MEMORIES, default
// 10,000 memories, two links each, co-recalled pairs, procedure outcomes, 2 % near-
// duplicates, 120 days of simulated time) while a recall runs every 25 ms: how long each
// phase takes (dry run, then the real cycle), the longest the event loop was held up
// (monitorEventLoopDelay, 1 ms resolution) and recall latency during the dream against
// the same recalls with no dream. Writes bench-results/dream.json and prints Markdown.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { DreamReport } from '../../src/shared/api';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import { mulberry32 } from '../../src/shared/random';
import { generator } from './corpus';

const N = Number(process.env.BENCH_DREAM_MEMORIES ?? 10_000);
const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'loci-bench-dream-'));
let now = Date.parse('2026-01-01T09:00:00Z');
const engine = await Engine.open({ dataDir: dir, owner: 'bench', clock: () => now, env: {} });
const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
const next = generator(11);
const rand = mulberry32(5);
const queries: string[] = [];

const ids: string[] = [];
let previous = '';
for (let i = 0; i < N; i += 1000) {
  const items = Array.from({ length: Math.min(1000, N - i) }, () => {
    const g = next();
    if (queries.length < 200 && rand() < 0.05) queries.push(g.query);
    // 2 % near-duplicates: the previous memory's text with one more sentence.
    const content = previous && rand() < 0.02 ? `${previous}\nChecked again.` : g.content;
    previous = g.content;
    const kind: 'procedural' | 'semantic' = rand() < 0.03 ? 'procedural' : 'semantic';
    return { content, tags: g.tags, kind };
  });
  const { results } = await client.call('memory.rememberMany', { items });
  ids.push(...results.map((r) => r.id));
}
const store = await engine.store(undefined);
const rid = new Map(
  (store.db.prepare('SELECT id, rid FROM memory').all() as { id: string; rid: number }[]).map(
    (r) => [r.id, r.rid],
  ),
);
const pick = () => ids[Math.floor(rand() * ids.length)] as string;
const links = [];
for (let i = 0; i < N * 2; i++) {
  const from = pick();
  const to = pick();
  if (from !== to) links.push({ from, to, weight: Math.round((0.2 + rand() * 0.7) * 100) / 100 });
}
for (let i = 0; i < links.length; i += 10_000)
  await client.call('link.createMany', { links: links.slice(i, i + 10_000) });
// Co-recalled pairs (accesses sharing an instant) and procedure outcomes.
store.db.transaction(() => {
  const add = store.db.prepare('INSERT INTO access (rid, at) VALUES (?, ?)');
  for (let i = 0; i < N / 5; i++) {
    const at = now + 1000 + i;
    add.run(rid.get(pick()), at);
    add.run(rid.get(pick()), at);
  }
  const out = store.db.prepare(
    `INSERT INTO procedure_outcome (rid, at, success, niche, actor) VALUES (?, ?, ?, ?, 'bench')`,
  );
  for (const r of store.db.prepare(`SELECT rid FROM memory WHERE kind = 'procedural'`).all() as {
    rid: number;
  }[])
    for (let k = 0; k < 6; k++)
      out.run(r.rid, now, rand() < 0.5 ? 1 : 0, rand() < 0.5 ? 'prod' : 'staging');
  store.db.prepare('UPDATE memory SET arousal = 0.6').run();
})();
now += 120 * DAY;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/** Recalls every 25 ms until `until` resolves; their latencies. */
async function recallsDuring<T>(
  work: Promise<T> | null,
  count = 80,
): Promise<{ result: T | null; ms: number[] }> {
  const ms: number[] = [];
  let done = work === null;
  const result = work?.then((r) => ((done = true), r)) ?? null;
  let i = 0;
  while (!done || (work === null && i < count)) {
    const t0 = performance.now();
    await client.call('memory.recall', {
      query: queries[i++ % queries.length] as string,
      rehearse: false,
    });
    ms.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 25));
  }
  return { result: result ? await result : null, ms };
}

// The first recall builds the recogniser: not part of either measurement.
await client.call('memory.recall', { query: 'warm up', rehearse: false });
const baseline = await recallsDuring(null);
const report: Record<string, unknown> = {
  memories: N,
  links: links.length,
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
};
for (const dryRun of [true, false]) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const t0 = performance.now();
  const { result, ms } = await recallsDuring(client.call('dream.run', { dry_run: dryRun }));
  h.disable();
  const r = result as DreamReport;
  report[dryRun ? 'dry_run' : 'cycle'] = {
    status: r.status,
    total_s: Math.round((performance.now() - t0) / 100) / 10,
    phases: Object.fromEntries(
      r.phases.map((p) => [
        p.phase,
        {
          ms: p.duration_ms,
          examined: p.examined,
          changes: p.changes_total,
          proposals: p.proposals,
        },
      ]),
    ),
    loop_delay_max_ms: Math.round(h.max / 1e6),
    loop_delay_p99_ms: Math.round(h.percentile(99) / 1e6),
    recalls: ms.length,
    recall_p50_ms: Math.round(pct(ms, 50) * 10) / 10,
    recall_p95_ms: Math.round(pct(ms, 95) * 10) / 10,
    recall_max_ms: Math.round(Math.max(...ms) * 10) / 10,
  };
}
report.baseline = {
  recall_p50_ms: Math.round(pct(baseline.ms, 50) * 10) / 10,
  recall_p95_ms: Math.round(pct(baseline.ms, 95) * 10) / 10,
  recall_max_ms: Math.round(Math.max(...baseline.ms) * 10) / 10,
};
await engine.close();
rmSync(dir, { recursive: true, force: true });
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/dream.json', `${JSON.stringify(report, null, 2)}\n`);

const c = report.cycle as {
  phases: Record<string, { ms: number; changes: number; proposals: number }>;
};
const d = report.dry_run as typeof c;
console.log(
  `\n${N.toLocaleString('en')} memories, ${links.length.toLocaleString('en')} links (${report.cpu}, ${report.cpus} cores)\n`,
);
console.log(
  '| phase | dry run (ms) | cycle (ms) | changes | proposals |\n| --- | ---: | ---: | ---: | ---: |',
);
for (const [name, p] of Object.entries(c.phases))
  console.log(
    `| ${name} | ${d.phases[name]?.ms ?? '—'} | ${p.ms} | ${p.changes} | ${p.proposals} |`,
  );
for (const k of ['dry_run', 'cycle'] as const) {
  const x = report[k] as Record<string, number>;
  console.log(
    `\n${k}: ${x.total_s} s; event loop held at most ${x.loop_delay_max_ms} ms (p99 ${x.loop_delay_p99_ms}); ${x.recalls} recalls during it: p50 ${x.recall_p50_ms} ms, p95 ${x.recall_p95_ms} ms, max ${x.recall_max_ms} ms`,
  );
}
const b = report.baseline as Record<string, number>;
console.log(
  `no dream: recall p50 ${b.recall_p50_ms} ms, p95 ${b.recall_p95_ms} ms, max ${b.recall_max_ms} ms`,
);
