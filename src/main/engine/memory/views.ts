// Two read-only views agents use to orient themselves: the timeline (memories in a time
// range, oldest first) and the map — the resident one-line-per-memory index an agent can
// keep in its prompt, within a token budget, never cut without saying so.
import type { Actor, BootstrapResult, MapResult, TimelineResult } from '../../../shared/api';
import { MAP_MAX_TOKENS, type MemoryKind } from '../../../shared/schemas';
import type { OpenStore } from '../store/registry';
import type { TokenCounter } from '../recall/tokenCounter';
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

/** Lines of the map counted per round trip to the token counter. */
const MAP_CHUNK = 256;

export async function memoryMap(
  store: OpenStore,
  actor: Actor,
  maxTokens: number,
  counter: TokenCounter,
): Promise<MapResult> {
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
  let used = ((await counter.count([header]))[0] as number) + 1;
  const lines: string[] = [];
  // Counted a chunk at a time (each line, and the footer that would follow it), so a map
  // of 100,000 memories under a budget of 2,000 tokens counts a few hundred lines.
  fill: for (let start = 0; start < rows.length; start += MAP_CHUNK) {
    const chunk = rows.slice(start, start + MAP_CHUNK).map(mapLine);
    const remaining = chunk.map((_, k) => rows.length - (start + k) - 1);
    const n = await counter.count([...chunk, ...remaining.map((r) => (r > 0 ? footerFor(r) : ''))]);
    for (const [k, line] of chunk.entries()) {
      const cost = (n[k] as number) + 1;
      // Room for this line and, if anything would still be left out, the footer that says so.
      const reserve = (remaining[k] as number) > 0 ? (n[chunk.length + k] as number) + 1 : 0;
      if (used + cost + reserve > maxTokens) break fill;
      lines.push(line);
      used += cost;
    }
  }
  const omitted = rows.length - lines.length;
  const text = [header, ...lines, ...(omitted > 0 ? [footerFor(omitted)] : [])].join('\n');
  const [tokens] = await counter.count([text]);
  return { store: store.name, text, listed: lines.length, omitted, tokens: tokens as number };
}

/**
 * The start of a session (the MCP `bootstrap` prompt): pinned memories whole, newest
 * first, in at most half the budget; then the memory map in what remains. Tokens are
 * counted with recall's tokenizer, so the budget holds for the agent's model too.
 */
export async function bootstrapContext(
  store: OpenStore,
  actor: Actor,
  maxTokens: number,
  counter: TokenCounter,
): Promise<BootstrapResult> {
  const vis = visibilityFilter(actor);
  const pinned = stmt(
    store.db,
    `SELECT m.id, m.title, m.content FROM memory m
      WHERE m.deleted_at IS NULL AND m.trust = 'trusted' AND m.pinned = 1 AND ${vis.sql}
      ORDER BY m.created_at DESC, m.rid DESC LIMIT 50`,
  ).all(...vis.params) as Pick<MemoryRow, 'id' | 'title' | 'content'>[];
  const heading = '# Pinned memories';
  const candidates = pinned.map((p) => `## ${p.title} [${p.id}]\n${p.content}`);
  const [headingTokens, ...n] = await counter.count([heading, ...candidates]);
  const blocks: string[] = [];
  let used = 0;
  for (const [i, block] of candidates.entries()) {
    const cost = (n[i] as number) + 2 + (blocks.length === 0 ? (headingTokens as number) + 1 : 0);
    if (used + cost > maxTokens / 2) break;
    blocks.push(block);
    used += cost;
  }
  const map = await memoryMap(
    store,
    actor,
    Math.max(64, Math.min(MAP_MAX_TOKENS, maxTokens - used)),
    counter,
  );
  const text = blocks.length ? `${heading}\n${blocks.join('\n\n')}\n\n${map.text}` : map.text;
  const [tokens] = await counter.count([text]);
  return {
    store: store.name,
    text,
    pinned: pinned.slice(0, blocks.length).map((p) => p.id),
    pinned_omitted: pinned.length - blocks.length,
    tokens: tokens as number,
  };
}
