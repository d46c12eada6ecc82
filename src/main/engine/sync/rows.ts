// What the replica reads of its own store: a memory's fields as the log carries them,
// whether it may travel at all, and the operations already held for an entity.
import type { Db } from '../store/database';
import { stmt } from '../store/statements';
import { MEMORY_COLUMNS, type MemoryRow } from '../memory/model';
import { OpBodySchema, type MemFields, type MemoryFold, type Op } from './ops';

export function memoryRow(db: Db, id: string): MemoryRow | undefined {
  return stmt(db, `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE m.id = ?`).get(id) as
    MemoryRow | undefined;
}

/** Only shared, trusted memories enter a shared log: private and quarantined ones never do. */
export function travels(row: Pick<MemoryRow, 'visibility' | 'trust'>): boolean {
  return row.visibility === 'shared' && row.trust === 'trusted';
}

export function fieldsOf(row: MemoryRow): MemFields {
  return {
    title: row.title,
    content: row.content,
    kind: row.kind,
    layer: row.layer,
    source: row.source,
    evidence: JSON.parse(row.evidence) as unknown[],
    tags: (JSON.parse(row.tags) as string[]).sort(),
    pinned: row.pinned === 1,
    valid_from: row.valid_from,
    valid_to: row.valid_to,
    occurred_at: row.occurred_at,
    session: row.session,
    speaker: row.speaker,
    forgotten: row.deleted_at,
    created_at: row.created_at,
    salience: row.salience,
    valence: row.valence,
    arousal: row.arousal,
  };
}

/** The operations held for an entity, in clock order. */
export function entityOps(db: Db, e: string): Op[] {
  const rows = stmt(db, 'SELECT h, b FROM sync_op WHERE e = ? ORDER BY h').all(e) as {
    h: string;
    b: string;
  }[];
  // Bodies were validated when they were written: parsing again only types them.
  return rows.map((r) => ({ h: r.h, b: OpBodySchema.parse(JSON.parse(r.b)) }));
}

/** Entities that mention a memory (its links, outcomes and contradictions). */
export function entitiesMentioning(db: Db, id: string): string[] {
  const rows = stmt(
    db,
    `SELECT DISTINCT e FROM sync_op WHERE (r1 = ? OR r2 = ?) AND e NOT LIKE 'm:%'`,
  ).all(id, id) as { e: string }[];
  return rows.map((r) => r.e);
}

export function ridOf(db: Db, id: string): number | undefined {
  const r = stmt(db, 'SELECT rid FROM memory WHERE id = ?').get(id) as { rid: number } | undefined;
  return r?.rid;
}

export function readState<T>(db: Db, key: string): T | null {
  const r = stmt(db, 'SELECT value FROM sync_state WHERE key = ?').get(key) as
    { value: string } | undefined;
  return r ? (JSON.parse(r.value) as T) : null;
}

export function writeState(db: Db, key: string, value: unknown): void {
  stmt(
    db,
    `INSERT INTO sync_state (key, value) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run(key, JSON.stringify(value));
}

export function deleteState(db: Db, key: string): void {
  stmt(db, 'DELETE FROM sync_state WHERE key = ?').run(key);
}

/**
 * The memory's versions, as the log's merge rules give them (identical on every device),
 * numbered from 1. Versions this device's retention already dropped (the dream phase keeps
 * the newest `keep_versions`) stay dropped: only numbers from its oldest kept one are written.
 */
export function rebuildVersions(db: Db, rid: number, fold: MemoryFold): void {
  const local = stmt(
    db,
    'SELECT COUNT(*) AS n, MIN(version) AS lo, MAX(version) AS hi FROM memory_version WHERE rid = ?',
  ).get(rid) as { n: number; lo: number | null; hi: number | null };
  const pruned = local.n > 0 && local.lo !== null && local.hi !== null && local.n < local.hi;
  const floor = pruned ? (local.lo as number) : 1;
  stmt(db, 'DELETE FROM memory_version WHERE rid = ?').run(rid);
  const add = stmt(
    db,
    `INSERT INTO memory_version (rid, version, title, content, kind, tags, changed_at, actor)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  fold.versions.forEach((v, i) => {
    if (i + 1 < floor) return;
    add.run(rid, i + 1, v.title, v.content, v.kind, JSON.stringify(v.tags), v.changed_at, v.actor);
  });
  stmt(db, 'UPDATE memory SET version = ? WHERE rid = ?').run(fold.versions.length + 1, rid);
}
