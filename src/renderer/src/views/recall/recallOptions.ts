// The Recall lab's options as the form holds them, checked the way the engine will check
// them (src/shared/schemas.ts, RecallArgsSchema), and turned into `memory.recall`
// arguments: always explained, verbose, and never rehearsed (the lab only looks).
import type { MethodArgs } from '../../../../shared/api';
import type { MemoryKind } from '../../../../shared/schemas';

export interface RecallOptions {
  limit: number;
  kinds: MemoryKind[];
  tags: string[];
  /** A `datetime-local` value (the user's local time), '' for now. */
  as_of: string;
  max_tokens: number | null;
  /** An MCP client's name, '' for the observatory's own view. */
  as_client: string;
}

export const DEFAULT_OPTIONS: RecallOptions = {
  limit: 10,
  kinds: [],
  tags: [],
  as_of: '',
  max_tokens: null,
  as_client: '',
};

/** Mirrors the contract's limits (LIMITS in schemas.ts, not imported: it would bring zod). */
export const QUERY_MAX = 2000;
export const LIMIT_MAX = 100;
export const MAX_TOKENS_MIN = 32;
export const MAX_TOKENS_MAX = 200_000;
const TAG_MAX = 100;
const TAGS_MAX = 32;

/** "deploy, ops" → ['deploy', 'ops']. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** The first problem with the query or the options, in words; null when all is well. */
export function checkRecall(query: string, o: RecallOptions): string | null {
  const q = query.trim();
  if (!q) return 'Type a query first.';
  if (q.length > QUERY_MAX) return `A query is at most ${QUERY_MAX} characters.`;
  if (!Number.isInteger(o.limit) || o.limit < 1 || o.limit > LIMIT_MAX)
    return `The limit is a whole number from 1 to ${LIMIT_MAX}.`;
  if (
    o.max_tokens !== null &&
    (!Number.isInteger(o.max_tokens) ||
      o.max_tokens < MAX_TOKENS_MIN ||
      o.max_tokens > MAX_TOKENS_MAX)
  )
    return `Max tokens is a whole number from ${MAX_TOKENS_MIN} to ${MAX_TOKENS_MAX.toLocaleString()}.`;
  if (o.tags.length > TAGS_MAX) return `At most ${TAGS_MAX} tags.`;
  if (o.tags.some((t) => t.length > TAG_MAX)) return `A tag is at most ${TAG_MAX} characters.`;
  if (o.as_of && Number.isNaN(new Date(o.as_of).getTime()))
    return 'The “as of” time is not a date.';
  if (o.as_client.trim().length > 100) return 'A client name is at most 100 characters.';
  return null;
}

export function toRecallArgs(
  query: string,
  o: RecallOptions,
  store: string | null,
): MethodArgs<'memory.recall'> {
  const client = o.as_client.trim();
  return {
    ...(store ? { store } : {}),
    query: query.trim(),
    limit: o.limit,
    ...(o.kinds.length ? { kinds: o.kinds } : {}),
    ...(o.tags.length ? { tags: o.tags } : {}),
    ...(o.as_of ? { as_of: new Date(o.as_of).toISOString() } : {}),
    ...(o.max_tokens !== null ? { max_tokens: o.max_tokens } : {}),
    ...(client ? { as_client: client } : {}),
    format: 'verbose',
    explain: true,
    rehearse: false,
  };
}

/** The options that differ from the defaults, as short labels ("limit 5", "as cursor"). */
export function optionLabels(o: RecallOptions): string[] {
  const out: string[] = [];
  if (o.limit !== DEFAULT_OPTIONS.limit) out.push(`limit ${o.limit}`);
  if (o.kinds.length) out.push(o.kinds.join(' · '));
  if (o.tags.length) out.push(o.tags.map((t) => `#${t}`).join(' '));
  if (o.as_of) out.push(`as of ${new Date(o.as_of).toLocaleString()}`);
  if (o.max_tokens !== null) out.push(`≤ ${o.max_tokens} tokens`);
  if (o.as_client.trim()) out.push(`as ${o.as_client.trim()}`);
  return out;
}

/** An MCP actor (`mcp:cursor`) as the client name `as_client` takes (`cursor`). */
export function clientName(actor: string): string {
  return actor.startsWith('mcp:') ? actor.slice(4) : actor;
}
