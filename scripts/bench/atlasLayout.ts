// npm run bench:atlas-layout — what the Atlas's layout costs per tick, in Node (the
// worker's code without a browser), on 5,000 memories and 15,000 links shaped like a real
// store (topics, links mostly within one): laid out by the links alone, and as a map of
// meaning (each memory pulled towards its projected place, as when a model is installed).
// How long a tick takes (median and 95th percentile of the first 180, the ticks to settle)
// and how far linked memories end up from each other. Prints Markdown.
import { cpus } from 'node:os';
import { ForceLayout } from '../../src/renderer/src/views/atlas/forceLayout';
import { mulberry32 } from '../../src/shared/random';

const N = Number(process.env.BENCH_ATLAS_NODES ?? 5_000);
const M = Number(process.env.BENCH_ATLAS_LINKS ?? 15_000);
const TOPICS = 9;
const rand = mulberry32(5000);

const topic = Array.from({ length: N }, () => Math.floor(rand() * TOPICS));
const byTopic = Array.from({ length: TOPICS }, () => [] as number[]);
topic.forEach((t, i) => byTopic[t]!.push(i));
const links = new Uint32Array(M * 2);
const weights = new Float32Array(M);
for (let l = 0; l < M; l++) {
  const a = Math.floor(rand() * N);
  const within = rand() < 0.85;
  const pool = within ? byTopic[topic[a]!]! : null;
  const b = pool ? pool[Math.floor(rand() * pool.length)]! : Math.floor(rand() * N);
  links[l * 2] = a;
  links[l * 2 + 1] = b === a ? (a + 1) % N : b;
  weights[l] = 0.3 + rand() * 0.7;
}
// Where meaning would put each memory: its topic's centre on a circle, spread around it.
const scale = 9 * Math.sqrt(N) * 0.55;
const targets = new Float32Array(N * 2);
for (let i = 0; i < N; i++) {
  const a = (topic[i]! / TOPICS) * Math.PI * 2;
  targets[i * 2] = (Math.cos(a) * 1.6 + (rand() - 0.5)) * scale;
  targets[i * 2 + 1] = (Math.sin(a) * 1.6 + (rand() - 0.5)) * scale;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function run(mode: 'links' | 'meaning') {
  const positions = new Float32Array(N * 2);
  for (let i = 0; i < N * 2; i++)
    positions[i] = mode === 'meaning' ? targets[i]! + (rand() - 0.5) * 4 : (rand() - 0.5) * scale;
  const layout = new ForceLayout({
    positions,
    links,
    weights,
    alpha: 1,
    ...(mode === 'meaning' ? { targets } : {}),
  });
  const times: number[] = [];
  while (!layout.settled && times.length < 400) {
    const t0 = performance.now();
    layout.run(0);
    times.push(performance.now() - t0);
  }
  const p = layout.positions();
  let linked = 0;
  for (let l = 0; l < M; l++) {
    const a = links[l * 2]!;
    const b = links[l * 2 + 1]!;
    linked += Math.hypot(p[a * 2]! - p[b * 2]!, p[a * 2 + 1]! - p[b * 2 + 1]!);
  }
  const sorted = [...times].sort((x, y) => x - y);
  return {
    mode,
    ticks: times.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    linked: linked / M,
  };
}

console.log(
  `Atlas layout, ${N.toLocaleString('en-US')} memories / ${M.toLocaleString('en-US')} links, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}\n`,
);
console.log('| layout | ticks to settle | tick p50 (ms) | tick p95 (ms) | mean linked distance |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const mode of ['links', 'meaning'] as const) {
  const r = run(mode);
  console.log(
    `| ${r.mode} | ${r.ticks} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.linked.toFixed(1)} |`,
  );
}
