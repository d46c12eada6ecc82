// npm run bench:sync — replication through a real PostgreSQL hub, at 10k and 100k
// memories: how fast a device pushes its whole store (capture into the log, then batched
// inserts), how fast a new device catches up from the hub (pull, check, apply: memories,
// tags, full-text index, audit chain), and the lag from a write on one device to its
// arrival on another under a steady write load (both devices running their sync loops).
// Two engines in this process, each on its own data directory, so one clock measures
// the lag. PostgreSQL: LOCI_TEST_PG_URL (a superuser URL) or a throw-away cluster
// started here (Debian's postgresql). Writes bench-results/sync.json and prints a
// Markdown table for the README.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Presets, SingleBar } from 'cli-progress';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import type { LociClient } from '../../src/shared/api';
import { postgresAvailable, startPostgres } from '../../test/helpers/postgres';
import { generator } from './corpus';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const STEADY_S = Number(process.env.BENCH_STEADY_S ?? 20);
const STEADY_RATE = Number(process.env.BENCH_STEADY_RATE ?? 20); // writes per second
const BATCH = 1000;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

interface Device {
  engine: Engine;
  client: LociClient;
}

async function device(): Promise<Device> {
  const engine = await Engine.open({
    dataDir: mkdtempSync(join(tmpdir(), 'loci-bench-sync-')),
    owner: 'bench',
    env: { LOCI_MODEL_PATH: '' },
    sync: { intervalMs: 1000 },
  });
  return {
    engine,
    client: createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } }),
  };
}

interface Row {
  size: number;
  push_ops: number;
  push_s: number;
  push_ops_per_s: number;
  catchup_s: number;
  pull_ops_per_s: number;
  lag_p50_ms: number;
  lag_p95_ms: number;
  lag_samples: number;
}

const check = postgresAvailable();
if (!check.ok) {
  console.error(`bench:sync needs PostgreSQL: ${check.reason}`);
  process.exit(1);
}
const cluster = await startPostgres();
const rows: Row[] = [];
try {
  for (const size of SIZES) {
    const url = await cluster.createDatabase(`loci_bench_${size}`);
    const a = await device();
    const next = generator(11);
    const bar = new SingleBar(
      { format: `${size.toLocaleString()}: loading [{bar}] {value}/{total}`, hideCursor: true },
      Presets.shades_classic,
    );
    bar.start(size, 0);
    for (let i = 0; i < size; i += BATCH) {
      const items = Array.from({ length: Math.min(BATCH, size - i) }, () => {
        const g = next();
        return { content: g.content, tags: g.tags };
      });
      await a.client.call('memory.rememberMany', { items });
      bar.update(i + items.length);
    }
    bar.stop();

    // The whole store into the log and onto the hub.
    let t0 = performance.now();
    await a.client.call('sync.connect', { url });
    let pushed = 0;
    for (;;) {
      const r = await a.client.call('sync.now', {});
      pushed += r.pushed;
      if (r.pushed === 0) break;
    }
    const pushS = (performance.now() - t0) / 1000;
    console.log(`${size}: pushed ${pushed} operations in ${pushS.toFixed(1)} s`);

    // A new device catching up from the hub.
    const b = await device();
    t0 = performance.now();
    await b.client.call('sync.connect', { url });
    let pulled = 0;
    const catchBar = new SingleBar(
      { format: `${size.toLocaleString()}: catching up [{bar}] {value}/{total}`, hideCursor: true },
      Presets.shades_classic,
    );
    catchBar.start(pushed, 0);
    for (;;) {
      const r = await b.client.call('sync.now', {});
      pulled += r.applied;
      catchBar.update(pulled);
      if (r.pulled === 0) break;
    }
    catchBar.stop();
    const catchupS = (performance.now() - t0) / 1000;
    console.log(`${size}: a new device applied ${pulled} operations in ${catchupS.toFixed(1)} s`);

    // Steady writes on A while both loops run: the lag to B, by one clock.
    a.engine.sync.start();
    b.engine.sync.start();
    const written = new Map<string, number>();
    const lags: number[] = [];
    const off = b.engine.events.on('memory.changed', (e) => {
      if (e.change !== 'created') return;
      const at = performance.now();
      for (const id of e.ids) {
        const w = written.get(id);
        if (w !== undefined) lags.push(at - w);
      }
    });
    const steadyEnd = performance.now() + STEADY_S * 1000;
    const gap = 1000 / STEADY_RATE;
    while (performance.now() < steadyEnd) {
      const started = performance.now();
      const r = await a.client.call('memory.remember', { content: next().content });
      written.set(r.id, started);
      const wait = gap - (performance.now() - started);
      if (wait > 0) await new Promise((res) => setTimeout(res, wait));
    }
    const settleEnd = performance.now() + 15_000;
    while (lags.length < written.size && performance.now() < settleEnd) {
      await new Promise((res) => setTimeout(res, 100));
    }
    off();
    rows.push({
      size,
      push_ops: pushed,
      push_s: Math.round(pushS * 10) / 10,
      push_ops_per_s: Math.round(pushed / pushS),
      catchup_s: Math.round(catchupS * 10) / 10,
      pull_ops_per_s: Math.round(pulled / catchupS),
      lag_p50_ms: Math.round(pct(lags, 50)),
      lag_p95_ms: Math.round(pct(lags, 95)),
      lag_samples: lags.length,
    });
    console.log(
      `${size}: steady ${STEADY_RATE}/s for ${STEADY_S} s: lag p50 ${Math.round(pct(lags, 50))} ms, p95 ${Math.round(pct(lags, 95))} ms (${lags.length}/${written.size} arrived)`,
    );
    await a.engine.close();
    await b.engine.close();
  }
} finally {
  await cluster.stop();
}

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
mkdirSync('bench-results', { recursive: true });
writeFileSync(
  'bench-results/sync.json',
  JSON.stringify({ machine, steady_rate: STEADY_RATE, steady_s: STEADY_S, rows }, null, 2),
);
console.log(`\nMachine: ${machine}\n`);
console.log(
  '| memories | pushed (ops/s) | new device catches up | pulled (ops/s) | lag p50 | lag p95 |',
);
console.log('|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.size.toLocaleString()} | ${r.push_ops_per_s.toLocaleString()} (${r.push_ops.toLocaleString()} in ${r.push_s} s) | ${r.catchup_s} s | ${r.pull_ops_per_s.toLocaleString()} | ${r.lag_p50_ms} ms | ${r.lag_p95_ms} ms |`,
  );
}
