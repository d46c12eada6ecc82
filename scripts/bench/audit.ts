// npm run bench:audit — how long `audit.verify` takes on a long chain (default 1M
// entries; BENCH_AUDIT_ENTRIES overrides). The chain is written through the real
// AuditChain.append (keyed HMACs, canonical JSON, memory.create/update-shaped data with
// keyed fingerprints, several actors), in transactions of 10k; then verify runs three
// times through the in-process API (split with a worker thread, events, anchor file and
// all) and three times on one thread, medians reported, with a filtered `audit.list` page.
// Writes bench-results/audit.json and prints a Markdown table for the README.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { verifyChain } from '../../src/main/engine/audit/verify';
import { Engine } from '../../src/main/engine/engine';

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_AUDIT_RUNS ?? 3);
const TX = 10_000;

const dir = mkdtempSync(join(tmpdir(), 'loci-bench-audit-'));
const engine = await Engine.open({ dataDir: dir, owner: 'bench' });
const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
const store = await engine.store(undefined);
const actors = ['cli', 'ui', 'mcp:cursor', 'mcp:claude-code', 'mcp:zed'];
const actions = ['memory.create', 'memory.update', 'memory.forget', 'link.create'] as const;

const t0 = performance.now();
let at = Date.parse('2026-01-01T00:00:00Z');
for (let i = 0; i < ENTRIES; i += TX) {
  store.db.transaction(() => {
    for (let j = i; j < Math.min(ENTRIES, i + TX); j++) {
      const action = actions[j % actions.length]!;
      const id = `01J${String(j).padStart(23, '0')}`;
      const data =
        action === 'memory.create'
          ? { new: store.audit.fingerprint(`memory ${j}`) }
          : action === 'memory.update'
            ? {
                fields: ['content', 'title'],
                old: store.audit.fingerprint(`memory ${j - 1}`),
                new: store.audit.fingerprint(`memory ${j}`),
                version: 2,
              }
            : action === 'link.create'
              ? { to: `01J${String(j + 1).padStart(23, '0')}`, type: 'related', weight: 0.5 }
              : { state: store.audit.fingerprint(`memory ${j}`) };
      store.audit.append(
        { actor: actors[j % actors.length]!, action, target: id, data },
        (at += 1000),
      );
    }
  })();
  if ((i / TX) % 10 === 0) process.stderr.write(`\rwriting the chain: ${i.toLocaleString('en')}`);
}
const writeS = (performance.now() - t0) / 1000;
process.stderr.write(`\rwrote ${ENTRIES.toLocaleString('en')} entries in ${writeS.toFixed(1)} s\n`);
store.db.pragma('wal_checkpoint(TRUNCATE)');

const times: number[] = [];
let checked = 0;
let progressEvents = 0;
engine.events.on('audit.progressed', () => progressEvents++);
for (let r = 0; r < RUNS; r++) {
  const s = performance.now();
  const v = await client.call('audit.verify', {});
  times.push((performance.now() - s) / 1000);
  if (!v.ok)
    throw new Error(`the benchmark chain does not verify: ${JSON.stringify(v.first_broken)}`);
  checked = v.checked;
  process.stderr.write(`verify run ${r + 1}: ${times.at(-1)!.toFixed(2)} s\n`);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;

// The same chain on one thread (no worker), for comparison.
const single: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const s = performance.now();
  const v = await verifyChain(store.db, store.keyring, { parallelMin: Number.POSITIVE_INFINITY });
  single.push((performance.now() - s) / 1000);
  if (!v.ok) throw new Error('the benchmark chain does not verify on one thread');
  process.stderr.write(`one-thread run ${r + 1}: ${single.at(-1)!.toFixed(2)} s\n`);
}
single.sort((a, b) => a - b);
const singleMedian = single[Math.floor(single.length / 2)]!;

const l0 = performance.now();
await client.call('audit.list', { limit: 100, actor: 'mcp:cursor' });
const listMs = performance.now() - l0;

const dbMb = statSync(store.file).size / 1024 / 1024;
const rssMb = process.memoryUsage().rss / 1024 / 1024;
await engine.close();
rmSync(dir, { recursive: true, force: true });

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}, ${process.platform}`;
const result = {
  machine,
  date: new Date().toISOString(),
  entries: ENTRIES,
  checked,
  write_s: Number(writeS.toFixed(1)),
  verify_s: times.map((t) => Number(t.toFixed(2))),
  verify_median_s: Number(median.toFixed(2)),
  one_thread_s: single.map((t) => Number(t.toFixed(2))),
  one_thread_median_s: Number(singleMedian.toFixed(2)),
  entries_per_s: Math.round(ENTRIES / median),
  progress_events: Math.round(progressEvents / RUNS),
  list_page_ms: Number(listMs.toFixed(1)),
  db_mb: Number(dbMb.toFixed(0)),
  rss_mb: Number(rssMb.toFixed(0)),
};
mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/audit.json', JSON.stringify(result, null, 2));
console.log(`\nmachine: ${machine}`);
console.log(
  `| entries | verify, median of ${RUNS} (s) | entries/s | all runs (s) | one thread, median (s) | one thread, all runs (s) | audit.list page, filtered (ms) | database (MB) | RSS (MB) |`,
);
console.log('|---:|---:|---:|---|---:|---|---:|---:|---:|');
console.log(
  `| ${ENTRIES.toLocaleString('en')} | ${result.verify_median_s} | ${result.entries_per_s.toLocaleString('en')} | ${result.verify_s.join(', ')} | ${result.one_thread_median_s} | ${result.one_thread_s.join(', ')} | ${result.list_page_ms} | ${result.db_mb} | ${result.rss_mb} |`,
);
console.log(`(chain written through AuditChain.append in ${result.write_s} s)`);
