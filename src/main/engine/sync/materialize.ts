// Other devices' operations into this replica. Each operation is checked (its clock, its
// device, its body), kept in the log once (a replayed or duplicated batch changes
// nothing), stamped into the audit chain with its origin, and then every entity it
// touched is written from the fold of all the operations held for it (ops.ts) — so the
// result never depends on the order in which operations arrive.
import { speakersChanged } from '../recall/conversation';
import { ftsInsert, ftsRemove, ftsReplace } from '../store/ftsIndex';
import type { Db } from '../store/database';
import type { AuditChain } from '../audit/chain';
import { stmt } from '../store/statements';
import { contentHash } from '../write/gate';
import { newFsrsState, rehearse } from '../cognition/fsrs';
import { insertState } from '../memory/state';
import type { CreatedMemory } from '../memory/remember';
import type { MemoryRow } from '../memory/model';
import { capture } from './capture';
import { hlcWall, isHlc, parseHlc, type HlcClock } from './hlc';

/** An operation stamped further ahead than this is refused (see check). */
const MAX_AHEAD_MS = 7 * 86_400_000;
import {
  entityOf,
  foldConflict,
  foldLink,
  foldMemory,
  OpBodySchema,
  sameValue,
  SNAPSHOT_ONLY,
  type MemFields,
  type OpBody,
} from './ops';
import {
  rebuildVersions,
  entitiesMentioning,
  entityOps,
  fieldsOf,
  memoryRow,
  ridOf,
  travels,
  writeState,
} from './rows';
import type { SyncProblem, WireOp } from './wire';

type LinkChange = 'created' | 'updated' | 'removed';

export interface Applied {
  /** Operations new to this replica. */
  applied: number;
  /** Already held, this device's own, or about an erased memory. */
  skipped: number;
  problems: SyncProblem[];
  created: CreatedMemory[];
  changed: { updated: string[]; forgotten: string[]; restored: string[]; erased: string[] };
  links: { from: string; to: string; change: LinkChange }[];
  /** Changes of the same field by two devices, decided by the merge rules. */
  merged: { id: string; fields: string[]; winner: string; loser: string }[];
}

export interface ReceiveOptions {
  db: Db;
  audit: AuditChain;
  clock: HlcClock;
  now: number;
  /** Where the operations came from (the hub's URL without its password, the folder). */
  origin: string;
}

/** Receives one batch in one transaction. */
export function receive(ops: readonly WireOp[], o: ReceiveOptions): Applied {
  const { db, clock } = o;
  const out: Applied = {
    applied: 0,
    skipped: 0,
    problems: [],
    created: [],
    changed: { updated: [], forgotten: [], restored: [], erased: [] },
    links: [],
    merged: [],
  };
  const has = stmt(db, 'SELECT 1 FROM sync_op WHERE h = ?');
  const erased = stmt(db, 'SELECT 1 FROM sync_tombstone WHERE id = ?');
  const insert = stmt(
    db,
    `INSERT INTO sync_op (h, d, e, r1, r2, x, b, local, pushed, received_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, 1, ?)`,
  );
  db.transaction(() => {
    // Local writes made while this batch was on its way (a cycle awaits the network) go
    // into the log first, so the fold below weighs them instead of writing over them.
    capture(db, clock, o.now);
    const before = (
      db.prepare('SELECT COALESCE(MAX(seq), 0) AS s FROM sync_dirty').get() as {
        s: number;
      }
    ).s;
    const memories = new Set<string>();
    const withdrawn = new Set<string>();
    const others = new Set<string>();
    for (const w of ops) {
      const checked = check(w, o.now);
      if ('problem' in checked) {
        out.problems.push(checked.problem);
        continue;
      }
      const b = checked.body;
      const { e, r } = entityOf(b);
      if (has.get(w.h) || w.d === clock.device) {
        out.skipped++;
        continue;
      }
      const tombstone = b.k === 'gone' && b.why === 'erased';
      if (!tombstone && r.some((id) => erased.get(id))) {
        out.skipped++;
        continue;
      }
      insert.run(w.h, w.d, e, r[0], r[1] ?? null, b.k === 'gone' ? 1 : 0, JSON.stringify(b), o.now);
      clock.receive(w.h);
      o.audit.append(
        {
          actor: 'sync',
          action: 'sync.apply',
          target: r[0] ?? null,
          data: {
            op: w.h,
            device: w.d,
            by: b.a,
            kind: b.k,
            ...(b.k === 'mem' ? { fields: Object.keys(b.f).sort() } : {}),
            ...(b.k === 'gone' ? { why: b.why } : {}),
            origin: o.origin,
          },
        },
        o.now,
      );
      out.applied++;
      if (b.k === 'mem' || b.k === 'gone') memories.add(b.id);
      else others.add(e);
      if (b.k === 'gone') withdrawn.add(b.id);
    }
    for (const id of memories) {
      const presence = materializeMemory(db, id, o, out);
      // A withdrawal cuts what mentions the memory even when a later snapshot (it was
      // shared again) keeps it here.
      if (presence || withdrawn.has(id)) for (const e of entitiesMentioning(db, id)) others.add(e);
    }
    for (const e of others) materializeOther(db, e, out);
    // What the writes above made the triggers note is already in the log.
    stmt(db, 'DELETE FROM sync_dirty WHERE seq > ?').run(before);
    writeState(db, 'hlc', clock.current());
  })();
  return out;
}

type Checked = { body: OpBody } | { problem: SyncProblem };

function check(w: WireOp, now: number): Checked {
  const where = `operation ${String(w?.h).slice(0, 60)}`;
  const bad = (message: string): Checked => ({
    problem: {
      where,
      message,
      fix: 'Nothing to do here: the operation was skipped and the others applied. If it keeps coming, run `loci sync status` on the device that wrote it.',
    },
  });
  if (typeof w?.h !== 'string' || !isHlc(w.h))
    return bad('its clock is not a hybrid logical clock');
  if (parseHlc(w.h).device !== w.d) return bad(`its clock names another device than ${w.d}`);
  // Hours of skew are a clock set wrong, and merge by their clock; a week is not a clock
  // but a forged or broken row, which would drag every clock after it into the future.
  if (hlcWall(w.h) > now + MAX_AHEAD_MS) {
    return bad(
      `its clock is ${Math.round((hlcWall(w.h) - now) / 86_400_000)} days ahead of this machine's; check the clock of device ${w.d}`,
    );
  }
  const parsed = OpBodySchema.safeParse(w.b);
  if (!parsed.success) {
    return bad(`its body is not an operation Loci knows: ${parsed.error.issues[0]?.message ?? ''}`);
  }
  const { e, r } = entityOf(parsed.data);
  if (w.e !== e || JSON.stringify(w.r) !== JSON.stringify(r)) {
    return bad('what it says it is about does not match its body');
  }
  if ((w.x === true) !== (parsed.data.k === 'gone'))
    return bad('its tombstone flag does not match its body');
  return { body: parsed.data };
}

const DEFAULTS: Omit<MemFields, 'title' | 'content' | 'kind' | 'source' | 'created_at'> = {
  layer: 'working',
  evidence: [],
  tags: [],
  pinned: false,
  valid_from: null,
  valid_to: null,
  occurred_at: null,
  session: null,
  speaker: null,
  forgotten: null,
  salience: 0.5,
  valence: 0,
  arousal: 0,
};

/** Writes one memory from its fold; true when it appeared or disappeared here. */
function materializeMemory(db: Db, id: string, o: ReceiveOptions, out: Applied): boolean {
  const fold = foldMemory(entityOps(db, `m:${id}`));
  const row = memoryRow(db, id);
  if (fold.erased) {
    const stone = stmt(
      db,
      `SELECT h FROM sync_op WHERE e = ? AND x = 1 AND json_extract(b, '$.why') = 'erased' ORDER BY h LIMIT 1`,
    ).get(`m:${id}`) as { h: string };
    stmt(db, 'INSERT OR IGNORE INTO sync_tombstone (id, h, at) VALUES (?, ?, ?)').run(
      id,
      stone.h,
      o.now,
    );
    // This device changed the memory after the erase's clock (its clock runs ahead, or it
    // had not heard yet) and may have sent that already: a tombstone of its own, later
    // than its changes, has the hub and the folders purge them too.
    const late = stmt(
      db,
      'SELECT 1 FROM sync_op WHERE (r1 = ? OR r2 = ?) AND local = 1 AND x = 0 AND h > ?',
    ).get(id, id, stone.h);
    let keep = stone.h;
    if (late) {
      keep = o.clock.tick();
      const body = { k: 'gone', id, why: 'erased', a: 'sync' };
      stmt(
        db,
        `INSERT INTO sync_op (h, d, e, r1, r2, x, b, local, pushed, received_at)
         VALUES (?, ?, ?, ?, NULL, 1, ?, 1, 0, ?)`,
      ).run(keep, o.clock.device, `m:${id}`, id, JSON.stringify(body), o.now);
    }
    // The tombstone carries no content, and neither does this log any more.
    stmt(db, 'DELETE FROM sync_op WHERE (r1 = ? OR r2 = ?) AND h NOT IN (?, ?)').run(
      id,
      id,
      stone.h,
      keep,
    );
    if (row) {
      eraseLocal(db, row);
      out.changed.erased.push(id);
      return true;
    }
    return false;
  }
  if (!fold.present) {
    // Withdrawn by its device (made private there, or quarantined): gone from the others,
    // and so is what this log held of it.
    const withdrawn = withdrawnAt(db, id);
    if (withdrawn !== '') {
      stmt(db, 'DELETE FROM sync_op WHERE (r1 = ? OR r2 = ?) AND h < ?').run(id, id, withdrawn);
    }
    if (row && travels(row)) {
      eraseLocal(db, row);
      out.changed.erased.push(id);
      return true;
    }
    return false;
  }
  // This device's own private or quarantined copy stays as it is.
  if (row && !travels(row)) return false;
  const f = { ...DEFAULTS, ...fold.fields } as MemFields;
  const tags = [...new Set(f.tags)].sort();
  if (!row) {
    const info = stmt(
      db,
      `INSERT INTO memory (id, title, content, kind, layer, source, evidence, trust, visibility,
          salience, valence, arousal, valid_from, valid_to, created_at, updated_at, version, pinned,
          deleted_at, content_hash, occurred_at, session, speaker)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'trusted', 'shared', ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      f.title,
      f.content,
      f.kind,
      f.layer,
      f.source,
      JSON.stringify(f.evidence),
      f.salience,
      f.valence,
      f.arousal,
      f.valid_from,
      validTo(f),
      f.created_at,
      Math.max(fold.updated_at, f.created_at),
      f.pinned ? 1 : 0,
      f.forgotten,
      contentHash(f.content),
      f.occurred_at,
      f.session,
      f.speaker,
    );
    const rid = Number(info.lastInsertRowid);
    const addTag = stmt(db, 'INSERT OR IGNORE INTO memory_tag (rid, tag) VALUES (?, ?)');
    for (const t of tags) addTag.run(rid, t);
    if (f.forgotten === null) ftsInsert(db, rid, { title: f.title, content: f.content, tags });
    insertState(db, rid, rehearse(newFsrsState(o.now), o.now), o.now);
    if (f.speaker !== null) speakersChanged(db);
    if (fold.versions.length > 0) rebuildVersions(db, rid, fold);
    if (f.forgotten === null) out.created.push({ id, rid, title: f.title, content: f.content });
    return true;
  }
  const was = fieldsOf(row);
  // A snapshot's salience, affect and creation time seed a new replica; this device's own
  // (its dreams fade them) are not overwritten afterwards.
  for (const k of SNAPSHOT_ONLY) (f as Record<string, unknown>)[k] = was[k];
  const changed = (Object.keys(f) as (keyof MemFields)[]).filter(
    (k) => !sameValue(was[k], k === 'tags' ? tags : f[k]),
  );
  if (changed.length > 0) {
    stmt(
      db,
      `UPDATE memory SET title = ?, content = ?, kind = ?, layer = ?, source = ?, evidence = ?,
          salience = ?, valence = ?, arousal = ?, valid_from = ?, valid_to = ?, created_at = ?,
          updated_at = ?, pinned = ?, deleted_at = ?, content_hash = ?, occurred_at = ?,
          session = ?, speaker = ?
        WHERE rid = ?`,
    ).run(
      f.title,
      f.content,
      f.kind,
      f.layer,
      f.source,
      JSON.stringify(f.evidence),
      f.salience,
      f.valence,
      f.arousal,
      f.valid_from,
      validTo(f),
      f.created_at,
      Math.max(fold.updated_at, row.updated_at),
      f.pinned ? 1 : 0,
      f.forgotten,
      f.content === row.content ? row.content_hash : contentHash(f.content),
      f.occurred_at,
      f.session,
      f.speaker,
      row.rid,
    );
    if (changed.includes('tags')) {
      stmt(db, 'DELETE FROM memory_tag WHERE rid = ?').run(row.rid);
      const addTag = stmt(db, 'INSERT OR IGNORE INTO memory_tag (rid, tag) VALUES (?, ?)');
      for (const t of tags) addTag.run(row.rid, t);
    }
    const text = changed.some((k) => k === 'title' || k === 'content');
    const doc = { title: f.title, content: f.content, tags };
    if (f.forgotten !== null) {
      if (was.forgotten === null) ftsRemove(db, row.rid);
    } else if (was.forgotten !== null) ftsInsert(db, row.rid, doc);
    else if (text || changed.includes('tags')) ftsReplace(db, row.rid, doc);
    if (text || (f.forgotten !== null && was.forgotten === null)) {
      stmt(db, 'DELETE FROM memory_embedding WHERE rid = ?').run(row.rid);
    }
    if (changed.includes('speaker')) speakersChanged(db);
    const list =
      was.forgotten === null && f.forgotten !== null
        ? out.changed.forgotten
        : was.forgotten !== null && f.forgotten === null
          ? out.changed.restored
          : out.changed.updated;
    list.push(id);
    const mine = stmt(db, `SELECT COUNT(*) AS n FROM sync_op WHERE e = ? AND local = 1`).get(
      `m:${id}`,
    ) as { n: number };
    if (mine.n > 0) out.merged.push(...mergedFields(db, id));
  }
  rebuildVersions(db, row.rid, fold);
  return false;
}

/** A validity whose end falls before its start (two devices set one each) keeps the start. */
function validTo(f: MemFields): number | null {
  if (f.valid_to !== null && f.valid_from !== null && f.valid_to < f.valid_from)
    return f.valid_from;
  return f.valid_to;
}

/**
 * Fields of a memory that this device and another both changed since they last agreed:
 * the activity feed tells the person which value the clocks kept.
 */
function mergedFields(db: Db, id: string): Applied['merged'] {
  const ops = entityOps(db, `m:${id}`);
  const byField = new Map<string, { h: string; local: boolean }[]>();
  const local = new Set(
    (
      stmt(db, 'SELECT h FROM sync_op WHERE e = ? AND local = 1').all(`m:${id}`) as { h: string }[]
    ).map((r) => r.h),
  );
  for (const op of ops.slice(-20)) {
    if (op.b.k !== 'mem' || op.b.snap) continue;
    for (const k of Object.keys(op.b.f)) {
      const list = byField.get(k) ?? [];
      list.push({ h: op.h, local: local.has(op.h) });
      byField.set(k, list);
    }
  }
  const merged: Applied['merged'] = [];
  const fields: string[] = [];
  let winner = '';
  let loser = '';
  for (const [k, list] of byField) {
    const last = list[list.length - 1];
    const prev = list[list.length - 2];
    if (!last || !prev || last.local === prev.local) continue;
    fields.push(k);
    winner = last.h;
    loser = prev.h;
  }
  if (fields.length > 0) merged.push({ id, fields, winner, loser });
  return merged;
}

function eraseLocal(db: Db, row: MemoryRow): void {
  if (row.deleted_at === null) ftsRemove(db, row.rid);
  stmt(db, 'DELETE FROM memory_embedding WHERE rid = ?').run(row.rid);
  stmt(db, 'DELETE FROM memory WHERE rid = ?').run(row.rid);
}

/**
 * The clock of a memory's latest withdrawal (made private or quarantined on its device),
 * or '' when it has none.
 * Its device dropped from its own log everything about the memory before that clock —
 * links, outcomes and contradictions included — and sends them again, with new clocks,
 * when the memory is shared again.
 */
function withdrawnAt(db: Db, id: string): string {
  const row = stmt(db, 'SELECT MAX(h) AS h FROM sync_op WHERE e = ? AND x = 1').get(`m:${id}`) as {
    h: string | null;
  };
  return row.h ?? '';
}

/**
 * Writes a link, an outcome list or a contradiction from its fold. What was said of it
 * before one of its memories was withdrawn does not count, as on the device that withdrew
 * it: whether this replica heard the withdrawal before or after those operations (and so
 * pruned them or not) then makes no difference.
 */
function materializeOther(db: Db, e: string, out: Applied): void {
  const all = entityOps(db, e);
  // Its key: l:from|to|type, o:id, c:older|newer (the memories it is about).
  const key = e.slice(2).split('|');
  const about = e.startsWith('o:') ? [e.slice(2)] : key.slice(0, 2);
  const cut = about.map((id) => withdrawnAt(db, id)).reduce((a, b) => (b > a ? b : a), '');
  const ops = cut === '' ? all : all.filter((op) => op.h > cut);
  if (e.startsWith('l:')) {
    const [from, to, type] = key as [string, string, string];
    const src = ridOf(db, from);
    const dst = ridOf(db, to);
    if (src === undefined || dst === undefined || src === dst) return;
    const fold = foldLink(ops);
    const had = stmt(db, 'SELECT weight FROM link WHERE src = ? AND dst = ? AND type = ?').get(
      src,
      dst,
      type,
    ) as { weight: number } | undefined;
    if (fold.on) {
      if (had && Math.abs(had.weight - fold.w) < 1e-9) return;
      stmt(
        db,
        `INSERT INTO link (src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (src, dst, type) DO UPDATE SET weight = excluded.weight`,
      ).run(src, dst, type, fold.w, fold.last ? parseHlc(fold.last).wall : 0);
      out.links.push({ from, to, change: had ? 'updated' : 'created' });
    } else if (had) {
      stmt(db, 'DELETE FROM link WHERE src = ? AND dst = ? AND type = ?').run(src, dst, type);
      out.links.push({ from, to, change: 'removed' });
    }
  } else if (e.startsWith('o:')) {
    const rid = ridOf(db, e.slice(2));
    if (rid === undefined) return;
    const drop = stmt(
      db,
      'DELETE FROM procedure_outcome WHERE id = (SELECT outcome FROM sync_outcome WHERE h = ?)',
    );
    for (const op of all) if (op.h <= cut) drop.run(op.h);
    const known = stmt(db, 'SELECT 1 FROM sync_outcome WHERE h = ?');
    const add = stmt(
      db,
      'INSERT INTO procedure_outcome (rid, at, success, niche, actor) VALUES (?, ?, ?, ?, ?)',
    );
    const map = stmt(db, 'INSERT INTO sync_outcome (h, outcome) VALUES (?, ?)');
    for (const op of ops) {
      if (op.b.k !== 'outcome' || known.get(op.h)) continue;
      const info = add.run(rid, op.b.at, op.b.ok ? 1 : 0, op.b.niche, op.b.a);
      map.run(op.h, Number(info.lastInsertRowid));
    }
  } else if (e.startsWith('c:')) {
    const [olderId, newerId] = key as [string, string];
    const older = ridOf(db, olderId);
    const newer = ridOf(db, newerId);
    if (older === undefined || newer === undefined || older === newer) return;
    const fold = foldConflict(ops);
    if (!fold) {
      // Every decision about it came before a withdrawal: what this replica wrote of it goes.
      stmt(db, `DELETE FROM conflict WHERE older = ? AND newer = ? AND id LIKE 'sync-%'`).run(
        older,
        newer,
      );
      return;
    }
    stmt(
      db,
      `INSERT INTO conflict (id, older, newer, relation, confidence, spans, detected_at, detected_by,
          state, resolution, resolved_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (older, newer) DO UPDATE SET relation = excluded.relation,
          confidence = excluded.confidence, spans = excluded.spans, state = excluded.state,
          resolution = excluded.resolution, resolved_at = excluded.resolved_at`,
    ).run(
      `sync-${fold.h}`,
      older,
      newer,
      fold.relation,
      fold.confidence,
      JSON.stringify(fold.spans ?? []),
      fold.detected_at,
      fold.detected_by,
      fold.state,
      fold.resolution === null ? null : JSON.stringify(fold.resolution),
      fold.resolved_at,
    );
  }
}
