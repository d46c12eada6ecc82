// Replay: memories a recall returned together (their accesses share one instant, the
// rehearsal flush) and used together at least twice get a `related` link. Links that
// exist already were strengthened at recall time. Only accesses after the last applied
// replay count, so a second cycle finds nothing new.
import type { DreamChange } from '../../../../shared/api';
import { stmt } from '../../store/statements';
import type { DreamPhase, PhaseContext } from '../types';
import { getWatermark, setWatermark } from './marks';

/** Co-uses before a pair is linked, and the weight of the new link. */
const MIN_CO_USES = 2;
const NEW_LINK_WEIGHT = 0.3;
/** A recall returns at most this many memories: bigger groups are batch writes, not uses. */
const MAX_GROUP = 20;

interface Pair {
  a: { rid: number; id: string };
  b: { rid: number; id: string };
  uses: number;
}

export const replay: DreamPhase<{ pairs: Pair[]; until: number }> = {
  name: 'replay',
  async plan(ctx: PhaseContext) {
    const db = ctx.store.db;
    const since = getWatermark(db, 'replay');
    const rows = stmt(
      db,
      `SELECT a.at, a.rid, m.id FROM access a JOIN memory m ON m.rid = a.rid
        WHERE a.at > ? AND a.at <= ? AND a.at <> m.created_at
          AND m.deleted_at IS NULL AND m.trust = 'trusted'
        ORDER BY a.at, a.rid`,
    ).all(since, ctx.now) as { at: number; rid: number; id: string }[];
    const groups = new Map<number, { rid: number; id: string }[]>();
    for (const r of rows) {
      const g = groups.get(r.at);
      if (g) {
        if (!g.some((x) => x.rid === r.rid)) g.push({ rid: r.rid, id: r.id });
      } else groups.set(r.at, [{ rid: r.rid, id: r.id }]);
    }
    const pairs = new Map<string, Pair>();
    let n = 0;
    for (const g of groups.values()) {
      if (++n % 200 === 0) await ctx.yield();
      if (g.length < 2 || g.length > MAX_GROUP) continue;
      for (let i = 0; i < g.length; i++)
        for (let j = i + 1; j < g.length; j++) {
          const [a, b] = [g[i], g[j]] as [Pair['a'], Pair['a']];
          const [lo, hi] = a.rid < b.rid ? [a, b] : [b, a];
          const key = `${lo.rid}:${hi.rid}`;
          const p = pairs.get(key);
          if (p) p.uses++;
          else pairs.set(key, { a: lo, b: hi, uses: 1 });
        }
    }
    const linked = stmt(
      db,
      'SELECT 1 FROM link WHERE (src = ? AND dst = ?) OR (src = ? AND dst = ?) LIMIT 1',
    );
    const chosen = [...pairs.values()]
      .filter((p) => p.uses >= MIN_CO_USES && !linked.get(p.a.rid, p.b.rid, p.b.rid, p.a.rid))
      .sort((x, y) => y.uses - x.uses || x.a.rid - y.a.rid || x.b.rid - y.b.rid);
    const changes: DreamChange[] = chosen.map((p) => ({
      kind: 'link',
      target: `${p.a.id}->${p.b.id}`,
      before: null,
      after: { type: 'related', weight: NEW_LINK_WEIGHT },
      note: `used together ${p.uses} times`,
    }));
    const until = rows.length ? (rows[rows.length - 1] as { at: number }).at : since;
    return {
      examined: pairs.size,
      changes,
      proposals: [],
      notes: [
        `${rows.length} uses since the last replay, ${pairs.size} pairs used together; a pair used together ${MIN_CO_USES}+ times without a link gets one.`,
      ],
      data: { pairs: chosen, until },
    };
  },
  apply(ctx, plan) {
    const db = ctx.store.db;
    const live = stmt(db, 'SELECT 1 FROM memory WHERE rid = ? AND deleted_at IS NULL');
    const insert = stmt(
      db,
      `INSERT INTO link (src, dst, type, weight, traversals, last_traversed, created_at)
       VALUES (?, ?, 'related', ?, ?, ?, ?) ON CONFLICT (src, dst, type) DO NOTHING`,
    );
    const done: DreamChange[] = [];
    plan.data.pairs.forEach((p, i) => {
      if (!live.get(p.a.rid) || !live.get(p.b.rid)) return;
      if (insert.run(p.a.rid, p.b.rid, NEW_LINK_WEIGHT, p.uses, ctx.now, ctx.now).changes > 0)
        done.push(plan.changes[i] as DreamChange);
    });
    setWatermark(db, 'replay', plan.data.until, ctx.now);
    return done;
  },
};
