// Reading memories: one in full (with its links, use and versions), pages of
// summaries with filters and keyset cursors, the version history, and store stats.
import { statSync } from 'node:fs';
import type {
  Actor,
  HistoryResult,
  LinkView,
  ListResult,
  MemoryTitle,
  MemoryView,
  StatsResult,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { MEMORY_KINDS, type ListArgs, type MemoryKind } from '../../../shared/schemas';
import type { z } from 'zod';
import type { ListArgsSchema } from '../../../shared/schemas';
import { AT_RISK_RATIO } from '../cognition/fsrs';
import { schemaVersion } from '../store/migrations';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import {
  canSee,
  iso,
  isoOrNull,
  MEMORY_COLUMNS,
  parseEvidence,
  parseTags,
  parseTime,
  toSummary,
  visibilityFilter,
  type MemoryRow,
} from './model';
import { readUse } from './state';

export function loadRow(store: OpenStore, id: string): MemoryRow | undefined {
  return stmt(store.db, `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE m.id = ?`).get(id) as
    MemoryRow | undefined;
}

export function notFound(store: OpenStore, id: string): LociError {
  return new LociError('not-found', `No memory ${id} in store "${store.name}".`, {
    id,
    store: store.name,
  });
}

/**
 * The memory if the caller may see it. A memory the caller may not see is reported
 * exactly like one that does not exist, so its existence does not leak.
 */
export function requireRow(
  store: OpenStore,
  actor: Actor,
  id: string,
  { deleted }: { deleted: 'exclude' | 'include' | 'only' } = { deleted: 'exclude' },
): MemoryRow {
  const row = loadRow(store, id);
  if (!row || !canSee(actor, row)) throw notFound(store, id);
  if (deleted === 'exclude' && row.deleted_at !== null) {
    throw new LociError(
      'conflict',
      `Memory ${id} was forgotten on ${iso(row.deleted_at)}; restore it first.`,
      { id, deleted_at: iso(row.deleted_at) },
    );
  }
  if (deleted === 'only' && row.deleted_at === null) {
    throw new LociError('conflict', `Memory ${id} is not forgotten.`, { id });
  }
  return row;
}

interface LinkRow {
  src_id: string;
  dst_id: string;
  type: LinkView['type'];
  weight: number;
  traversals: number;
  last_traversed: number | null;
  created_at: number;
}

export function toLinkView(r: LinkRow): LinkView {
  return {
    from: r.src_id,
    to: r.dst_id,
    type: r.type,
    weight: r.weight,
    traversals: r.traversals,
    last_traversed: isoOrNull(r.last_traversed),
    created_at: iso(r.created_at),
  };
}

export const LINK_SELECT = `SELECT s.id AS src_id, d.id AS dst_id, l.type, l.weight, l.traversals,
  l.last_traversed, l.created_at FROM link l JOIN memory s ON s.rid = l.src JOIN memory d ON d.rid = l.dst`;

export function getMemory(
  store: OpenStore,
  actor: Actor,
  id: string,
  includeDeleted: boolean,
  now: number,
): MemoryView {
  const row = requireRow(store, actor, id, { deleted: includeDeleted ? 'include' : 'exclude' });
  const vis = visibilityFilter(actor);
  const linkVisible = vis.sql.replace(/\bm\./g, 'o.');
  const outgoing = stmt(
    store.db,
    `${LINK_SELECT} JOIN memory o ON o.rid = l.dst
      WHERE l.src = ? AND o.deleted_at IS NULL AND ${linkVisible} ORDER BY l.weight DESC LIMIT 200`,
  ).all(row.rid, ...vis.params) as LinkRow[];
  const incoming = stmt(
    store.db,
    `${LINK_SELECT} JOIN memory o ON o.rid = l.src
      WHERE l.dst = ? AND o.deleted_at IS NULL AND ${linkVisible} ORDER BY l.weight DESC LIMIT 200`,
  ).all(row.rid, ...vis.params) as LinkRow[];
  const use = readUse(store.db, row.rid, row.created_at, now);
  const { preview: _preview, ...summary } = toSummary(row);
  const aliases = (
    stmt(store.db, 'SELECT alias FROM memory_alias WHERE rid = ? ORDER BY created_at, alias').all(
      row.rid,
    ) as { alias: string }[]
  ).map((a) => a.alias);
  return {
    ...summary,
    content: row.content,
    ...(aliases.length > 0 ? { aliases } : {}),
    layer: row.layer,
    owner: row.owner,
    quarantine_reasons: JSON.parse(row.quarantine_reasons) as string[],
    salience: row.salience,
    valence: row.valence,
    arousal: row.arousal,
    valid_from: isoOrNull(row.valid_from),
    valid_to: isoOrNull(row.valid_to),
    content_hash: row.content_hash,
    evidence: parseEvidence(row),
    activation: use.activation,
    retrievability: use.retrievability,
    access: use.access,
    fsrs: use.fsrs,
    links: { outgoing: outgoing.map(toLinkView), incoming: incoming.map(toLinkView) },
  };
}

type ParsedList = z.output<typeof ListArgsSchema>;

function encodeCursor(t: number, rid: number): string {
  return Buffer.from(`${t}:${rid}`).toString('base64url');
}

function decodeCursor(cursor: string): { t: number; rid: number } {
  const [t, rid] = Buffer.from(cursor, 'base64url').toString('utf8').split(':').map(Number);
  if (!Number.isSafeInteger(t) || !Number.isSafeInteger(rid)) {
    throw new LociError('invalid-args', 'the cursor is not one this store returned', {
      field: 'cursor',
    });
  }
  return { t: t as number, rid: rid as number };
}

/** SQL conditions (on alias `m`) shared by list and its total. */
const DAY_MS = 86_400_000;

function listFilters(
  args: ParsedList,
  actor: Actor,
  now: number,
): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const vis = visibilityFilter(actor);
  where.push(vis.sql);
  params.push(...vis.params);
  if (args.deleted === 'exclude') where.push('m.deleted_at IS NULL');
  if (args.deleted === 'only') where.push('m.deleted_at IS NOT NULL');
  if (args.trust !== 'any') {
    where.push('m.trust = ?');
    params.push(args.trust);
  }
  kindAndTagFilters({ kinds: args.kinds, tags: args.tags?.map((t) => t.trim()) }, where, params);
  if (args.pinned !== undefined) {
    where.push('m.pinned = ?');
    params.push(args.pinned ? 1 : 0);
  }
  if (args.source) {
    if (args.source.endsWith('*') || args.source.endsWith(':')) {
      const prefix = args.source.replace(/\*$/, '');
      where.push(`substr(m.source, 1, ?) = ?`);
      params.push(prefix.length, prefix);
    } else {
      where.push('m.source = ?');
      params.push(args.source);
    }
  }
  conversationFilters(args, where, params);
  if (args.as_of !== undefined) {
    // What holds then: within its validity; and, for now, not replaced by a live memory.
    const t = args.as_of === 'now' ? now : parseTime(args.as_of);
    where.push(
      '(m.valid_from IS NULL OR m.valid_from <= ?) AND (m.valid_to IS NULL OR m.valid_to > ?)',
    );
    params.push(t, t);
    if (args.as_of === 'now') {
      where.push(
        `NOT EXISTS (SELECT 1 FROM link sl JOIN memory sm ON sm.rid = sl.src
                      WHERE sl.dst = m.rid AND sl.type = 'supersedes' AND sm.deleted_at IS NULL)`,
      );
    }
  }
  if (args.at_risk) {
    // Retrievability below AT_RISK_BELOW: elapsed days beyond a fixed multiple of the
    // stability (see fsrs.ts). Pinned memories are never at risk.
    where.push(
      `m.pinned = 0 AND m.rid IN (SELECT rid FROM memory_state
         WHERE last_review IS NOT NULL AND stability > 0
           AND (? - last_review) > ? * stability * ${DAY_MS})`,
    );
    params.push(now, AT_RISK_RATIO);
  }
  return { where, params };
}

/** The kind and tag filters list and recall share: any of the kinds, all of the tags. */
export function kindAndTagFilters(
  args: { kinds?: readonly string[] | undefined; tags?: readonly string[] | undefined },
  where: string[],
  params: unknown[],
): void {
  if (args.kinds && args.kinds.length > 0) {
    where.push(`m.kind IN (${args.kinds.map(() => '?').join(', ')})`);
    params.push(...args.kinds);
  }
  if (args.tags && args.tags.length > 0) {
    const tags = [...new Set(args.tags)];
    where.push(
      `m.rid IN (SELECT rid FROM memory_tag WHERE tag IN (${tags.map(() => '?').join(', ')})
                 GROUP BY rid HAVING COUNT(*) = ${tags.length})`,
    );
    params.push(...tags);
  }
}

/**
 * The conversation filters list and recall share: a session, a speaker, and a time range
 * on when the memory happened (its `occurred_at`, else when it was stored).
 */
export function conversationFilters(
  args: { session?: string; speaker?: string; occurred_after?: string; occurred_before?: string },
  where: string[],
  params: unknown[],
): void {
  if (args.session !== undefined) {
    where.push('m.session = ?');
    params.push(args.session);
  }
  if (args.speaker !== undefined) {
    // Names are matched as people write them: "mel" finds Mel's turns.
    where.push('m.speaker = ? COLLATE NOCASE');
    params.push(args.speaker);
  }
  if (args.occurred_after !== undefined) {
    where.push('COALESCE(m.occurred_at, m.created_at) >= ?');
    params.push(parseTime(args.occurred_after));
  }
  if (args.occurred_before !== undefined) {
    where.push('COALESCE(m.occurred_at, m.created_at) < ?');
    params.push(parseTime(args.occurred_before));
  }
}

export function listMemories(
  store: OpenStore,
  actor: Actor,
  args: ParsedList,
  now: number,
): ListResult {
  const { where, params } = listFilters(args, actor, now);
  const col =
    args.order === 'created'
      ? 'm.created_at'
      : args.order === 'updated'
        ? 'm.updated_at'
        : 'COALESCE(m.occurred_at, m.created_at)';
  const cmp = args.direction === 'desc' ? '<' : '>';
  const pageWhere = [...where];
  const pageParams = [...params];
  if (args.cursor) {
    const c = decodeCursor(args.cursor);
    pageWhere.push(`(${col} ${cmp} ? OR (${col} = ? AND m.rid ${cmp} ?))`);
    pageParams.push(c.t, c.t, c.rid);
  }
  const dir = args.direction.toUpperCase();
  const rows = stmt(
    store.db,
    `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE ${pageWhere.join(' AND ')}
      ORDER BY ${col} ${dir}, m.rid ${dir} LIMIT ? OFFSET ?`,
  ).all(...pageParams, args.limit + 1, args.offset ?? 0) as MemoryRow[];
  const total = (
    stmt(store.db, `SELECT COUNT(*) AS n FROM memory m WHERE ${where.join(' AND ')}`).get(
      ...params,
    ) as {
      n: number;
    }
  ).n;
  const page = rows.slice(0, args.limit);
  const last = page[page.length - 1];
  const next =
    rows.length > args.limit && last
      ? encodeCursor(
          args.order === 'created'
            ? last.created_at
            : args.order === 'updated'
              ? last.updated_at
              : (last.occurred_at ?? last.created_at),
          last.rid,
        )
      : null;
  return { items: page.map(toSummary), next_cursor: next, total };
}

/** The versions of a memory (conflicts/history.ts adds validity, supersessions and conflicts). */
export type VersionHistory = Pick<HistoryResult, 'id' | 'current_version' | 'versions'>;

export function history(store: OpenStore, actor: Actor, id: string): VersionHistory {
  const row = requireRow(store, actor, id, { deleted: 'include' });
  const versions = stmt(
    store.db,
    'SELECT * FROM memory_version WHERE rid = ? ORDER BY version DESC',
  ).all(row.rid) as {
    version: number;
    title: string;
    content: string;
    kind: MemoryKind;
    tags: string;
    changed_at: number;
    actor: string;
  }[];
  return {
    id,
    current_version: row.version,
    versions: versions.map((v) => ({
      version: v.version,
      title: v.title,
      content: v.content,
      kind: v.kind,
      tags: parseTags(v),
      changed_at: iso(v.changed_at),
      actor: v.actor,
    })),
  };
}

export function stats(store: OpenStore, actor: Actor): Omit<StatsResult, 'vectors'> {
  const db = store.db;
  const vis = visibilityFilter(actor);
  const count = (where: string) =>
    (
      stmt(db, `SELECT COUNT(*) AS n FROM memory m WHERE ${vis.sql} AND ${where}`).get(
        ...vis.params,
      ) as { n: number }
    ).n;
  // Agents never see quarantined memories, but may know how many wait for the owner
  // (a count, no content): without this their stats said 0 while 47 waited.
  const own = visibilityFilter(actor, { ownershipOnly: true });
  const quarantined = (
    stmt(
      db,
      `SELECT COUNT(*) AS n FROM memory m WHERE ${own.sql} AND m.deleted_at IS NULL AND m.trust = 'quarantined'`,
    ).get(...own.params) as { n: number }
  ).n;
  const byKind = Object.fromEntries(MEMORY_KINDS.map((k) => [k, 0])) as Record<MemoryKind, number>;
  for (const r of stmt(
    db,
    `SELECT m.kind AS kind, COUNT(*) AS n FROM memory m WHERE ${vis.sql} AND m.deleted_at IS NULL GROUP BY m.kind`,
  ).all(...vis.params) as { kind: MemoryKind; n: number }[]) {
    byKind[r.kind] = r.n;
  }
  const range = stmt(
    db,
    `SELECT MIN(m.created_at) AS oldest, MAX(m.created_at) AS newest FROM memory m
      WHERE ${vis.sql} AND m.deleted_at IS NULL`,
  ).get(...vis.params) as { oldest: number | null; newest: number | null };
  const scalar = (sql: string) => (stmt(db, sql).get() as { n: number }).n;
  const fileSize = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return {
    store: store.name,
    memories: {
      live: count('m.deleted_at IS NULL'),
      deleted: count('m.deleted_at IS NOT NULL'),
      quarantined,
      pinned: count('m.deleted_at IS NULL AND m.pinned = 1'),
      by_kind: byKind,
    },
    links: scalar('SELECT COUNT(*) AS n FROM link'),
    versions: scalar('SELECT COUNT(*) AS n FROM memory_version'),
    audit_entries: scalar('SELECT COUNT(*) AS n FROM audit'),
    oldest: isoOrNull(range.oldest),
    newest: isoOrNull(range.newest),
    database: {
      path: store.file,
      size_bytes: fileSize(store.file),
      wal_bytes: fileSize(`${store.file}-wal`),
      schema_version: schemaVersion(db),
      sqlite_version: (stmt(db, 'SELECT sqlite_version() AS v').get() as { v: string }).v,
    },
  };
}

export type { ListArgs };

/** The titles of `ids` the caller can see (forgotten ones included), in the order asked. */
export function memoryTitles(
  store: OpenStore,
  actor: Actor,
  ids: readonly string[],
): MemoryTitle[] {
  if (ids.length === 0) return [];
  const vis = visibilityFilter(actor);
  const rows = stmt(
    store.db,
    `SELECT m.id, m.title, m.kind, m.trust, m.deleted_at FROM memory m
      WHERE m.id IN (SELECT value FROM json_each(?)) AND ${vis.sql}`,
  ).all(JSON.stringify([...new Set(ids)]), ...vis.params) as {
    id: string;
    title: string;
    kind: MemoryTitle['kind'];
    trust: MemoryTitle['trust'];
    deleted_at: number | null;
  }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].flatMap((id) => {
    const r = byId.get(id);
    return r
      ? [{ id, title: r.title, kind: r.kind, trust: r.trust, deleted_at: isoOrNull(r.deleted_at) }]
      : [];
  });
}
