// Affect: arousal cools with time (half-life from the configuration). Each memory
// cools by the time since it last cooled (or was written), so cycles compound exactly
// like one long cooling and a cycle right after another changes nothing. Pinned
// memories are never touched.
import type { DreamChange } from '../../../../shared/api';
import { stmt } from '../../store/statements';
import { DAY_MS, type DreamPhase } from '../types';

const MIN_STEP = 0.01;

interface Cool {
  rid: number;
  from: number;
  to: number;
}

export const affect: DreamPhase<Cool[]> = {
  name: 'affect',
  async plan(ctx) {
    const rows = stmt(
      ctx.store.db,
      `SELECT m.rid, m.id, m.arousal, COALESCE(d.cooled_at, m.created_at) AS since
         FROM memory m LEFT JOIN dream_mark d ON d.rid = m.rid
        WHERE m.deleted_at IS NULL AND m.pinned = 0 AND m.arousal > 0
        ORDER BY m.rid`,
    ).all() as { rid: number; id: string; arousal: number; since: number }[];
    const cools: Cool[] = [];
    const changes: DreamChange[] = [];
    for (let i = 0; i < rows.length; i++) {
      if (i % 2000 === 1999) {
        ctx.progress(i, rows.length);
        await ctx.yield();
      }
      const r = rows[i] as (typeof rows)[number];
      const days = Math.max(0, (ctx.now - r.since) / DAY_MS);
      const to =
        Math.round(r.arousal * 0.5 ** (days / ctx.config.arousal_half_life_days) * 1e4) / 1e4;
      if (r.arousal - to < MIN_STEP) continue;
      cools.push({ rid: r.rid, from: r.arousal, to });
      changes.push({ kind: 'arousal', target: r.id, before: r.arousal, after: to });
    }
    return {
      examined: rows.length,
      changes,
      proposals: [],
      notes: [
        `Arousal halves every ${ctx.config.arousal_half_life_days} days; pinned memories keep theirs.`,
      ],
      data: cools,
    };
  },
  apply(ctx, plan) {
    const db = ctx.store.db;
    const set = stmt(
      db,
      'UPDATE memory SET arousal = ? WHERE rid = ? AND arousal = ? AND pinned = 0 AND deleted_at IS NULL',
    );
    const mark = stmt(
      db,
      `INSERT INTO dream_mark (rid, cooled_at) VALUES (?, ?)
       ON CONFLICT (rid) DO UPDATE SET cooled_at = excluded.cooled_at`,
    );
    const done: DreamChange[] = [];
    plan.data.forEach((c, i) => {
      if (set.run(c.to, c.rid, c.from).changes === 0) return;
      mark.run(c.rid, ctx.now);
      done.push(plan.changes[i] as DreamChange);
    });
    return done;
  },
};
