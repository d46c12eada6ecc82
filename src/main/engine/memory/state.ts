// Use history of memories: the newest accesses (ACT-R) and the FSRS state. Every
// recall is a rehearsal of what it returned (DESIGN.md §6, step 7).
import type { AccessView, FsrsView } from '../../../shared/api';
import { baseLevelActivation } from '../cognition/actr';
import { FSRS_STATE_NAMES, rehearse, retrievability, type FsrsState } from '../cognition/fsrs';
import type { Db } from '../store/database';
import { stmt } from '../store/statements';
import { iso, isoOrNull } from './model';

/** Accesses kept per memory (older ones survive only as a count). */
export const ACCESS_KEEP = 50;

/** A row of memory_state: the FSRS state (its `state` stored as `fsrs_state`) and the use counts. */
interface StateRow extends Omit<FsrsState, 'state'> {
  rid: number;
  access_count: number;
  last_access: number | null;
  fsrs_state: number;
}

/** The FSRS fields stored under their own names (`state` is stored as `fsrs_state`). */
const FSRS_FIELDS = [
  'stability',
  'difficulty',
  'elapsed_days',
  'scheduled_days',
  'learning_steps',
  'reps',
  'lapses',
  'due',
  'last_review',
] as const;
type FsrsFields = Pick<FsrsState, (typeof FSRS_FIELDS)[number]>;
/** The columns of memory_state that hold an FSRS state. */
type FsrsColumns = FsrsFields & { fsrs_state: number };

const fsrsFields = (from: FsrsFields): FsrsFields =>
  Object.fromEntries(FSRS_FIELDS.map((k) => [k, from[k]])) as unknown as FsrsFields;

function toFsrs(row: StateRow): FsrsState {
  return { state: row.fsrs_state, ...fsrsFields(row) };
}

function fsrsParams(s: FsrsState): FsrsColumns {
  return { fsrs_state: s.state, ...fsrsFields(s) };
}

const INSERT_STATE_SQL = `INSERT INTO memory_state (rid, access_count, last_access, fsrs_state,
    ${FSRS_FIELDS.join(', ')}) VALUES (?, 1, ?, ?, ${FSRS_FIELDS.map(() => '?').join(', ')})`;

/** A batch of new memories shares one first review: its columns are computed once. */
const firstReviewValues = new WeakMap<FsrsState, unknown[]>();

/** The state of a new memory: written at `now`, which counts as one access. */
export function insertState(db: Db, rid: number, fsrs: FsrsState, now: number): void {
  let values = firstReviewValues.get(fsrs);
  if (!values) {
    const params = fsrsParams(fsrs);
    values = [params.fsrs_state, ...FSRS_FIELDS.map((k) => params[k])];
    firstReviewValues.set(fsrs, values);
  }
  // Bound by position, in the order of the columns (binding names costs more).
  stmt(db, INSERT_STATE_SQL).run(rid, now, ...values);
  stmt(db, 'INSERT INTO access (rid, at) VALUES (?, ?)').run(rid, now);
}

/**
 * Records one use of each memory: an access (keeping the newest ACCESS_KEEP) and a
 * Good FSRS review. Call inside a transaction.
 */
export function rehearseMemories(db: Db, rids: readonly number[], now: number): void {
  const read = stmt(db, 'SELECT * FROM memory_state WHERE rid = ?');
  const write = stmt(
    db,
    `UPDATE memory_state SET access_count = access_count + 1, last_access = @now,
        fsrs_state = @fsrs_state, stability = @stability, difficulty = @difficulty,
        elapsed_days = @elapsed_days, scheduled_days = @scheduled_days,
        learning_steps = @learning_steps, reps = @reps, lapses = @lapses, due = @due,
        last_review = @last_review
      WHERE rid = @rid`,
  );
  const addAccess = stmt(db, 'INSERT INTO access (rid, at) VALUES (?, ?)');
  const trim = stmt(
    db,
    `DELETE FROM access WHERE rid = ? AND rowid NOT IN
       (SELECT rowid FROM access WHERE rid = ? ORDER BY at DESC, rowid DESC LIMIT ${ACCESS_KEEP})`,
  );
  for (const rid of rids) {
    const row = read.get(rid) as StateRow | undefined;
    if (!row) continue; // erased between the recall and this flush
    write.run({ rid, now, ...fsrsParams(rehearse(toFsrs(row), now)) });
    addAccess.run(rid, now);
    if (row.access_count + 1 > ACCESS_KEEP) trim.run(rid, rid);
  }
}

export interface UseView {
  access: AccessView;
  fsrs: FsrsView;
  activation: number | null;
  retrievability: number | null;
}

export function readUse(db: Db, rid: number, createdAt: number, now: number): UseView {
  const row = stmt(db, 'SELECT * FROM memory_state WHERE rid = ?').get(rid) as StateRow | undefined;
  const times = (
    stmt(db, 'SELECT at FROM access WHERE rid = ? ORDER BY at DESC, rowid DESC').all(rid) as {
      at: number;
    }[]
  ).map((r) => r.at);
  const fsrs = row ? toFsrs(row) : null;
  return {
    access: {
      count: row?.access_count ?? times.length,
      last_at: isoOrNull(row?.last_access ?? null),
      recent: times.map(iso),
    },
    fsrs: {
      state: FSRS_STATE_NAMES[fsrs?.state ?? 0],
      stability: fsrs?.stability ?? 0,
      difficulty: fsrs?.difficulty ?? 0,
      reps: fsrs?.reps ?? 0,
      lapses: fsrs?.lapses ?? 0,
      last_review: isoOrNull(fsrs?.last_review ?? null),
      due: iso(fsrs?.due ?? createdAt),
    },
    activation: baseLevelActivation({
      accesses: times,
      totalCount: row?.access_count ?? times.length,
      createdAt,
      now,
    }),
    retrievability: fsrs ? retrievability(fsrs, now) : null,
  };
}

/** Activation and retrievability of many memories at once (for ranking). */
export function readUseMany(
  db: Db,
  rows: readonly { rid: number; created_at: number }[],
  now: number,
): Map<number, { activation: number | null; retrievability: number | null }> {
  const out = new Map<number, { activation: number | null; retrievability: number | null }>();
  if (rows.length === 0) return out;
  const rids = rows.map((r) => r.rid);
  const marks = rids.map(() => '?').join(', ');
  const states = new Map(
    (stmt(db, `SELECT * FROM memory_state WHERE rid IN (${marks})`).all(...rids) as StateRow[]).map(
      (s) => [s.rid, s],
    ),
  );
  const accesses = new Map<number, number[]>();
  for (const a of stmt(db, `SELECT rid, at FROM access WHERE rid IN (${marks})`).all(...rids) as {
    rid: number;
    at: number;
  }[]) {
    const list = accesses.get(a.rid);
    if (list) list.push(a.at);
    else accesses.set(a.rid, [a.at]);
  }
  for (const row of rows) {
    const state = states.get(row.rid);
    const times = accesses.get(row.rid) ?? [];
    out.set(row.rid, {
      activation: baseLevelActivation({
        accesses: times,
        totalCount: state?.access_count ?? times.length,
        createdAt: row.created_at,
        now,
      }),
      retrievability: state ? retrievability(toFsrs(state), now) : null,
    });
  }
  return out;
}

/**
 * Co-recall: memories returned together strengthen the links that already join them
 * (+0.05, at most 1), bounded to the pairs given. New links are left to dreams.
 */
export function strengthenCoRecalled(
  db: Db,
  pairs: readonly [number, number][],
  now: number,
): void {
  const bump = stmt(
    db,
    `UPDATE link SET weight = MIN(1.0, weight + 0.05), traversals = traversals + 1, last_traversed = ?
      WHERE (src = ? AND dst = ?) OR (src = ? AND dst = ?)`,
  );
  for (const [a, b] of pairs) bump.run(now, a, b, b, a);
}
