// A store as a portable JSON bundle: every memory (forgotten ones too: their tombstones
// are kept), its tags, its earlier versions, its FSRS state and the links between memories, with the
// internal row ids replaced by memory ids. Columns are read from the schema, so a column
// added by a later migration travels without a change here. Import goes into a store
// that holds no memories yet, in one transaction, and refuses a bundle with a column the
// store does not have (nothing may be dropped silently): export → import → export gives
// the same memories, tags, versions and links. Not in the bundle: the audit chain (it is
// signed with this machine's key; the import itself is audited), access history and
// derived indexes (the FTS index is rebuilt here, vectors are recomputed).
import { createHash } from 'node:crypto';
import type { SealedStoreBundle, StoreBundle } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { keyCheck, seal, subKey, unseal } from './cipher';
import type { Db } from './database';
import type { EncryptionDescriptor } from './keys';
import { ftsInsert } from './ftsIndex';

export const BUNDLE_FORMAT = 'loci-bundle';
export const BUNDLE_VERSION = 1;

type Row = Record<string, unknown>;

export interface Bundle {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  store: string;
  exported_at: string;
  memories: Row[];
  tags: { id: string; tag: string }[];
  versions: Row[];
  states: Row[];
  links: Row[];
}

export interface ImportCounts {
  memories: number;
  tags: number;
  versions: number;
  states: number;
  links: number;
}

function columns(db: Db, table: string): string[] {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
}

export function exportBundle(db: Db, store: string, now: number): Bundle {
  const read = db.transaction(() => {
    const memories = (db.prepare('SELECT * FROM memory ORDER BY rid').all() as Row[]).map(
      ({ rid: _rid, ...rest }) => rest,
    );
    const tags = db
      .prepare(
        'SELECT m.id AS id, t.tag AS tag FROM memory_tag t JOIN memory m ON m.rid = t.rid ORDER BY m.rid, t.tag',
      )
      .all() as { id: string; tag: string }[];
    const versions = (
      db
        .prepare(
          'SELECT m.id AS memory_id, v.* FROM memory_version v JOIN memory m ON m.rid = v.rid ORDER BY m.rid, v.version',
        )
        .all() as Row[]
    ).map(({ rid: _rid, ...rest }) => rest);
    const states = (
      db
        .prepare(
          'SELECT m.id AS memory_id, s.* FROM memory_state s JOIN memory m ON m.rid = s.rid ORDER BY m.rid',
        )
        .all() as Row[]
    ).map(({ rid: _rid, ...rest }) => rest);
    const links = (
      db
        .prepare(
          `SELECT s.id AS src_id, d.id AS dst_id, l.* FROM link l
             JOIN memory s ON s.rid = l.src JOIN memory d ON d.rid = l.dst
            ORDER BY l.src, l.dst, l.type`,
        )
        .all() as Row[]
    ).map(({ src: _s, dst: _d, ...rest }) => rest);
    return { memories, tags, versions, states, links };
  });
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    store,
    exported_at: new Date(now).toISOString(),
    ...read(),
  };
}

const fail = (message: string): never => {
  throw new LociError('invalid-args', `This is not a Loci bundle Loci can import: ${message}`);
};

/** Checks the bundle's shape; throws LociError('invalid-args') naming the first problem. */
export function checkBundle(value: unknown): Bundle {
  const b = value as Partial<Bundle> | null;
  if (!b || typeof b !== 'object') return fail('it is not a JSON object.');
  if (b.format !== BUNDLE_FORMAT)
    return fail(`"format" is ${JSON.stringify(b.format)}, not "${BUNDLE_FORMAT}".`);
  if (b.version !== BUNDLE_VERSION)
    return fail(
      `bundle version ${JSON.stringify(b.version)}; this Loci reads version ${BUNDLE_VERSION}.`,
    );
  for (const key of ['memories', 'tags', 'versions', 'states', 'links'] as const) {
    if (!Array.isArray(b[key])) return fail(`"${key}" is not a list.`);
    for (const [i, row] of (b[key] as unknown[]).entries())
      if (!row || typeof row !== 'object' || Array.isArray(row))
        return fail(`${key}[${i}] is not an object.`);
  }
  for (const [i, m] of (b.memories as Row[]).entries())
    if (typeof m.id !== 'string' || m.id.length === 0) return fail(`memories[${i}] has no id.`);
  return b as Bundle;
}

/** An encrypted store's bundle, sealed under a sub-key of its key (see SealedStoreBundle). */
export function sealBundle(
  bundle: StoreBundle,
  key: Buffer,
  descriptor: EncryptionDescriptor | null,
): SealedStoreBundle {
  const kdf = descriptor?.current?.check === keyCheck(key) ? descriptor.current.kdf : undefined;
  return {
    format: 'loci-sealed-bundle',
    version: 1,
    store: bundle.store,
    exported_at: bundle.exported_at,
    memories: bundle.memories.length,
    key: { check: keyCheck(key), ...(kdf ? { kdf } : {}) },
    sealed: seal(subKey(key, 'export'), Buffer.from(JSON.stringify(bundle))),
  };
}

/** Whether a parsed file is a sealed bundle (opened by openSealedBundle). */
export function isSealedBundle(value: unknown): value is SealedStoreBundle {
  return (value as { format?: unknown } | null)?.format === 'loci-sealed-bundle';
}

/** Opens a sealed bundle with a store key whose check it names. */
export function openSealedBundle(sealed: SealedStoreBundle, key: Buffer): unknown {
  const plain = unseal(subKey(key, 'export'), sealed.sealed, 'The sealed bundle');
  try {
    return JSON.parse(plain.toString('utf8'));
  } catch {
    throw new LociError('invalid-args', 'The sealed bundle opens, but what is inside is not JSON.');
  }
}

/** A digest of the bundle's content (what the import's audit entry records). */
export function bundleDigest(b: Bundle): string {
  const { exported_at: _e, store: _s, ...content } = b;
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

function insertRows(db: Db, table: string, rows: Row[], map: (row: Row) => Row): number {
  if (rows.length === 0) return 0;
  const have = new Set(columns(db, table));
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  for (const [i, raw] of rows.entries()) {
    const row = map(raw);
    const keys = Object.keys(row);
    const unknown = keys.filter((k) => !have.has(k));
    if (unknown.length > 0) {
      fail(
        `${table} row ${i} has ${unknown.map((k) => `"${k}"`).join(', ')}, which this store does not have (a newer Loci exported it?); importing would drop it.`,
      );
    }
    const sig = keys.join(',');
    let st = statements.get(sig);
    if (!st) {
      st = db.prepare(
        `INSERT INTO ${table} (${keys.map((k) => `"${k}"`).join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`,
      );
      statements.set(sig, st);
    }
    try {
      st.run(keys.map((k) => row[k]));
    } catch (err) {
      fail(`${table} row ${i} was refused by the store: ${(err as Error).message}`);
    }
  }
  return rows.length;
}

/**
 * Writes a bundle into a store that has no memories. The caller runs this inside a
 * transaction (with the audit entry), so a refused row leaves the store unchanged.
 */
export function importBundle(db: Db, bundle: Bundle): ImportCounts {
  const existing = (db.prepare('SELECT count(*) AS n FROM memory').get() as { n: number }).n;
  if (existing > 0) {
    throw new LociError(
      'conflict',
      `The store already holds ${existing} memories; import into a new store (\`loci stores create <name>\`, then import with --store <name>).`,
    );
  }
  const ids = new Set<string>();
  for (const m of bundle.memories) {
    if (ids.has(m.id as string)) fail(`memory ${String(m.id)} appears twice.`);
    ids.add(m.id as string);
  }
  const memories = insertRows(db, 'memory', bundle.memories, (r) => r);
  const ridOf = db.prepare('SELECT rid FROM memory WHERE id = ?').pluck();
  const rid = (id: unknown, what: string) => {
    const r = ridOf.get(id) as number | undefined;
    if (r === undefined)
      fail(`${what} names memory ${String(id)}, which the bundle does not hold.`);
    return r as number;
  };
  const tags = insertRows(db, 'memory_tag', bundle.tags, ({ id, ...rest }) => ({
    rid: rid(id, 'a tag'),
    ...rest,
  }));
  const versions = insertRows(db, 'memory_version', bundle.versions, ({ memory_id, ...rest }) => ({
    rid: rid(memory_id, 'a version'),
    ...rest,
  }));
  const states = insertRows(db, 'memory_state', bundle.states, ({ memory_id, ...rest }) => ({
    rid: rid(memory_id, 'a state'),
    ...rest,
  }));
  const links = insertRows(db, 'link', bundle.links, ({ src_id, dst_id, ...rest }) => ({
    src: rid(src_id, 'a link'),
    dst: rid(dst_id, 'a link'),
    ...rest,
  }));
  // The full-text index holds the live memories (forgotten ones are not searchable).
  const live = db.prepare(
    `SELECT m.rid AS rid, m.title AS title, m.content AS content,
            COALESCE((SELECT json_group_array(tag) FROM memory_tag t WHERE t.rid = m.rid), '[]') AS tags
       FROM memory m WHERE m.deleted_at IS NULL`,
  );
  for (const row of live.all() as { rid: number; title: string; content: string; tags: string }[])
    ftsInsert(db, row.rid, {
      title: row.title,
      content: row.content,
      tags: JSON.parse(row.tags) as string[],
    });
  return { memories, tags, versions, states, links };
}
