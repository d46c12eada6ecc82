// Contradiction candidates as the store keeps them (the `conflict` table): recorded when
// the detector finds a pair, listed for a person or an agent, decided — the newer one
// supersedes the older (its validity closed at a time, a `supersedes` link), both hold in
// their contexts (tagged `context:<label>`), or not a conflict — and undone. Every
// decision changes the memories through the ordinary write path (versioned, audited) and
// is audited itself with what it changed, which is also what undoing it reverses.
import type {
  Actor,
  ConflictListResult,
  ConflictMark,
  ConflictResolution,
  ConflictSpan,
  ConflictState,
  ConflictView,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { applyChange, stateOf } from '../memory/mutate';
import {
  actorName,
  iso,
  isoOrNull,
  MEMORY_COLUMNS,
  parseTime,
  preview,
  toSummary,
  visibilityFilter,
  type MemoryRow,
} from '../memory/model';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';

export interface ConflictRow {
  id: string;
  older: number;
  newer: number;
  relation: 'contradicting' | 'updating';
  confidence: number;
  spans: string;
  detected_at: number;
  detected_by: string;
  state: ConflictState;
  resolution: string | null;
  resolved_at: number | null;
}

/** What a decision changed, kept so that undoing it puts everything back. */
interface StoredResolution {
  kind: ConflictResolution;
  winner?: string;
  at?: number;
  contexts?: { older: string; newer: string };
  reason?: string;
  by: string;
  decided_at: number;
  undo: {
    /** supersede: the loser, its validity before, and whether the supersedes link is new. */
    loser?: string;
    valid_to_before?: number | null;
    valid_to_set?: number | null;
    supersedes_link?: boolean;
    /** scope: the tags the decision added, by memory id. */
    tags_added?: Record<string, string[]>;
    /** The `contradicts` links the decision removed (src → dst, weight). */
    links_removed: { src: string; dst: string; weight: number }[];
  };
}

export interface Candidate {
  older: number;
  newer: number;
  relation: 'contradicting' | 'updating';
  confidence: number;
  spans: ConflictSpan[];
}

/** When a memory began to hold as far as the store knows: its validity, else when said, else stored. */
export function startOf(row: Pick<MemoryRow, 'valid_from' | 'occurred_at' | 'created_at'>) {
  return row.valid_from ?? row.occurred_at ?? row.created_at;
}

/**
 * Records new candidates (a pair known already, decided or not, in either order, is left
 * as it is) with a `contradicts` link from the newer to the older; audited. Returns the
 * ids of those recorded, in the order given. Runs in the caller's transaction if any.
 */
export function recordCandidates(
  store: OpenStore,
  candidates: readonly Candidate[],
  by: string,
  now: number,
  newId: () => string,
  /** Whose write or request found them, for the audit chain (default: `by`). */
  actor: string = by,
): { id: string; candidate: Candidate }[] {
  if (candidates.length === 0) return [];
  const known = stmt(
    store.db,
    'SELECT 1 FROM conflict WHERE (older = ? AND newer = ?) OR (older = ? AND newer = ?)',
  );
  const insert = stmt(
    store.db,
    `INSERT INTO conflict (id, older, newer, relation, confidence, spans, detected_at, detected_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const link = stmt(
    store.db,
    `INSERT INTO link (src, dst, type, weight, created_at) VALUES (?, ?, 'contradicts', ?, ?)
     ON CONFLICT (src, dst, type) DO NOTHING`,
  );
  const idOf = stmt(store.db, 'SELECT id FROM memory WHERE rid = ?').pluck();
  const out: { id: string; candidate: Candidate }[] = [];
  store.db.transaction(() => {
    for (const c of candidates) {
      if (known.get(c.older, c.newer, c.newer, c.older)) continue;
      const id = newId();
      insert.run(id, c.older, c.newer, c.relation, c.confidence, JSON.stringify(c.spans), now, by);
      link.run(c.newer, c.older, c.confidence, now);
      store.audit.append(
        {
          actor,
          action: 'conflict.detect',
          target: `${idOf.get(c.newer) as string}->${idOf.get(c.older) as string}`,
          // Which kinds of values differ, never the values themselves.
          data: {
            conflict: id,
            relation: c.relation,
            confidence: c.confidence,
            spans: c.spans.map((s) => s.kind),
          },
        },
        now,
      );
      out.push({ id, candidate: c });
    }
  })();
  return out;
}

// ------------------------------------------------------------------ reading

type MemorySide = ConflictView['older'];

function side(row: MemoryRow): MemorySide {
  return {
    ...toSummary(row),
    content: row.content,
    valid_from: isoOrNull(row.valid_from),
    valid_to: isoOrNull(row.valid_to),
  };
}

function currentOf(row: ConflictRow, older: MemoryRow, newer: MemoryRow): string | null {
  if (row.state === 'open') return newer.id;
  if (row.state === 'superseded') {
    const r = row.resolution ? (JSON.parse(row.resolution) as StoredResolution) : null;
    return r?.winner ?? newer.id;
  }
  void older;
  return null;
}

export function toConflictView(store: OpenStore, row: ConflictRow): ConflictView {
  const older = memoryRow(store, row.older);
  const newer = memoryRow(store, row.newer);
  const r = row.resolution ? (JSON.parse(row.resolution) as StoredResolution) : null;
  return {
    id: row.id,
    state: row.state,
    relation: row.relation,
    confidence: row.confidence,
    spans: JSON.parse(row.spans) as ConflictSpan[],
    older: side(older),
    newer: side(newer),
    current: currentOf(row, older, newer),
    detected_at: iso(row.detected_at),
    detected_by: row.detected_by,
    resolution: r
      ? {
          kind: r.kind,
          ...(r.winner ? { winner: r.winner } : {}),
          ...(r.at !== undefined ? { at: iso(r.at) } : {}),
          ...(r.contexts ? { contexts: r.contexts } : {}),
          ...(r.reason ? { reason: r.reason } : {}),
          by: r.by,
          decided_at: iso(r.decided_at),
        }
      : null,
  };
}

/** An SQL condition on `c`: the caller sees both memories, and neither is forgotten. */
function seenBoth(actor: Actor): { sql: string; params: unknown[] } {
  const vis = visibilityFilter(actor);
  const on = (alias: string) => vis.sql.replaceAll('m.', `${alias}.`);
  return {
    sql: `o.deleted_at IS NULL AND n.deleted_at IS NULL AND ${on('o')} AND ${on('n')}`,
    params: [...vis.params, ...vis.params],
  };
}

const FROM = `FROM conflict c JOIN memory o ON o.rid = c.older JOIN memory n ON n.rid = c.newer`;

export function listConflicts(
  store: OpenStore,
  actor: Actor,
  args: { state: string; memory?: string | undefined; limit: number; cursor?: string | undefined },
): ConflictListResult {
  const seen = seenBoth(actor);
  const where = [seen.sql];
  const params: unknown[] = [...seen.params];
  if (args.state === 'resolved') where.push(`c.state != 'open'`);
  else if (args.state !== 'all') {
    where.push('c.state = ?');
    params.push(args.state);
  }
  if (args.memory) {
    where.push('(o.id = ? OR n.id = ?)');
    params.push(args.memory, args.memory);
  }
  // Newest first; the cursor is the last (detected_at, id) of the previous page.
  if (args.cursor) {
    const [at, id] = args.cursor.split('~');
    if (!at || !id || !/^\d+$/.test(at)) {
      throw new LociError('invalid-args', 'cursor is not one conflict.list returned', {
        field: 'cursor',
      });
    }
    where.push('(c.detected_at < ? OR (c.detected_at = ? AND c.id < ?))');
    params.push(Number(at), Number(at), id);
  }
  const rows = stmt(
    store.db,
    `SELECT c.* ${FROM} WHERE ${where.join(' AND ')}
      ORDER BY c.detected_at DESC, c.id DESC LIMIT ?`,
  ).all(...params, args.limit + 1) as ConflictRow[];
  const page = rows.slice(0, args.limit);
  const last = page[page.length - 1];
  const open = (
    stmt(store.db, `SELECT COUNT(*) AS n ${FROM} WHERE c.state = 'open' AND ${seen.sql}`).get(
      ...seen.params,
    ) as { n: number }
  ).n;
  return {
    conflicts: page.map((r) => toConflictView(store, r)),
    open,
    next_cursor: rows.length > args.limit && last ? `${last.detected_at}~${last.id}` : null,
  };
}

/** Open conflicts each of these memories takes part in (that the caller sees), by memory id. */
export function conflictMarks(
  store: OpenStore,
  actor: Actor,
  ids: readonly string[],
): Map<string, ConflictMark[]> {
  const out = new Map<string, ConflictMark[]>();
  if (ids.length === 0) return out;
  if (!stmt(store.db, `SELECT 1 FROM conflict WHERE state = 'open' LIMIT 1`).get()) return out;
  const seen = seenBoth(actor);
  const list = JSON.stringify(ids);
  const rows = stmt(
    store.db,
    `SELECT c.id, o.id AS older_id, n.id AS newer_id, o.title AS older_title, n.title AS newer_title ${FROM}
      WHERE c.rowid IN (
              SELECT x.rowid FROM conflict x
               WHERE x.older IN (SELECT rid FROM memory WHERE id IN (SELECT value FROM json_each(?)))
              UNION
              SELECT y.rowid FROM conflict y
               WHERE y.newer IN (SELECT rid FROM memory WHERE id IN (SELECT value FROM json_each(?))))
        AND c.state = 'open' AND ${seen.sql}
      ORDER BY c.confidence DESC`,
  ).all(list, list, ...seen.params) as {
    id: string;
    older_id: string;
    newer_id: string;
    older_title: string;
    newer_title: string;
  }[];
  const add = (id: string, mark: ConflictMark) => {
    const marks = out.get(id) ?? [];
    marks.push(mark);
    out.set(id, marks);
  };
  const wanted = new Set(ids);
  for (const r of rows) {
    const mark = { conflict: r.id, current: r.newer_id };
    if (wanted.has(r.older_id)) add(r.older_id, { ...mark, id: r.newer_id, title: r.newer_title });
    if (wanted.has(r.newer_id)) add(r.newer_id, { ...mark, id: r.older_id, title: r.older_title });
  }
  return out;
}

/**
 * Results in which a memory that no longer holds ranks above the one that replaces it
 * (both present, an open conflict between them): the current one is moved just above it.
 */
export function currentFirst<T extends { id: string; conflicts_with?: ConflictMark[] }>(
  hits: T[],
): T[] {
  const out = [...hits];
  for (let guard = 0; guard < hits.length; guard++) {
    const pos = new Map(out.map((h, i) => [h.id, i]));
    let moved = false;
    for (const [i, h] of out.entries()) {
      for (const mark of h.conflicts_with ?? []) {
        const j = pos.get(mark.current);
        if (mark.current !== h.id && j !== undefined && j > i) {
          const [cur] = out.splice(j, 1);
          out.splice(i, 0, cur as T);
          moved = true;
          break;
        }
      }
      if (moved) break;
    }
    if (!moved) break;
  }
  return out;
}

// ------------------------------------------------------------------ deciding

function requireConflict(store: OpenStore, actor: Actor, id: string): ConflictRow {
  const seen = seenBoth(actor);
  const row = stmt(store.db, `SELECT c.* ${FROM} WHERE c.id = ? AND ${seen.sql}`).get(
    id,
    ...seen.params,
  ) as ConflictRow | undefined;
  if (!row) {
    throw new LociError(
      'not-found',
      `No conflict ${id} in store "${store.name}" (or one of its memories was forgotten: restore it to decide).`,
      { id, store: store.name },
    );
  }
  return row;
}

function memoryRow(store: OpenStore, rid: number): MemoryRow {
  return stmt(store.db, `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE m.rid = ?`).get(
    rid,
  ) as MemoryRow;
}

/** Removes the `contradicts` links between two memories (either way); returns them. */
function unlinkContradicts(store: OpenStore, a: MemoryRow, b: MemoryRow) {
  const rows = stmt(
    store.db,
    `SELECT src, dst, weight FROM link WHERE type = 'contradicts'
       AND ((src = ? AND dst = ?) OR (src = ? AND dst = ?))`,
  ).all(a.rid, b.rid, b.rid, a.rid) as { src: number; dst: number; weight: number }[];
  stmt(
    store.db,
    `DELETE FROM link WHERE type = 'contradicts' AND ((src = ? AND dst = ?) OR (src = ? AND dst = ?))`,
  ).run(a.rid, b.rid, b.rid, a.rid);
  const idOf = (rid: number) => (rid === a.rid ? a.id : b.id);
  return rows.map((r) => ({ src: idOf(r.src), dst: idOf(r.dst), weight: r.weight }));
}

export interface ResolveArgs {
  ids: string[];
  resolution: ConflictResolution;
  winner?: string | undefined;
  at?: string | undefined;
  contexts?: { older: string; newer: string } | undefined;
  reason?: string | undefined;
}

export interface ResolveOutcome {
  views: ConflictView[];
  /** Memories whose validity or tags changed. */
  changed: string[];
  /** Links made or removed, for the events. */
  links: { from: string; to: string; change: 'created' | 'removed' }[];
}

/** Decides conflicts, all in one transaction: one that cannot be decided fails them all. */
export function resolveConflicts(
  store: OpenStore,
  actor: Actor,
  args: ResolveArgs,
  now: number,
): ResolveOutcome {
  const who = actorName(actor);
  const changed = new Set<string>();
  const links: ResolveOutcome['links'] = [];
  const rows = args.ids.map((id) => requireConflict(store, actor, id));
  store.db.transaction(() => {
    for (const row of rows) {
      if (row.state !== 'open') {
        throw new LociError(
          'conflict',
          `Conflict ${row.id} was already decided (${row.state}); reopen it first to decide again.`,
          { id: row.id, state: row.state },
        );
      }
      const older = memoryRow(store, row.older);
      const newer = memoryRow(store, row.newer);
      const stored: StoredResolution = {
        kind: args.resolution,
        ...(args.reason ? { reason: args.reason } : {}),
        by: who,
        decided_at: now,
        undo: { links_removed: [] },
      };
      let state: ConflictState;
      if (args.resolution === 'supersede') {
        if (args.winner !== undefined && args.winner !== older.id && args.winner !== newer.id) {
          throw new LociError(
            'invalid-args',
            `winner ${args.winner} is neither memory of conflict ${row.id} (${older.id}, ${newer.id}).`,
            { field: 'winner' },
          );
        }
        const winner = args.winner === older.id ? older : newer;
        const loser = winner === older ? newer : older;
        let at = args.at !== undefined ? parseTime(args.at) : (winner.valid_from ?? now);
        if (loser.valid_from !== null && at < loser.valid_from) {
          if (args.at !== undefined) {
            throw new LociError(
              'invalid-args',
              `at (${args.at}) is before memory ${loser.id} began to hold (${iso(loser.valid_from)}).`,
              { field: 'at' },
            );
          }
          at = Math.max(loser.valid_from, now);
        }
        stored.winner = winner.id;
        stored.at = at;
        stored.undo.loser = loser.id;
        stored.undo.valid_to_before = loser.valid_to;
        // A validity already closed earlier stays as it is.
        if (loser.valid_to === null || loser.valid_to > at) {
          applyChange(
            store,
            actor,
            loser,
            {
              ...stateOf(loser),
              valid_to: at,
              quarantine_reasons: JSON.parse(loser.quarantine_reasons) as string[],
              owner: loser.owner,
            },
            now,
            'memory.update',
          );
          stored.undo.valid_to_set = at;
          changed.add(loser.id);
        }
        const made = stmt(
          store.db,
          `INSERT INTO link (src, dst, type, weight, created_at) VALUES (?, ?, 'supersedes', 1, ?)
           ON CONFLICT (src, dst, type) DO NOTHING`,
        ).run(winner.rid, loser.rid, now);
        stored.undo.supersedes_link = made.changes > 0;
        if (made.changes > 0) links.push({ from: winner.id, to: loser.id, change: 'created' });
        state = 'superseded';
      } else if (args.resolution === 'scope') {
        state = 'scoped';
        if (args.contexts) {
          stored.contexts = args.contexts;
          stored.undo.tags_added = {};
          for (const [row2, label] of [
            [older, args.contexts.older],
            [newer, args.contexts.newer],
          ] as const) {
            const tag = `context:${label}`;
            const state2 = stateOf(row2);
            if (state2.tags.includes(tag)) continue;
            if (state2.tags.length >= 32) {
              throw new LociError(
                'invalid-args',
                `memory ${row2.id} already has 32 tags; it cannot take ${tag}.`,
                { field: 'contexts' },
              );
            }
            applyChange(
              store,
              actor,
              row2,
              {
                ...state2,
                tags: [...state2.tags, tag],
                quarantine_reasons: JSON.parse(row2.quarantine_reasons) as string[],
                owner: row2.owner,
              },
              now,
              'memory.update',
            );
            stored.undo.tags_added[row2.id] = [tag];
            changed.add(row2.id);
          }
        }
      } else {
        state = 'dismissed';
      }
      stored.undo.links_removed = unlinkContradicts(store, older, newer);
      for (const l of stored.undo.links_removed) {
        links.push({ from: l.src, to: l.dst, change: 'removed' });
      }
      stmt(
        store.db,
        'UPDATE conflict SET state = ?, resolution = ?, resolved_at = ? WHERE id = ?',
      ).run(state, JSON.stringify(stored), now, row.id);
      store.audit.append(
        {
          actor: who,
          action: 'conflict.resolve',
          target: row.id,
          data: {
            resolution: args.resolution,
            older: older.id,
            newer: newer.id,
            ...(stored.winner ? { winner: stored.winner, at: iso(stored.at as number) } : {}),
            ...(stored.contexts ? { contexts: stored.contexts } : {}),
            ...(args.reason ? { reason: args.reason } : {}),
          },
        },
        now,
      );
    }
  })();
  return {
    views: rows.map((r) => toConflictView(store, requireConflict(store, actor, r.id))),
    changed: [...changed],
    links,
  };
}

/** Undoes a decision: the changes it made reversed, the conflict open again. */
export function reopenConflict(
  store: OpenStore,
  actor: Actor,
  id: string,
  now: number,
): ResolveOutcome & { view: ConflictView } {
  const row = requireConflict(store, actor, id);
  if (row.state === 'open' || row.resolution === null) {
    throw new LociError('conflict', `Conflict ${id} is open: there is no decision to undo.`, {
      id,
    });
  }
  const stored = JSON.parse(row.resolution) as StoredResolution;
  const changed = new Set<string>();
  const links: ResolveOutcome['links'] = [];
  const notes: string[] = [];
  store.db.transaction(() => {
    const older = memoryRow(store, row.older);
    const newer = memoryRow(store, row.newer);
    const byId = (mid: string) => (mid === older.id ? older : newer);
    const { undo } = stored;
    if (stored.kind === 'supersede' && undo.loser && stored.winner) {
      const loser = memoryRow(store, byId(undo.loser).rid);
      const winner = byId(stored.winner);
      // Only the validity this decision set goes back; a later edit of it is left alone.
      if (undo.valid_to_set !== undefined && loser.valid_to === undo.valid_to_set) {
        applyChange(
          store,
          actor,
          loser,
          {
            ...stateOf(loser),
            valid_to: undo.valid_to_before ?? null,
            quarantine_reasons: JSON.parse(loser.quarantine_reasons) as string[],
            owner: loser.owner,
          },
          now,
          'memory.update',
        );
        changed.add(loser.id);
      } else if (undo.valid_to_set !== undefined) {
        notes.push(`the validity of ${loser.id} was changed since; left as it is`);
      }
      if (undo.supersedes_link) {
        const gone = stmt(
          store.db,
          `DELETE FROM link WHERE src = ? AND dst = ? AND type = 'supersedes'`,
        ).run(winner.rid, loser.rid);
        if (gone.changes > 0) links.push({ from: winner.id, to: loser.id, change: 'removed' });
      }
    }
    for (const [mid, tags] of Object.entries(undo.tags_added ?? {})) {
      const m = memoryRow(store, byId(mid).rid);
      const s = stateOf(m);
      const next = s.tags.filter((t) => !tags.includes(t));
      if (next.length === s.tags.length) continue;
      applyChange(
        store,
        actor,
        m,
        {
          ...s,
          tags: next,
          quarantine_reasons: JSON.parse(m.quarantine_reasons) as string[],
          owner: m.owner,
        },
        now,
        'memory.update',
      );
      changed.add(mid);
    }
    const relink = stmt(
      store.db,
      `INSERT INTO link (src, dst, type, weight, created_at) VALUES (?, ?, 'contradicts', ?, ?)
       ON CONFLICT (src, dst, type) DO NOTHING`,
    );
    for (const l of undo.links_removed) {
      const made = relink.run(byId(l.src).rid, byId(l.dst).rid, l.weight, now);
      if (made.changes > 0) links.push({ from: l.src, to: l.dst, change: 'created' });
    }
    stmt(
      store.db,
      `UPDATE conflict SET state = 'open', resolution = NULL, resolved_at = NULL WHERE id = ?`,
    ).run(id);
    store.audit.append(
      {
        actor: actorName(actor),
        action: 'conflict.reopen',
        target: id,
        data: { undone: stored.kind, ...(notes.length ? { notes } : {}) },
      },
      now,
    );
  })();
  const view = toConflictView(store, requireConflict(store, actor, id));
  return { view, views: [view], changed: [...changed], links };
}

/** The conflicts a memory took part in (any state), newest first. */
export function conflictsOf(store: OpenStore, actor: Actor, rid: number): ConflictView[] {
  const seen = seenBoth(actor);
  const rows = stmt(
    store.db,
    `SELECT c.* ${FROM} WHERE (c.older = ? OR c.newer = ?) AND ${seen.sql}
      ORDER BY c.detected_at DESC LIMIT 100`,
  ).all(rid, rid, ...seen.params) as ConflictRow[];
  return rows.map((r) => toConflictView(store, r));
}

/** A memory named in words, for lines that mention it. */
export function nameOf(row: Pick<MemoryRow, 'title' | 'content'>): string {
  return row.title || preview(row.content, 60);
}
