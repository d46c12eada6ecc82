// Louvain communities off the main thread: on a large link graph the algorithm runs for
// seconds without a pause (about 2 s at 10,000 memories and 20,000 links here), which
// would hold up every recall. A worker thread runs the same graphology code, seeded the
// same way as the Atlas; small graphs (and a worker that cannot start) run in-thread.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { AtlasLink } from '../../../shared/api';
import { communities } from '../memory/atlas';

/** Below this many memories the worker costs more than it saves. */
const IN_THREAD_BELOW = 500;

// CommonJS, evaluated in the worker; graphology is required by absolute path (resolved
// here), so it works from the sources, the build and a packaged app alike.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Graph = require(workerData.graphology);
const louvain = require(workerData.louvain);
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const graph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
for (const id of workerData.ids) graph.addNode(id);
for (const l of workerData.links) {
  if (l.from === l.to) continue;
  const w = Math.max(l.weight, 0.01);
  if (graph.hasEdge(l.from, l.to)) graph.updateEdgeAttribute(l.from, l.to, 'weight', (x) => (x || 0) + w);
  else graph.addEdge(l.from, l.to, { weight: w });
}
parentPort.postMessage(graph.size > 0 ? louvain(graph, { getEdgeWeight: 'weight', rng: mulberry32(7) }) : null);
`;

function rank(ids: readonly string[], raw: Record<string, number> | null) {
  if (!raw) return communities(ids, []);
  const sizes = new Map<number, number>();
  for (const c of Object.values(raw)) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  const order = new Map(
    [...sizes.entries()]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .map(([c], i) => [c, i] as const),
  );
  const community = new Map<string, number>();
  for (const id of ids) community.set(id, order.get(raw[id] as number) ?? 0);
  return { community, count: order.size };
}

export async function communitiesOffThread(
  ids: readonly string[],
  links: readonly AtlasLink[],
): Promise<{ community: Map<string, number>; count: number; offThread: boolean }> {
  if (ids.length < IN_THREAD_BELOW) return { ...communities(ids, links), offThread: false };
  let worker: Worker;
  try {
    const require = createRequire(import.meta.url);
    worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        ids,
        links: links.map((l) => ({ from: l.from, to: l.to, weight: l.weight })),
        graphology: require.resolve('graphology'),
        louvain: require.resolve('graphology-communities-louvain'),
      },
    });
  } catch {
    return { ...communities(ids, links), offThread: false };
  }
  try {
    const raw = await new Promise<Record<string, number> | null>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the clustering worker exited (${code})`)));
    });
    return { ...rank(ids, raw), offThread: true };
  } catch {
    // A worker that could not run: the same answer, in this thread.
    return { ...communities(ids, links), offThread: false };
  } finally {
    void worker.terminate();
  }
}
