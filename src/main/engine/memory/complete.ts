// Completions: the values a prompt or resource-template argument being typed may take
// (MCP completion/complete). Tags and ids come from what the caller may see: an agent is
// never offered a private memory of another client, a quarantined one or a forgotten one.
import type { Actor, CompleteResult } from '../../../shared/api';
import { MEMORY_KINDS } from '../../../shared/schemas';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { visibilityFilter } from './model';

/** `a_b%` typed by a person means those characters, not LIKE's wildcards. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The names among `names` that begin with `prefix` (any case), in their order. */
export function completeFrom(
  names: readonly string[],
  prefix: string,
  limit: number,
): CompleteResult {
  const p = prefix.toLowerCase();
  const all = names.filter((n) => n.toLowerCase().startsWith(p));
  return { values: all.slice(0, limit), total: all.length, has_more: all.length > limit };
}

export function completeKinds(prefix: string, limit: number): CompleteResult {
  return completeFrom(MEMORY_KINDS, prefix, limit);
}

/**
 * The first `limit` values of a query asked for `limit + 1` rows; the whole count (a
 * second query) only when there were more.
 */
function page(rows: { value: string }[], limit: number, count: () => number): CompleteResult {
  const more = rows.length > limit;
  return {
    values: rows.slice(0, limit).map((r) => r.value),
    total: more ? count() : rows.length,
    has_more: more,
  };
}

/** Tags of live memories the caller may see, the most used first. */
export function completeTags(
  store: OpenStore,
  actor: Actor,
  prefix: string,
  limit: number,
): CompleteResult {
  const vis = visibilityFilter(actor);
  const from = `FROM memory_tag t JOIN memory m ON m.rid = t.rid
      WHERE t.tag LIKE ? ESCAPE '\\' AND m.deleted_at IS NULL AND ${vis.sql}`;
  const params = [likePrefix(prefix), ...vis.params];
  const rows = stmt(
    store.db,
    `SELECT t.tag AS value, COUNT(*) AS n ${from} GROUP BY t.tag ORDER BY n DESC, t.tag LIMIT ?`,
  ).all(...params, limit + 1) as { value: string }[];
  return page(
    rows,
    limit,
    () =>
      (stmt(store.db, `SELECT COUNT(DISTINCT t.tag) AS n ${from}`).get(...params) as { n: number })
        .n,
  );
}

/** Ids of live memories the caller may see, the latest changed first. */
export function completeIds(
  store: OpenStore,
  actor: Actor,
  prefix: string,
  limit: number,
): CompleteResult {
  const vis = visibilityFilter(actor);
  // Ids are upper-case ULIDs; what was typed is matched in any case.
  const from = `FROM memory m WHERE m.id LIKE ? ESCAPE '\\' AND m.deleted_at IS NULL AND ${vis.sql}`;
  const params = [likePrefix(prefix.toUpperCase()), ...vis.params];
  const rows = stmt(
    store.db,
    `SELECT m.id AS value ${from} ORDER BY m.updated_at DESC, m.rid DESC LIMIT ?`,
  ).all(...params, limit + 1) as { value: string }[];
  return page(
    rows,
    limit,
    () => (stmt(store.db, `SELECT COUNT(*) AS n ${from}`).get(...params) as { n: number }).n,
  );
}
