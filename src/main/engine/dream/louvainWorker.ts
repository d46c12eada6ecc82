// The clustering worker thread: Louvain communities of one graph (the module the Atlas
// runs in its thread), answered as [id, community] pairs. Started per run by louvain.ts.
import { parentPort, workerData } from 'node:worker_threads';
import type { AtlasLink } from '../../../shared/api';
import { communities } from '../memory/communities';

export interface LouvainWorkerData {
  ids: string[];
  links: Pick<AtlasLink, 'from' | 'to' | 'weight'>[];
}

export interface LouvainWorkerAnswer {
  community: [string, number][];
  count: number;
}

if (parentPort) {
  const { ids, links } = workerData as LouvainWorkerData;
  const { community, count } = communities(ids, links as AtlasLink[]);
  parentPort.postMessage({ community: [...community], count } satisfies LouvainWorkerAnswer);
}
