// Louvain communities off the main thread: on a large link graph the algorithm runs for
// seconds without a pause (about 2 s at 10,000 memories and 20,000 links here), which
// would hold up every recall. A worker thread (louvainWorker.ts) runs the very module the
// Atlas runs (memory/communities.ts); small graphs (and a worker that cannot start) run
// in this thread, which loads the module only then (an idle daemon does not hold it).
import type { Worker } from 'node:worker_threads';
import type { AtlasLink } from '../../../shared/api';
import { spawnWorker } from '../workers';
import type { LouvainWorkerAnswer, LouvainWorkerData } from './louvainWorker';

/** Below this many memories the worker costs more than it saves. */
const IN_THREAD_BELOW = 500;

export async function communitiesOffThread(
  ids: readonly string[],
  links: readonly AtlasLink[],
): Promise<{ community: Map<string, number>; count: number; offThread: boolean }> {
  const inThread = async () => {
    const { communities } = await import('../memory/communities');
    return { ...communities(ids, links), offThread: false };
  };
  if (ids.length < IN_THREAD_BELOW) return inThread();
  let worker: Worker;
  try {
    const workerData: LouvainWorkerData = {
      ids: [...ids],
      links: links.map((l) => ({ from: l.from, to: l.to, weight: l.weight })),
    };
    worker = spawnWorker(import.meta.url, 'louvainWorker.js', './louvainWorker.ts', { workerData });
  } catch {
    return inThread();
  }
  try {
    const answer = await new Promise<LouvainWorkerAnswer>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the clustering worker exited (${code})`)));
    });
    return { community: new Map(answer.community), count: answer.count, offThread: true };
  } catch {
    // A worker that could not run: the same answer, in this thread.
    return inThread();
  } finally {
    void worker.terminate();
  }
}
