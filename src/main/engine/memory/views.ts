// Two read-only views agents use to orient themselves: the timeline (memories in a time
// range, oldest first) and the map — the resident one-line-per-memory index an agent can
// keep in its prompt, within a token budget, never cut without saying so.
import type { Actor, BootstrapResult, MapResult, TimelineResult } from '../../../shared/api';
import { MAP_MAX_TOKENS, type MemoryKind } from '../../../shared/schemas';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import {
  isoOrNull,
  MEMORY_COLUMNS,
  parseTags,
  parseTime,
  toSummary,
  visibilityFilter,
  type MemoryRow,
} from './model';

export function timeline(
  store: OpenStore,
  actor: Actor,
  args: {
    from?: string | undefined;
    to?: string | undefined;
    tags?: string[] | undefined;
    kinds?: MemoryKind[] | undefined;
    limit: number;
  },
): TimelineResult {
  const vis = visibilityFilter(actor);
  const where = ['m.deleted_at IS NULL', vis.sql];
  const params: unknown[] = [...vis.params];
  if (args.from) {
    where.push('m.created_at >= ?');
    params.push(parseTime(args.from));
  }
  if (args.to) {
    where.push('m.created_at <= ?');
    params.push(parseTime(args.to));
  }
  if (args.kinds?.length) {
    where.push(`m.kind IN (${args.kinds.map(() => '?').join(', ')})`);
    params.push(...args.kinds);
  }
  if (args.tags?.length) {
    const tags = [...new Set(args.tags)];
    where.push(
      `m.rid IN (SELECT rid FROM memory_tag WHERE tag IN (${tags.map(() => '?').join(', ')}) GROUP BY rid HAVING COUNT(*) = ${tags.length})`,
    );
    params.push(...tags);
  }
  const sql = where.join(' AND ');
  const total = (
    stmt(store.db, `SELECT COUNT(*) AS n FROM memory m WHERE ${sql}`).get(...params) as {
      n: number;
    }
  ).n;
  // The newest `limit` in the range (or the first `limit` after `from`), oldest first.
  const newestFirst = !args.from;
  const rows = stmt(
    store.db,
    `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE ${sql} ORDER BY m.created_at ${newestFirst ? 'DESC' : 'ASC'}, m.rid ${newestFirst ? 'DESC' : 'ASC'} LIMIT ?`,
  ).all(...params, args.limit) as MemoryRow[];
  const items = (newestFirst ? rows.reverse() : rows).map(toSummary);
  return {
    store: store.name,
    items,
    from: isoOrNull(args.from ? parseTime(args.from) : null),
    to: isoOrNull(args.to ? parseTime(args.to) : null),
    total,
  };
}

/** One line of the map: `<id> [kind] title #tag …` (pinned ones marked). */
export function mapLine(row: Pick<MemoryRow, 'id' | 'kind' | 'title' | 'pinned' | 'tags'>): string {
  const tags = parseTags(row)
    .map((t) => `#${t.replace(/\s+/g, '-')}`)
    .join(' ');
  return `${row.id} [${row.kind}]${row.pinned ? ' (pinned)' : ''} ${row.title}${tags ? ` ${tags}` : ''}`;
}

export function memoryMap(
  store: OpenStore,
  actor: Actor,
  maxTokens: number,
  count: (text: string) => number,
): MapResult {
  const vis = visibilityFilter(actor);
  // Stable order (pinned, then newest): the text stays byte-identical while nothing changes.
  const rows = stmt(
    store.db,
    `SELECT m.id, m.kind, m.title, m.pinned,
            COALESCE((SELECT json_group_array(tag) FROM (SELECT tag FROM memory_tag t WHERE t.rid = m.rid ORDER BY tag)), '[]') AS tags
       FROM memory m WHERE m.deleted_at IS NULL AND m.trust = 'trusted' AND ${vis.sql}
      ORDER BY m.pinned DESC, m.created_at DESC, m.rid DESC`,
  ).all(...vis.params) as Pick<MemoryRow, 'id' | 'kind' | 'title' | 'pinned' | 'tags'>[];
  const header = `# Memory map of store "${store.name}": ${rows.length} memories (id [kind] title #tags)`;
  const footerFor = (omitted: number) =>
    `… ${omitted} more ${omitted === 1 ? 'memory is' : 'memories are'} not listed here: recall them by topic, or ask for a larger max_tokens.`;
  let used = count(header) + 1;
  const lines: string[] = [];
  for (const [i, row] of rows.entries()) {
    const line = mapLine(row);
    const cost = count(line) + 1;
    const remaining = rows.length - i - 1;
    // Room for this line and, if anything would still be left out, the footer that says so.
    const reserve = remaining > 0 ? count(footerFor(remaining)) + 1 : 0;
    if (used + cost + reserve > maxTokens) break;
    lines.push(line);
    used += cost;
  }
  const omitted = rows.length - lines.length;
  const text = [header, ...lines, ...(omitted > 0 ? [footerFor(omitted)] : [])].join('\n');
  return { store: store.name, text, listed: lines.length, omitted, tokens: count(text) };
}

/**
 * The start of a session (the MCP `bootstrap` prompt): pinned memories whole, newest
 * first, in at most half the budget; then the memory map in what remains. Tokens are
 * counted with recall's tokenizer, so the budget holds for the agent's model too.
 */
export function bootstrapContext(
  store: OpenStore,
  actor: Actor,
  maxTokens: number,
  count: (text: string) => number,
): BootstrapResult {
  const vis = visibilityFilter(actor);
  const pinned = stmt(
    store.db,
    `SELECT m.id, m.title, m.content FROM memory m
      WHERE m.deleted_at IS NULL AND m.trust = 'trusted' AND m.pinned = 1 AND ${vis.sql}
      ORDER BY m.created_at DESC, m.rid DESC LIMIT 50`,
  ).all(...vis.params) as Pick<MemoryRow, 'id' | 'title' | 'content'>[];
  const heading = '# Pinned memories';
  const blocks: string[] = [];
  let used = 0;
  for (const p of pinned) {
    const block = `## ${p.title} [${p.id}]\n${p.content}`;
    const cost = count(block) + 2 + (blocks.length === 0 ? count(heading) + 1 : 0);
    if (used + cost > maxTokens / 2) break;
    blocks.push(block);
    used += cost;
  }
  const map = memoryMap(
    store,
    actor,
    Math.max(64, Math.min(MAP_MAX_TOKENS, maxTokens - used)),
    count,
  );
  const text = blocks.length ? `${heading}\n${blocks.join('\n\n')}\n\n${map.text}` : map.text;
  return {
    store: store.name,
    text,
    pinned: pinned.slice(0, blocks.length).map((p) => p.id),
    pinned_omitted: pinned.length - blocks.length,
    tokens: count(text),
  };
}
