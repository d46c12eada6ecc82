// The Atlas view's data: the memories of a store as a graph — nodes with what the view
// colours and sizes them by (kind, community, activation), and the links among them.
// Communities come from Louvain modularity over the weighted, undirected link graph
// (graphology). Beyond `limit`, the most recently used memories are kept.
import type { Actor, AtlasLink, AtlasNode, AtlasResult } from '../../../shared/api';
import type { LinkType } from '../../../shared/schemas';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { parseTags, visibilityFilter, type MemoryRow } from './model';
import { distinctiveTerms, nameWords } from '../cognition/distinctive';
import { projectMeaning } from './projection';
import { readUseMany } from './state';

/** Rows per IN (…) list: well under SQLite's bound on host parameters. */
const CHUNK = 4000;

/**
 * The Atlas of a store. Louvain (graphology) is loaded by the first Atlas, not by the
 * engine's start: a daemon that never draws one does not hold it (about 0.5 MiB).
 */
export async function atlas(
  store: OpenStore,
  actor: Actor,
  limit: number,
  now: number,
): Promise<AtlasResult> {
  const { communities } = await import('./communities');
  const vis = visibilityFilter(actor);
  const where = `m.deleted_at IS NULL AND ${vis.sql}`;
  const total = (
    stmt(store.db, `SELECT COUNT(*) AS n FROM memory m WHERE ${where}`).get(...vis.params) as {
      n: number;
    }
  ).n;
  const rows = stmt(
    store.db,
    `SELECT m.rid, m.id, m.title, m.kind, m.pinned, m.trust, m.created_at,
        COALESCE((SELECT json_group_array(tag) FROM memory_tag t WHERE t.rid = m.rid), '[]') AS tags
       FROM memory m LEFT JOIN memory_state s ON s.rid = m.rid
      WHERE ${where}
      ORDER BY m.pinned DESC, COALESCE(s.last_access, m.created_at) DESC, m.rid DESC
      LIMIT ?`,
  ).all(...vis.params, limit) as (Pick<
    MemoryRow,
    'rid' | 'id' | 'title' | 'kind' | 'pinned' | 'trust' | 'created_at'
  > & { tags: string })[];

  const use = new Map<number, { activation: number | null; retrievability: number | null }>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    for (const [rid, u] of readUseMany(store.db, rows.slice(i, i + CHUNK), now)) use.set(rid, u);
  }

  const idOf = new Map(rows.map((r) => [r.rid, r.id]));
  const links: AtlasLink[] = [];
  for (const l of stmt(store.db, 'SELECT src, dst, type, weight FROM link').iterate() as Iterable<{
    src: number;
    dst: number;
    type: LinkType;
    weight: number;
  }>) {
    const from = idOf.get(l.src);
    const to = idOf.get(l.dst);
    if (from && to) links.push({ from, to, type: l.type, weight: l.weight });
  }

  const { community, count } = communities(
    rows.map((r) => r.id),
    links,
  );
  const degree = new Map<string, number>();
  for (const l of links) {
    degree.set(l.from, (degree.get(l.from) ?? 0) + 1);
    degree.set(l.to, (degree.get(l.to) ?? 0) + 1);
  }
  const meaning = projectMeaning(
    store,
    rows.map((r) => r.rid),
  );
  const nodes: AtlasNode[] = rows.map((r) => ({
    id: r.id,
    title: r.title,
    kind: r.kind,
    activation: use.get(r.rid)?.activation ?? null,
    retrievability: use.get(r.rid)?.retrievability ?? null,
    pinned: r.pinned === 1,
    trust: r.trust,
    tags: parseTags(r),
    community: community.get(r.id) ?? 0,
    degree: degree.get(r.id) ?? 0,
    ...(meaning.has(r.rid) ? { at: meaning.get(r.rid) as [number, number] } : {}),
  }));
  return {
    store: store.name,
    nodes,
    links,
    communities: count,
    community_names: communityNames(nodes),
    layout: meaning.size >= nodes.length / 2 && meaning.size > 0 ? 'meaning' : 'links',
    total,
    truncated: total > rows.length,
  };
}

/** Communities named on the map: at most this many, the biggest. */
const NAMED = 40;

/**
 * Each community of two or more memories named by the terms of its titles that are
 * frequent in it and rare on the rest of the map (class TF-IDF): what it is about, never a
 * batch tag or a file name every memory of an import shares.
 */
export function communityNames(nodes: readonly AtlasNode[]): Record<string, string> {
  const members = new Map<number, AtlasNode[]>();
  for (const n of nodes) {
    const list = members.get(n.community);
    if (list) list.push(n);
    else members.set(n.community, [n]);
  }
  const df = new Map<string, number>();
  for (const n of nodes) for (const w of nameWords(n.title)) df.set(w, (df.get(w) ?? 0) + 1);
  const out: Record<string, string> = {};
  const biggest = [...members]
    .filter(([, m]) => m.length >= 2)
    .sort((a, b) => b[1].length - a[1].length || a[0] - b[0])
    .slice(0, NAMED);
  for (const [id, list] of biggest) {
    const terms = distinctiveTerms(
      list.map((n) => ({ title: n.title, content: '' })),
      (w) => df.get(w) ?? 0,
      nodes.length,
      3,
    );
    if (terms.length) out[String(id)] = terms.join(' · ');
  }
  return out;
}
