// Louvain communities of the link graph (graphology), seeded so that the same store
// always draws the same map. The Atlas runs it in this thread; dream's cluster phase
// runs the same module in a worker thread (dream/louvainWorker.ts) on large graphs.
import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import type { AtlasLink } from '../../../shared/api';
import { mulberry32 } from '../../../shared/random';

/**
 * Louvain communities over the undirected graph, links between the same two memories
 * summed. Numbered by size, largest first (so colours stay put as the graph grows);
 * a memory without links is a community of its own.
 */
export function communities(
  ids: readonly string[],
  links: readonly AtlasLink[],
): { community: Map<string, number>; count: number } {
  const graph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  for (const id of ids) graph.addNode(id);
  for (const l of links) {
    if (l.from === l.to) continue;
    const w = Math.max(l.weight, 0.01);
    if (graph.hasEdge(l.from, l.to)) {
      graph.updateEdgeAttribute(l.from, l.to, 'weight', (x: number | undefined) => (x ?? 0) + w);
    } else graph.addEdge(l.from, l.to, { weight: w });
  }
  const raw: Record<string, number> =
    graph.size > 0
      ? // Louvain visits nodes in random order: seeded, the same store draws the same map.
        louvain(graph, { getEdgeWeight: 'weight', rng: mulberry32(7) })
      : Object.fromEntries(ids.map((id, i) => [id, i]));
  const sizes = new Map<number, number>();
  for (const c of Object.values(raw)) sizes.set(c, (sizes.get(c) ?? 0) + 1);
  const order = [...sizes.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([c], rank) => [c, rank] as const);
  const rank = new Map(order);
  const community = new Map<string, number>();
  for (const id of ids) community.set(id, rank.get(raw[id] as number) ?? 0);
  return { community, count: rank.size };
}
