// A memory's history as a person reads it: its versions, when it held (validity), what
// replaced it and what it replaced, the contradictions it took part in — and all of it
// in one time line, oldest first (the observatory's history timeline, `loci history`).
import type { Actor, HistoryEvent, HistoryLink, HistoryResult } from '../../../shared/api';
import { iso, isoOrNull } from '../memory/model';
import { history, requireRow } from '../memory/read';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { conflictsOf } from './store';

const RESOLVED: Record<string, string> = {
  supersede: 'one replaces the other',
  scope: 'both hold, each in its context',
  dismiss: 'not a conflict',
};

export function fullHistory(
  store: OpenStore,
  actor: Actor,
  id: string,
  now: number,
): HistoryResult {
  const row = requireRow(store, actor, id, { deleted: 'include' });
  const base = history(store, actor, id);
  const linked = (sql: string) =>
    (
      stmt(store.db, sql).all(row.rid) as {
        id: string;
        title: string;
        at: number;
        deleted_at: number | null;
      }[]
    ).filter((l) => l.deleted_at === null);
  const supersededBy = linked(
    `SELECT m.id, m.title, l.created_at AS at, m.deleted_at FROM link l JOIN memory m ON m.rid = l.src
      WHERE l.dst = ? AND l.type = 'supersedes' ORDER BY l.created_at`,
  );
  const supersedes = linked(
    `SELECT m.id, m.title, l.created_at AS at, m.deleted_at FROM link l JOIN memory m ON m.rid = l.dst
      WHERE l.src = ? AND l.type = 'supersedes' ORDER BY l.created_at`,
  );
  const toLink = (l: { id: string; title: string; at: number }): HistoryLink => ({
    id: l.id,
    title: l.title,
    at: iso(l.at),
  });
  const conflicts = conflictsOf(store, actor, row.rid);

  const events: (HistoryEvent & { t: number })[] = [];
  const add = (t: number, e: HistoryEvent) => events.push({ ...e, t });
  add(row.created_at, { at: iso(row.created_at), kind: 'created', text: 'written' });
  // Each saved version was replaced at its changed_at by the next one.
  for (const v of base.versions) {
    add(Date.parse(v.changed_at), {
      at: v.changed_at,
      kind: 'edited',
      text: `version ${v.version + 1} (by ${v.actor})`,
      version: v.version + 1,
    });
  }
  if (row.valid_from !== null) {
    add(row.valid_from, { at: iso(row.valid_from), kind: 'valid-from', text: 'began to hold' });
  }
  if (row.valid_to !== null) {
    add(row.valid_to, {
      at: iso(row.valid_to),
      kind: 'valid-to',
      text: row.valid_to <= now ? 'stopped holding' : 'holds until then',
    });
  }
  for (const l of supersededBy) {
    add(l.at, { at: iso(l.at), kind: 'superseded', text: `replaced by “${l.title}”`, ref: l.id });
  }
  for (const l of supersedes) {
    add(l.at, { at: iso(l.at), kind: 'supersedes', text: `replaced “${l.title}”`, ref: l.id });
  }
  for (const c of conflicts) {
    const other = c.older.id === id ? c.newer : c.older;
    add(Date.parse(c.detected_at), {
      at: c.detected_at,
      kind: 'conflict',
      text: `seems to contradict “${other.title}” (${c.spans.map((s) => `${s.older || '—'} / ${s.newer || '—'}`).join('; ')})`,
      ref: c.id,
    });
    if (c.resolution) {
      add(Date.parse(c.resolution.decided_at), {
        at: c.resolution.decided_at,
        kind: 'resolved',
        text: `decided by ${c.resolution.by}: ${RESOLVED[c.resolution.kind] ?? c.resolution.kind}`,
        ref: c.id,
      });
    }
  }
  if (row.deleted_at !== null) {
    add(row.deleted_at, { at: iso(row.deleted_at), kind: 'forgotten', text: 'forgotten' });
  }
  events.sort((a, b) => a.t - b.t);

  const current =
    row.deleted_at === null &&
    supersededBy.length === 0 &&
    (row.valid_to === null || row.valid_to > now) &&
    (row.valid_from === null || row.valid_from <= now);
  return {
    ...base,
    valid_from: isoOrNull(row.valid_from),
    valid_to: isoOrNull(row.valid_to),
    current,
    superseded_by: supersededBy.map(toLink),
    supersedes: supersedes.map(toLink),
    conflicts,
    timeline: events.map(({ t: _t, ...e }) => e),
  };
}
