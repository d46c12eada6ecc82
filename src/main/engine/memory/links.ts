// Typed, weighted links between memories, and the walk over them (neighbours up to a
// few hops). Only links between memories the caller can see are created or followed.
import type { Actor, LinkResult, NeighborsResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { LinkType } from '../../../shared/schemas';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { actorName, MEMORY_COLUMNS, toSummary, visibilityFilter, type MemoryRow } from './model';
import { LINK_SELECT, requireRow, toLinkView } from './read';

export function createLink(
  store: OpenStore,
  actor: Actor,
  args: { from: string; to: string; type: LinkType; weight: number },
  now: number,
): LinkResult {
  const src = requireRow(store, actor, args.from);
  const dst = requireRow(store, actor, args.to);
  const existing = stmt(
    store.db,
    'SELECT weight FROM link WHERE src = ? AND dst = ? AND type = ?',
  ).get(src.rid, dst.rid, args.type) as { weight: number } | undefined;
  const change = existing ? 'updated' : 'created';
  store.db.transaction(() => {
    stmt(
      store.db,
      `INSERT INTO link (src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (src, dst, type) DO UPDATE SET weight = excluded.weight`,
    ).run(src.rid, dst.rid, args.type, args.weight, now);
    store.audit.append(
      {
        actor: actorName(actor),
        action: existing ? 'link.update' : 'link.create',
        target: `${args.from}->${args.to}`,
        data: {
          type: args.type,
          weight: args.weight,
          ...(existing ? { old_weight: existing.weight } : {}),
        },
      },
      now,
    );
  })();
  return { from: args.from, to: args.to, type: args.type, weight: args.weight, change };
}

export function removeLink(
  store: OpenStore,
  actor: Actor,
  args: { from: string; to: string; type?: LinkType | undefined },
  now: number,
): LinkResult & { count: number } {
  const src = requireRow(store, actor, args.from, { deleted: 'include' });
  const dst = requireRow(store, actor, args.to, { deleted: 'include' });
  const typeSql = args.type ? 'AND type = ?' : '';
  const params: unknown[] = [src.rid, dst.rid, ...(args.type ? [args.type] : [])];
  const removed = stmt(
    store.db,
    `SELECT type, weight FROM link WHERE src = ? AND dst = ? ${typeSql}`,
  ).all(...params) as { type: LinkType; weight: number }[];
  if (removed.length === 0) {
    throw new LociError(
      'not-found',
      `No ${args.type ? `"${args.type}" ` : ''}link from ${args.from} to ${args.to}.`,
      { from: args.from, to: args.to },
    );
  }
  store.db.transaction(() => {
    stmt(store.db, `DELETE FROM link WHERE src = ? AND dst = ? ${typeSql}`).run(...params);
    for (const link of removed) {
      store.audit.append(
        {
          actor: actorName(actor),
          action: 'link.remove',
          target: `${args.from}->${args.to}`,
          data: { type: link.type, weight: link.weight },
        },
        now,
      );
    }
  })();
  const first = removed[0] as { type: LinkType; weight: number };
  return {
    from: args.from,
    to: args.to,
    type: first.type,
    weight: first.weight,
    change: 'removed',
    count: removed.length,
  };
}

/**
 * Breadth-first walk from a memory over links in both directions, up to `depth` hops
 * and `limit` memories. Memories the caller cannot see, and forgotten ones, are
 * neither returned nor walked through.
 */
export function neighbors(
  store: OpenStore,
  actor: Actor,
  args: { id: string; depth: number; types?: LinkType[] | undefined; limit: number },
): NeighborsResult {
  const root = requireRow(store, actor, args.id);
  const vis = visibilityFilter(actor);
  const typeSql =
    args.types && args.types.length > 0
      ? `AND l.type IN (${args.types.map(() => '?').join(', ')})`
      : '';
  const typeParams = args.types ?? [];
  const depthOf = new Map<number, number>([[root.rid, 0]]);
  const parentOf = new Map<number, number>();
  let frontier = [root.rid];
  let truncated = false;
  for (let depth = 1; depth <= args.depth && frontier.length > 0 && !truncated; depth++) {
    const marks = frontier.map(() => '?').join(', ');
    const next = stmt(
      store.db,
      `SELECT m.rid AS rid, CASE WHEN l.src IN (${marks}) THEN l.src ELSE l.dst END AS via FROM link l
         JOIN memory m ON m.rid = CASE WHEN l.src IN (${marks}) THEN l.dst ELSE l.src END
        WHERE (l.src IN (${marks}) OR l.dst IN (${marks})) ${typeSql}
          AND m.deleted_at IS NULL AND ${vis.sql}
        ORDER BY l.weight DESC`,
    ).all(...frontier, ...frontier, ...frontier, ...frontier, ...typeParams, ...vis.params) as {
      rid: number;
      via: number;
    }[];
    frontier = [];
    for (const { rid, via } of next) {
      if (depthOf.has(rid)) continue;
      parentOf.set(rid, via);
      if (depthOf.size - 1 >= args.limit) {
        truncated = true;
        break;
      }
      depthOf.set(rid, depth);
      frontier.push(rid);
    }
  }
  const rids = [...depthOf.keys()];
  const marks = rids.map(() => '?').join(', ');
  const rows = stmt(
    store.db,
    `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE m.rid IN (${marks})`,
  ).all(...rids) as MemoryRow[];
  const byRid = new Map(rows.map((r) => [r.rid, r]));
  const pathTo = (rid: number): string[] => {
    const path: string[] = [];
    for (let at: number | undefined = rid; at !== undefined; at = parentOf.get(at)) {
      path.unshift((byRid.get(at) as MemoryRow).id);
    }
    return path;
  };
  const nodes = rids
    .filter((rid) => rid !== root.rid)
    .map((rid) => ({
      ...toSummary(byRid.get(rid) as MemoryRow),
      depth: depthOf.get(rid) as number,
      path: pathTo(rid),
    }));
  const edges = stmt(
    store.db,
    `${LINK_SELECT} WHERE l.src IN (${marks}) AND l.dst IN (${marks}) ${typeSql}`,
  ).all(...rids, ...rids, ...typeParams) as Parameters<typeof toLinkView>[0][];
  return { root: args.id, nodes, edges: edges.map(toLinkView), truncated };
}
