// Local changes into the replication log. While a store syncs, triggers note every
// change to its memories, tags, links, outcomes and contradictions in `sync_dirty`, in
// the writing transaction (whatever code path wrote: a call, an import, a dream). The
// capture then compares each noted entity with what the log already says of it and
// writes the difference as operations stamped by this device's clock. Capturing twice,
// or after a crash, finds nothing new: the comparison is with the log, not with a diary.
import type { Db } from '../store/database';
import { stmt } from '../store/statements';
import type { MemoryRow } from '../memory/model';
import type { HlcClock } from './hlc';
import {
  entityOf,
  foldConflict,
  foldLink,
  foldMemory,
  MEM_FIELDS,
  sameValue,
  SNAPSHOT_ONLY,
  type MemFields,
  type OpBody,
} from './ops';
import {
  entityOps,
  fieldsOf,
  memoryRow,
  rebuildVersions,
  ridOf,
  travels,
  writeState,
} from './rows';

const WATCHED_MEMORY_COLUMNS =
  'title, content, kind, layer, source, evidence, trust, visibility, pinned, valid_from, valid_to, deleted_at, occurred_at, session, speaker';

const TRIGGERS: Record<string, string> = {
  sync_memory_insert: `AFTER INSERT ON memory BEGIN
    INSERT INTO sync_dirty (kind, a, actor) VALUES ('m', NEW.id, loci_actor()); END`,
  sync_memory_update: `AFTER UPDATE OF ${WATCHED_MEMORY_COLUMNS} ON memory BEGIN
    INSERT INTO sync_dirty (kind, a, actor) VALUES ('m', NEW.id, loci_actor()); END`,
  sync_memory_delete: `AFTER DELETE ON memory BEGIN
    INSERT INTO sync_dirty (kind, a, actor) VALUES ('m', OLD.id, loci_actor()); END`,
  sync_tag_insert: `AFTER INSERT ON memory_tag BEGIN
    INSERT INTO sync_dirty (kind, a, actor) SELECT 'm', id, loci_actor() FROM memory WHERE rid = NEW.rid; END`,
  sync_tag_delete: `AFTER DELETE ON memory_tag BEGIN
    INSERT INTO sync_dirty (kind, a, actor) SELECT 'm', id, loci_actor() FROM memory WHERE rid = OLD.rid; END`,
  sync_link_insert: `AFTER INSERT ON link BEGIN
    INSERT INTO sync_dirty (kind, a, b, c, actor) VALUES ('l',
      (SELECT id FROM memory WHERE rid = NEW.src), (SELECT id FROM memory WHERE rid = NEW.dst),
      NEW.type, loci_actor()); END`,
  sync_link_update: `AFTER UPDATE OF weight ON link BEGIN
    INSERT INTO sync_dirty (kind, a, b, c, actor) VALUES ('l',
      (SELECT id FROM memory WHERE rid = NEW.src), (SELECT id FROM memory WHERE rid = NEW.dst),
      NEW.type, loci_actor()); END`,
  // A link deleted with its memory (erase) finds no ids: the tombstone says it all.
  sync_link_delete: `AFTER DELETE ON link BEGIN
    INSERT INTO sync_dirty (kind, a, b, c, actor) VALUES ('l',
      (SELECT id FROM memory WHERE rid = OLD.src), (SELECT id FROM memory WHERE rid = OLD.dst),
      OLD.type, loci_actor()); END`,
  sync_outcome_insert: `AFTER INSERT ON procedure_outcome BEGIN
    INSERT INTO sync_dirty (kind, a, actor) VALUES ('o', NEW.id, loci_actor()); END`,
  sync_conflict_insert: `AFTER INSERT ON conflict BEGIN
    INSERT INTO sync_dirty (kind, a, actor) VALUES ('c', NEW.id, loci_actor()); END`,
  sync_conflict_update: `AFTER UPDATE OF state, resolution ON conflict BEGIN
    INSERT INTO sync_dirty (kind, a, actor) VALUES ('c', NEW.id, loci_actor()); END`,
};

/** Starts noting changes (when the store joins a log). */
export function installTriggers(db: Db): void {
  db.transaction(() => {
    for (const [name, body] of Object.entries(TRIGGERS)) {
      db.exec(`DROP TRIGGER IF EXISTS ${name}; CREATE TRIGGER ${name} ${body};`);
    }
  })();
}

/** Stops noting changes (the store left its log). */
export function removeTriggers(db: Db): void {
  db.transaction(() => {
    for (const name of Object.keys(TRIGGERS)) db.exec(`DROP TRIGGER IF EXISTS ${name}`);
    db.exec('DELETE FROM sync_dirty');
  })();
}

export function triggersInstalled(db: Db): boolean {
  const n = db
    .prepare(
      `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_%'`,
    )
    .get() as { n: number };
  return n.n === Object.keys(TRIGGERS).length;
}

/** Notes every memory (and what mentions it) as changed: the first capture shares them all. */
export function noteEverything(db: Db): void {
  db.exec(`
    INSERT INTO sync_dirty (kind, a, actor) SELECT 'm', id, 'system' FROM memory ORDER BY rid;
    INSERT INTO sync_dirty (kind, a, b, c, actor)
      SELECT 'l', s.id, d.id, l.type, 'system' FROM link l
        JOIN memory s ON s.rid = l.src JOIN memory d ON d.rid = l.dst;
    INSERT INTO sync_dirty (kind, a, actor) SELECT 'o', id, actor FROM procedure_outcome;
    INSERT INTO sync_dirty (kind, a, actor) SELECT 'c', id, 'system' FROM conflict;
  `);
}

export interface Captured {
  ops: number;
  /** Memories whose text could not be shared because it was erased in the log. */
  refused: string[];
}

interface Dirty {
  kind: 'm' | 'l' | 'o' | 'c';
  a: string | null;
  b: string | null;
  c: string | null;
  actor: string | null;
}

/**
 * Turns what the triggers noted into operations, in one transaction per `chunk` notes.
 * Returns how many operations were written.
 */
export function capture(db: Db, clock: HlcClock, now: number, chunk = 2000): Captured {
  const read = stmt(db, 'SELECT seq, kind, a, b, c, actor FROM sync_dirty ORDER BY seq LIMIT ?');
  const done = stmt(db, 'DELETE FROM sync_dirty WHERE seq <= ?');
  const total: Captured = { ops: 0, refused: [] };
  for (;;) {
    const rows = read.all(chunk) as (Dirty & { seq: number })[];
    if (rows.length === 0) return total;
    db.transaction(() => {
      const writer = new OpWriter(db, clock, now);
      const seen = new Map<string, Dirty>();
      for (const r of rows) seen.set(`${r.kind}\u0000${r.a}\u0000${r.b}\u0000${r.c}`, r);
      const queue = [...seen.values()];
      const memoriesDone = new Set<string>();
      for (let i = 0; i < queue.length; i++) {
        const d = queue[i] as Dirty;
        if (d.kind === 'm' && d.a !== null) {
          if (memoriesDone.has(d.a)) continue;
          memoriesDone.add(d.a);
          const shared = captureMemory(db, writer, d.a, d.actor ?? 'system', total);
          // A memory that joins the log brings what mentions it.
          if (shared) queue.push(...mentionsOf(db, d.a));
        } else if (d.kind === 'l' && d.a !== null && d.b !== null && d.c !== null) {
          captureLink(db, writer, d.a, d.b, d.c, d.actor ?? 'system');
        } else if (d.kind === 'o' && d.a !== null) {
          captureOutcome(db, writer, Number(d.a));
        } else if (d.kind === 'c' && d.a !== null) {
          captureConflict(db, writer, d.a, d.actor ?? 'system');
        }
      }
      done.run((rows[rows.length - 1] as { seq: number }).seq);
      writeState(db, 'hlc', clock.current());
      total.ops += writer.count;
    })();
  }
}

/** Writes operations made here into the log. */
class OpWriter {
  count = 0;
  private readonly insert;

  constructor(
    private readonly db: Db,
    private readonly clock: HlcClock,
    readonly now: number,
  ) {
    this.insert = stmt(
      db,
      `INSERT INTO sync_op (h, d, e, r1, r2, x, b, local, pushed, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1, 0, ?)`,
    );
  }

  write(body: OpBody): string {
    const h = this.clock.tick();
    const { e, r } = entityOf(body);
    const x = body.k === 'gone' ? 1 : 0;
    this.insert.run(h, this.clock.device, e, r[0], r[1] ?? null, x, JSON.stringify(body), this.now);
    this.count++;
    return h;
  }

  /** After a tombstone or a withdrawal: the log keeps no content of the memory. */
  purge(id: string, keep: string): void {
    stmt(this.db, 'DELETE FROM sync_op WHERE (r1 = ? OR r2 = ?) AND h <> ?').run(id, id, keep);
  }
}

function mentionsOf(db: Db, id: string): Dirty[] {
  const rid = ridOf(db, id);
  if (rid === undefined) return [];
  const links = stmt(
    db,
    `SELECT s.id AS a, d.id AS b, l.type AS c FROM link l
       JOIN memory s ON s.rid = l.src JOIN memory d ON d.rid = l.dst
      WHERE l.src = ? OR l.dst = ?`,
  ).all(rid, rid) as { a: string; b: string; c: string }[];
  const outcomes = stmt(db, 'SELECT id FROM procedure_outcome WHERE rid = ?').all(rid) as {
    id: number;
  }[];
  const conflicts = stmt(db, 'SELECT id FROM conflict WHERE older = ? OR newer = ?').all(
    rid,
    rid,
  ) as { id: string }[];
  return [
    ...links.map((l) => ({ kind: 'l' as const, ...l, actor: 'system' })),
    ...outcomes.map((o) => ({
      kind: 'o' as const,
      a: String(o.id),
      b: null,
      c: null,
      actor: null,
    })),
    ...conflicts.map((c) => ({ kind: 'c' as const, a: c.id, b: null, c: null, actor: 'system' })),
  ];
}

interface VersionRow {
  version: number;
  title: string;
  content: string;
  kind: MemFields['kind'];
  tags: string;
  changed_at: number;
  actor: string;
}

/** Captures one memory; true when it (re)joined the log with this capture. */
function captureMemory(
  db: Db,
  writer: OpWriter,
  id: string,
  actor: string,
  total: Captured,
): boolean {
  const fold = foldMemory(entityOps(db, `m:${id}`));
  const row = memoryRow(db, id);
  if (fold.erased) {
    // Erased in the log: a memory with the same id written again (a restored backup)
    // stays on this device.
    if (row && travels(row)) total.refused.push(id);
    return false;
  }
  if (!row) {
    // Never in the log, or withdrawn from it (its device made it private): nothing to tell.
    if (!fold.present) return false;
    const stone = writer.write({ k: 'gone', id, why: 'erased', a: actor });
    writer.purge(id, stone);
    stmt(db, 'INSERT OR IGNORE INTO sync_tombstone (id, h, at) VALUES (?, ?, ?)').run(
      id,
      stone,
      writer.now,
    );
    return false;
  }
  if (!travels(row)) {
    if (!fold.present) return false;
    const why = row.visibility === 'private' ? 'private' : 'quarantined';
    writer.purge(id, writer.write({ k: 'gone', id, why, a: actor }));
    // Shared again later, its outcomes travel again with it.
    stmt(
      db,
      'DELETE FROM sync_outcome WHERE outcome IN (SELECT id FROM procedure_outcome WHERE rid = ?)',
    ).run(row.rid);
    return false;
  }
  const versions = stmt(
    db,
    'SELECT version, title, content, kind, tags, changed_at, actor FROM memory_version WHERE rid = ? ORDER BY version',
  ).all(row.rid) as VersionRow[];
  const current = fieldsOf(row);
  const joining = !fold.present;
  // Versions this device made that the log does not have yet, oldest first: each is the
  // state a change replaced, so the change that replaced it travels as its own operation.
  const fresh = joining ? versions : versions.filter((v) => v.version > fold.versions.length);
  let prev: Partial<MemFields> = joining ? {} : fold.fields;
  const states: { f: Partial<MemFields>; at: number; a: string; ver: boolean }[] = [];
  if (joining) {
    const first = fresh[0];
    states.push({
      f: first ? { ...current, ...versionFields(first) } : current,
      at: row.created_at,
      a: row.source,
      ver: false,
    });
  }
  fresh.forEach((v, i) => {
    const next = fresh[i + 1];
    states.push({
      f: next ? { ...current, ...versionFields(next) } : current,
      at: v.changed_at,
      a: v.actor,
      ver: true,
    });
  });
  if (fresh.length === 0 && !joining) {
    states.push({ f: current, at: row.updated_at, a: actor, ver: false });
  }
  let wrote = false;
  states.forEach((s, i) => {
    const snap = joining && i === 0;
    const f: Partial<MemFields> = {};
    for (const k of MEM_FIELDS) {
      if (!snap && SNAPSHOT_ONLY.includes(k)) continue;
      if (snap || !sameValue(prev[k], s.f[k])) (f as Record<string, unknown>)[k] = s.f[k];
    }
    if (!snap && !s.ver && Object.keys(f).length === 0) return;
    writer.write({
      k: 'mem',
      id,
      ...(snap ? { snap: true } : {}),
      ...(s.ver ? { ver: true } : {}),
      f,
      at: s.at,
      a: s.a,
    });
    wrote = true;
    prev = { ...prev, ...s.f };
  });
  // A memory shared with no history has nothing to rebuild (the common case of a join).
  if (wrote && (versions.length > 0 || !joining || row.version !== 1)) {
    rebuildVersions(db, row.rid, foldMemory(entityOps(db, `m:${id}`)));
  }
  return joining && wrote;
}

function versionFields(v: VersionRow): Partial<MemFields> {
  return {
    title: v.title,
    content: v.content,
    kind: v.kind,
    tags: (JSON.parse(v.tags) as string[]).sort(),
  };
}

function bothTravel(db: Db, a: string, b: string): { src: MemoryRow; dst: MemoryRow } | null {
  const src = memoryRow(db, a);
  const dst = memoryRow(db, b);
  if (!src || !dst || !travels(src) || !travels(dst)) return null;
  return { src, dst };
}

function captureLink(
  db: Db,
  writer: OpWriter,
  from: string,
  to: string,
  type: string,
  actor: string,
): void {
  const ends = bothTravel(db, from, to);
  if (!ends) return;
  const local = stmt(db, 'SELECT weight FROM link WHERE src = ? AND dst = ? AND type = ?').get(
    ends.src.rid,
    ends.dst.rid,
    type,
  ) as { weight: number } | undefined;
  const e = `l:${from}|${to}|${type}`;
  const fold = foldLink(entityOps(db, e));
  const linkType = type as Extract<OpBody, { k: 'link' }>['type'];
  if (local && (!fold.on || Math.abs(fold.w - local.weight) > 1e-9)) {
    writer.write({ k: 'link', from, to, type: linkType, on: true, w: local.weight, a: actor });
  } else if (!local && fold.on) {
    writer.write({ k: 'link', from, to, type: linkType, on: false, w: fold.w, a: actor });
  }
}

function captureOutcome(db: Db, writer: OpWriter, outcome: number): void {
  if (stmt(db, 'SELECT 1 FROM sync_outcome WHERE outcome = ?').get(outcome)) return;
  const row = stmt(
    db,
    `SELECT m.id, o.success, o.niche, o.at, o.actor FROM procedure_outcome o
       JOIN memory m ON m.rid = o.rid WHERE o.id = ?`,
  ).get(outcome) as
    { id: string; success: number; niche: string | null; at: number; actor: string } | undefined;
  if (!row) return;
  const m = memoryRow(db, row.id);
  if (!m || !travels(m)) return;
  const h = writer.write({
    k: 'outcome',
    id: row.id,
    ok: row.success === 1,
    niche: row.niche,
    at: row.at,
    a: row.actor,
  });
  stmt(db, 'INSERT INTO sync_outcome (h, outcome) VALUES (?, ?)').run(h, outcome);
}

interface ConflictRow {
  older: string;
  newer: string;
  relation: 'contradicting' | 'updating';
  confidence: number;
  spans: string;
  state: 'open' | 'superseded' | 'scoped' | 'dismissed';
  resolution: string | null;
  detected_at: number;
  detected_by: string;
  resolved_at: number | null;
}

function captureConflict(db: Db, writer: OpWriter, conflict: string, actor: string): void {
  const row = stmt(
    db,
    `SELECT o.id AS older, n.id AS newer, c.relation, c.confidence, c.spans, c.state,
            c.resolution, c.detected_at, c.detected_by, c.resolved_at
       FROM conflict c JOIN memory o ON o.rid = c.older JOIN memory n ON n.rid = c.newer
      WHERE c.id = ?`,
  ).get(conflict) as ConflictRow | undefined;
  if (!row || !bothTravel(db, row.older, row.newer)) return;
  const body = {
    k: 'conflict' as const,
    older: row.older,
    newer: row.newer,
    relation: row.relation,
    confidence: row.confidence,
    spans: JSON.parse(row.spans) as unknown,
    state: row.state,
    resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as unknown),
    detected_at: row.detected_at,
    detected_by: row.detected_by,
    resolved_at: row.resolved_at,
    a: actor,
  };
  const fold = foldConflict(entityOps(db, `c:${row.older}|${row.newer}`));
  if (fold) {
    const { h: _h, a: _a, ...held } = fold;
    const { a: _b, ...mine } = body;
    if (sameValue(sortKeys(held), sortKeys(mine))) return;
  }
  writer.write(body);
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}
