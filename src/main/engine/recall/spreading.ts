// Spreading activation (DESIGN.md §6, step 3): candidates pass activation to the
// memories they are linked to — seed score × link weight × decay per hop, at most
// `hops` hops and `maxNodes` memories in all — so a memory that is not itself a match
// but is tied to several matches can surface. Only memories the caller may see (and
// that pass the recall filters) are reached or walked through.
import type { Db } from '../store/database';
import { stmt } from '../store/statements';

export interface SpreadOptions {
  hops: number;
  decay: number;
  maxNodes: number;
}

/**
 * Returns the activation each reached memory receives from the others (a seed can
 * receive from another seed). The best path counts, not the sum, so a hub linked to
 * everything cannot run away with the ranking.
 */
export function spreadActivation(
  db: Db,
  seeds: { rid: number; score: number }[],
  options: SpreadOptions,
  filter: { sql: string; params: unknown[] },
  /** Filled with the hop at which each reached memory got its activation, when given. */
  hopOf?: Map<number, number>,
): Map<number, number> {
  const received = new Map<number, number>();
  if (options.hops === 0 || seeds.length === 0) return received;
  const visited = new Set(seeds.map((s) => s.rid));
  // Each frontier entry: where the activation is, how much, and which seed it came from.
  let frontier = seeds.map((s) => ({ rid: s.rid, energy: s.score, origin: s.rid }));
  for (let hop = 1; hop <= options.hops && frontier.length > 0; hop++) {
    const rids = [...new Set(frontier.map((f) => f.rid))];
    const marks = rids.map(() => '?').join(', ');
    const edges = stmt(
      db,
      `SELECT l.src AS src, l.dst AS dst, l.weight AS weight FROM link l
         JOIN memory m ON m.rid = CASE WHEN l.src IN (${marks}) THEN l.dst ELSE l.src END
        WHERE (l.src IN (${marks}) OR l.dst IN (${marks})) AND ${filter.sql}`,
    ).all(...rids, ...rids, ...rids, ...filter.params) as {
      src: number;
      dst: number;
      weight: number;
    }[];
    const next: typeof frontier = [];
    for (const f of frontier) {
      for (const e of edges) {
        const other = e.src === f.rid ? e.dst : e.dst === f.rid ? e.src : null;
        if (other === null || other === f.origin) continue;
        if (!visited.has(other) && visited.size >= options.maxNodes) continue;
        const energy = f.energy * e.weight * options.decay;
        if (energy <= (received.get(other) ?? 0)) continue;
        received.set(other, energy);
        hopOf?.set(other, hop);
        if (!visited.has(other)) visited.add(other);
        next.push({ rid: other, energy, origin: f.origin });
      }
    }
    frontier = next;
  }
  return received;
}
