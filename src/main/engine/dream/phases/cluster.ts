// Cluster: communities over the link graph (Louvain via graphology, seeded, the same
// algorithm as the Atlas), kept in the store so the schema phase can tell a stable
// cluster (seen by an earlier cycle) from one that just formed. Memories a dream wrote
// (schema summaries) are left out, so accepting one never reshapes its own cluster.
import type { DreamChange } from '../../../../shared/api';
import type { LinkType } from '../../../../shared/schemas';
import { communitiesOffThread } from '../louvain';
import { stmt } from '../../store/statements';
import type { ClusterInfo, DreamPhase, PhaseContext } from '../types';
import { jaccard } from '../text';
import { getJson, setJson } from './marks';

export interface StoredCluster extends ClusterInfo {
  /** When a cycle first found it (epoch ms). */
  since: number;
}

export function storedClusters(ctx: PhaseContext): StoredCluster[] {
  return getJson<StoredCluster[]>(ctx.store.db, 'clusters') ?? [];
}

/** The stored cluster this one continues: same key, or the most similar (≥ 0.5). */
export function matchCluster(c: ClusterInfo, stored: StoredCluster[]): StoredCluster | null {
  const byKey = stored.find((s) => s.key === c.key);
  if (byKey && jaccard(new Set(byKey.members), new Set(c.members)) >= 0.5) return byKey;
  let best: StoredCluster | null = null;
  let bestScore = 0.5;
  const mine = new Set(c.members);
  for (const s of stored) {
    const score = jaccard(new Set(s.members), mine);
    if (score >= bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}

export async function findClusters(
  ctx: PhaseContext,
): Promise<{ clusters: ClusterInfo[]; nodes: number }> {
  const db = ctx.store.db;
  const rows = stmt(
    db,
    `SELECT rid, id FROM memory WHERE deleted_at IS NULL AND trust = 'trusted' AND source <> 'dream'
      ORDER BY rid`,
  ).all() as { rid: number; id: string }[];
  await ctx.yield();
  const idOf = new Map(rows.map((r) => [r.rid, r.id]));
  const links: { from: string; to: string; type: LinkType; weight: number }[] = [];
  for (const l of stmt(
    db,
    'SELECT src, dst, type, weight FROM link ORDER BY src, dst, type',
  ).iterate() as Iterable<{
    src: number;
    dst: number;
    type: LinkType;
    weight: number;
  }>) {
    const from = idOf.get(l.src);
    const to = idOf.get(l.dst);
    if (from && to) links.push({ from, to, type: l.type, weight: l.weight });
  }
  await ctx.yield();
  const linked = new Set(links.flatMap((l) => [l.from, l.to]));
  const ids = rows.map((r) => r.id).filter((id) => linked.has(id));
  const { community } = await communitiesOffThread(ids, links);
  const groups = new Map<number, string[]>();
  for (const id of ids) {
    const c = community.get(id) as number;
    const g = groups.get(c);
    if (g) g.push(id);
    else groups.set(c, [id]);
  }
  const clusters = [...groups.values()]
    .filter((g) => g.length >= 2)
    .map((g) => {
      const members = [...g].sort();
      return { key: members[0] as string, members };
    })
    .sort((a, b) => b.members.length - a.members.length || a.key.localeCompare(b.key));
  return { clusters, nodes: ids.length };
}

export const cluster: DreamPhase<{ next: StoredCluster[] }> = {
  name: 'cluster',
  async plan(ctx) {
    const { clusters, nodes } = await findClusters(ctx);
    ctx.shared.clusters = clusters;
    const stored = storedClusters(ctx);
    const changes: DreamChange[] = [];
    const next: StoredCluster[] = [];
    const continued = new Set<StoredCluster>();
    for (const c of clusters) {
      const prev = matchCluster(c, stored);
      if (prev) continued.add(prev);
      next.push({ ...c, since: prev?.since ?? ctx.now });
      const same =
        prev &&
        prev.key === c.key &&
        prev.members.length === c.members.length &&
        prev.members.every((m, i) => m === c.members[i]);
      if (!same) {
        changes.push({
          kind: 'cluster',
          target: c.key,
          before: prev ? { key: prev.key, members: prev.members } : null,
          after: { key: c.key, members: c.members },
          note: prev ? 'membership changed' : 'new cluster',
        });
      }
    }
    for (const s of stored) {
      if (!continued.has(s))
        changes.push({
          kind: 'cluster',
          target: s.key,
          before: { key: s.key, members: s.members },
          after: null,
          note: 'dissolved',
        });
    }
    return {
      examined: nodes,
      changes,
      proposals: [],
      notes: [`${clusters.length} clusters of 2+ linked memories among ${nodes}.`],
      data: { next },
    };
  },
  apply(ctx, plan) {
    if (plan.changes.length > 0) setJson(ctx.store.db, 'clusters', plan.data.next, ctx.now);
    return plan.changes;
  },
};
