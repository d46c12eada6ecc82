// Decay and prune: unused links fade (never below a floor, never removed); memories
// unused for a month lose salience, drifting toward at-risk; a memory unused for
// `prune_after_days`, rarely used and faded to the floor is forgotten — softly, so it
// can be restored. Pinned memories (and links touching them) are never touched, nor
// core-layer or procedural memories (procedures fade through skill competition).
import type { DreamChange } from '../../../../shared/api';
import { forgetMemory } from '../../memory/mutate';
import { stmt } from '../../store/statements';
import { DAY_MS, DREAM_ACTOR, type DreamPhase } from '../types';

const MIN_STEP = 0.01;
const LINK_FLOOR = 0.05;
const SALIENCE_FLOOR = 0.05;
/** A memory must be unused this long before its salience starts to fade. */
const IDLE_DAYS = 30;

type Op =
  | { kind: 'link'; src: number; dst: number; type: string; from: number; to: number }
  | { kind: 'salience'; rid: number; from: number; to: number }
  | { kind: 'forget'; id: string; version: number };

export const decay: DreamPhase<Op[]> = {
  name: 'decay',
  async plan(ctx) {
    const db = ctx.store.db;
    const half = ctx.config.fade_half_life_days;
    const fade = (value: number, since: number, floor: number) =>
      Math.max(
        floor,
        Math.round(value * 0.5 ** (Math.max(0, ctx.now - since) / DAY_MS / half) * 1e4) / 1e4,
      );
    const ops: Op[] = [];
    const changes: DreamChange[] = [];

    const links = stmt(
      db,
      `SELECT l.src, l.dst, l.type, l.weight, s.id AS src_id, d.id AS dst_id,
          MAX(COALESCE(l.last_traversed, l.created_at), l.created_at, COALESCE(l.faded_at, 0)) AS since
         FROM link l JOIN memory s ON s.rid = l.src JOIN memory d ON d.rid = l.dst
        WHERE s.pinned = 0 AND d.pinned = 0 AND l.weight > ?
        ORDER BY l.src, l.dst, l.type`,
    ).all(LINK_FLOOR) as {
      src: number;
      dst: number;
      type: string;
      weight: number;
      src_id: string;
      dst_id: string;
      since: number;
    }[];
    for (let i = 0; i < links.length; i++) {
      if (i % 2000 === 1999) await ctx.yield();
      const l = links[i] as (typeof links)[number];
      const to = fade(l.weight, l.since, LINK_FLOOR);
      if (l.weight - to < MIN_STEP) continue;
      ops.push({ kind: 'link', src: l.src, dst: l.dst, type: l.type, from: l.weight, to });
      changes.push({
        kind: 'link.weight',
        target: `${l.src_id}->${l.dst_id}`,
        before: l.weight,
        after: to,
        note: l.type,
      });
    }

    const mems = stmt(
      db,
      `SELECT m.rid, m.id, m.salience, m.version, COALESCE(s.last_access, m.created_at) AS used,
          COALESCE(s.access_count, 0) AS uses, d.faded_at
         FROM memory m LEFT JOIN memory_state s ON s.rid = m.rid LEFT JOIN dream_mark d ON d.rid = m.rid
        WHERE m.deleted_at IS NULL AND m.pinned = 0 AND m.layer <> 'core' AND m.kind <> 'procedural'
          AND COALESCE(s.last_access, m.created_at) < ?
        ORDER BY m.rid`,
    ).all(ctx.now - IDLE_DAYS * DAY_MS) as {
      rid: number;
      id: string;
      salience: number;
      version: number;
      used: number;
      uses: number;
      faded_at: number | null;
    }[];
    let pruned = 0;
    for (let i = 0; i < mems.length; i++) {
      if (i % 2000 === 1999) await ctx.yield();
      const m = mems[i] as (typeof mems)[number];
      const since = Math.max(m.used + IDLE_DAYS * DAY_MS, m.faded_at ?? 0);
      const to = fade(m.salience, since, SALIENCE_FLOOR);
      if (m.salience - to >= MIN_STEP) {
        ops.push({ kind: 'salience', rid: m.rid, from: m.salience, to });
        changes.push({
          kind: 'salience',
          target: m.id,
          before: m.salience,
          after: to,
          note: `unused since ${new Date(m.used).toISOString().slice(0, 10)}`,
        });
      }
      if (
        to <= SALIENCE_FLOOR + 1e-9 &&
        m.uses <= 2 &&
        ctx.now - m.used >= ctx.config.prune_after_days * DAY_MS
      ) {
        pruned++;
        ops.push({ kind: 'forget', id: m.id, version: m.version });
        changes.push({
          kind: 'forget',
          target: m.id,
          before: 'live',
          after: 'forgotten',
          note: `unused for ${Math.floor((ctx.now - m.used) / DAY_MS)} days; restorable`,
        });
      }
    }
    return {
      examined: links.length + mems.length,
      changes,
      proposals: [],
      notes: [
        `${links.length} links above the floor, ${mems.length} memories unused for ${IDLE_DAYS}+ days (pinned, core and procedural memories are left alone); half-life ${half} days.`,
        ...(pruned
          ? [`${pruned} memories forgotten (soft: restore them from the Memories view).`]
          : []),
      ],
      data: ops,
    };
  },
  apply(ctx, plan) {
    const db = ctx.store.db;
    const link = stmt(
      db,
      'UPDATE link SET weight = ?, faded_at = ? WHERE src = ? AND dst = ? AND type = ? AND weight = ?',
    );
    const sal = stmt(
      db,
      'UPDATE memory SET salience = ? WHERE rid = ? AND salience = ? AND pinned = 0 AND deleted_at IS NULL',
    );
    const mark = stmt(
      db,
      `INSERT INTO dream_mark (rid, faded_at) VALUES (?, ?)
       ON CONFLICT (rid) DO UPDATE SET faded_at = excluded.faded_at`,
    );
    const current = stmt(db, 'SELECT version, pinned, deleted_at FROM memory WHERE id = ?');
    const done: DreamChange[] = [];
    plan.data.forEach((op, i) => {
      let ok = false;
      if (op.kind === 'link')
        ok = link.run(op.to, ctx.now, op.src, op.dst, op.type, op.from).changes > 0;
      else if (op.kind === 'salience') {
        ok = sal.run(op.to, op.rid, op.from).changes > 0;
        if (ok) mark.run(op.rid, ctx.now);
      } else {
        const row = current.get(op.id) as
          { version: number; pinned: number; deleted_at: number | null } | undefined;
        if (row && row.version === op.version && row.pinned === 0 && row.deleted_at === null) {
          forgetMemory(ctx.store, DREAM_ACTOR, op.id, ctx.now);
          ok = true;
        }
      }
      if (ok) done.push(plan.changes[i] as DreamChange);
    });
    return done;
  },
};
