// What the Memories view works with: one row shape for both the paged list (memory.list)
// and search (memory.recall), the filters and how they become each method's arguments.
// The contract's limits and link types come from src/shared/constants.ts (no zod).
import type { ConflictMark, MemorySummary, RecallHit } from '../../../../shared/api';
import { LIMITS, LINK_TYPES } from '../../../../shared/constants';
import type { LinkType, ListArgs, MemoryKind, RecallArgs } from '../../../../shared/schemas';

export { LINK_TYPES };
export const LIST_LIMIT_MAX = LIMITS.listLimitMax;
export const RECALL_LIMIT_MAX = LIMITS.recallLimitMax;
export const TAG_MAX_CHARS = LIMITS.tagMaxChars;
export const TAGS_MAX = LIMITS.tagsMax;
export const TITLE_MAX_CHARS = LIMITS.titleMaxChars;
export const SESSION_MAX_CHARS = LIMITS.sessionMaxChars;
export const SPEAKER_MAX_CHARS = LIMITS.speakerMaxChars;
export const CONTENT_MAX_BYTES = LIMITS.contentMaxBytes;
export const QUERY_MAX_CHARS = LIMITS.queryMaxChars;

export const LINK_TYPE_LABELS: Record<LinkType, string> = {
  related: 'related to',
  causes: 'causes',
  supports: 'supports',
  contradicts: 'contradicts',
  part_of: 'part of',
  follows: 'follows',
  derived_from: 'derived from',
  supersedes: 'supersedes',
  same_as: 'same as',
};

/** One line of the list, from either a list page or a recall hit. */
export interface MemoryRow {
  id: string;
  title: string;
  preview: string;
  kind: MemoryKind;
  tags: string[];
  pinned: boolean;
  quarantined: boolean;
  deleted: boolean;
  created_at: string;
  updated_at: string | null;
  source: string | null;
  /** Known for list rows: bulk edits send it as expected_version. */
  version: number | null;
  /** Search rows: the recall score (0–1) and why it was returned. */
  score: number | null;
  why: string | null;
  /** Conversation turns: who said it and when it happened (null when not recorded). */
  speaker: string | null;
  occurred_at: string | null;
  /** Search rows: the open contradictions recall reported (empty for list rows). */
  conflicts: ConflictMark[];
}

export function rowFromSummary(m: MemorySummary): MemoryRow {
  return {
    id: m.id,
    title: m.title,
    preview: m.preview,
    kind: m.kind,
    tags: m.tags,
    pinned: m.pinned,
    quarantined: m.trust === 'quarantined',
    deleted: m.deleted_at !== null,
    created_at: m.created_at,
    updated_at: m.updated_at,
    source: m.source,
    version: m.version,
    score: null,
    why: null,
    speaker: m.speaker,
    occurred_at: m.occurred_at,
    conflicts: [],
  };
}

export function rowFromHit(h: RecallHit): MemoryRow {
  return {
    id: h.id,
    title: h.title,
    preview: h.content.replace(/\s+/g, ' ').slice(0, 160),
    kind: h.kind,
    tags: h.tags,
    pinned: h.pinned,
    quarantined: h.quarantined,
    deleted: false,
    created_at: h.created_at,
    updated_at: null,
    source: null,
    version: null,
    score: h.score,
    why: h.why,
    speaker: h.speaker ?? null,
    occurred_at: h.occurred_at ?? null,
    conflicts: h.conflicts_with ?? [],
  };
}

export type TrustFilter = 'any' | 'trusted' | 'quarantined';
export type PinnedFilter = 'any' | 'pinned' | 'unpinned';
export type DeletedFilter = 'exclude' | 'include' | 'only';
/** Which memories: every one, only what holds now, or what held at a time. */
export type AsOfFilter = 'all' | 'now' | 'date';
export type SortOrder =
  'created-desc' | 'created-asc' | 'updated-desc' | 'occurred-asc' | 'occurred-desc';

export interface Filters {
  kinds: MemoryKind[];
  tags: string[];
  /** '' any; 'user', 'agent:' (any agent), 'system', or an exact source. */
  source: string;
  trust: TrustFilter;
  pinned: PinnedFilter;
  deleted: DeletedFilter;
  atRisk: boolean;
  /** '' any, else one session's turns. */
  session: string;
  /** '' any, else one speaker's. */
  speaker: string;
  /** '' or a day (YYYY-MM-DD): happened on or after it. */
  after: string;
  /** '' or a day (YYYY-MM-DD): happened on or before it. */
  before: string;
  /** Every memory (default), only what holds now, or what held at the end of `asOfDate`. */
  asOf: AsOfFilter;
  /** '' or a day (YYYY-MM-DD), for `asOf: 'date'`. */
  asOfDate: string;
  sort: SortOrder;
}

export const DEFAULT_FILTERS: Filters = {
  kinds: [],
  tags: [],
  source: '',
  // A person curating sees quarantined memories too (flagged); agents never do.
  trust: 'any',
  pinned: 'any',
  deleted: 'exclude',
  atRisk: false,
  session: '',
  speaker: '',
  after: '',
  before: '',
  asOf: 'all',
  asOfDate: '',
  sort: 'created-desc',
};

/** How many filters differ from the defaults (the sort order is not a filter). */
export function activeFilterCount(f: Filters): number {
  return (
    (f.kinds.length > 0 ? 1 : 0) +
    (f.tags.length > 0 ? 1 : 0) +
    (f.source ? 1 : 0) +
    (f.trust !== DEFAULT_FILTERS.trust ? 1 : 0) +
    (f.pinned !== 'any' ? 1 : 0) +
    (f.deleted !== DEFAULT_FILTERS.deleted ? 1 : 0) +
    (f.atRisk ? 1 : 0) +
    (f.session ? 1 : 0) +
    (f.speaker ? 1 : 0) +
    (f.after || f.before ? 1 : 0) +
    (f.asOf !== 'all' ? 1 : 0)
  );
}

/**
 * The `as_of` the filters ask for: 'now', the end of the chosen day (local time) as an
 * instant, or nothing (every memory; also while "as of" has no valid day yet).
 */
export function asOfArg(f: Pick<Filters, 'asOf' | 'asOfDate'>): 'now' | string | undefined {
  if (f.asOf === 'now') return 'now';
  if (f.asOf !== 'date' || !/^\d{4}-\d{2}-\d{2}$/.test(f.asOfDate)) return undefined;
  const end = new Date(`${f.asOfDate}T23:59:59.999`);
  return Number.isNaN(end.getTime()) ? undefined : end.toISOString();
}

const DAY_MS = 86_400_000;

/** The conversation filters as the contract takes them (days as UTC instants, `before` inclusive). */
export function conversationArgs(f: Filters): {
  session?: string;
  speaker?: string;
  occurred_after?: string;
  occurred_before?: string;
} {
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
  const after = f.after && !Number.isNaN(day(f.after)) ? day(f.after) : null;
  const before = f.before && !Number.isNaN(day(f.before)) ? day(f.before) + DAY_MS : null;
  return {
    ...(f.session ? { session: f.session } : {}),
    ...(f.speaker ? { speaker: f.speaker } : {}),
    ...(after !== null ? { occurred_after: new Date(after).toISOString() } : {}),
    ...(before !== null && (after === null || before > after)
      ? { occurred_before: new Date(before).toISOString() }
      : {}),
  };
}

/** memory.list arguments for the filters, without paging. */
export function listArgs(f: Filters, store: string | null): ListArgs {
  const [order, direction] = (
    {
      'created-desc': ['created', 'desc'],
      'created-asc': ['created', 'asc'],
      'updated-desc': ['updated', 'desc'],
      'occurred-asc': ['occurred', 'asc'],
      'occurred-desc': ['occurred', 'desc'],
    } as const
  )[f.sort];
  const asOf = asOfArg(f);
  return {
    ...(store ? { store } : {}),
    ...(f.kinds.length ? { kinds: f.kinds } : {}),
    ...(f.tags.length ? { tags: f.tags } : {}),
    ...(f.source ? { source: f.source } : {}),
    trust: f.trust,
    ...(f.pinned !== 'any' ? { pinned: f.pinned === 'pinned' } : {}),
    deleted: f.deleted,
    ...(f.atRisk ? { at_risk: true } : {}),
    ...conversationArgs(f),
    ...(asOf ? { as_of: asOf } : {}),
    order,
    direction,
  };
}

/** memory.recall arguments for a search under the filters recall understands. */
export function recallArgs(query: string, f: Filters, store: string | null): RecallArgs {
  const asOf = asOfArg(f);
  return {
    ...(store ? { store } : {}),
    query: query.slice(0, QUERY_MAX_CHARS),
    limit: RECALL_LIMIT_MAX,
    format: 'verbose',
    // Looking things up in the observatory is not an agent using them.
    rehearse: false,
    ...(f.kinds.length ? { kinds: f.kinds } : {}),
    ...(f.tags.length ? { tags: f.tags } : {}),
    ...conversationArgs(f),
    include_quarantined: f.trust !== 'trusted',
    // Every memory, as the list shows them: superseded ones too (recall hides them by
    // default, which is what "true now" wants); "as of" a day: what held then.
    ...(f.asOf === 'all' ? { history: true } : {}),
    ...(asOf && asOf !== 'now' ? { as_of: asOf } : {}),
  };
}

/** Search applies these filters to the hits itself (recall has no argument for them). */
export function keepHit(row: MemoryRow, f: Filters): boolean {
  if (f.trust === 'quarantined' && !row.quarantined) return false;
  if (f.pinned === 'pinned' && !row.pinned) return false;
  if (f.pinned === 'unpinned' && row.pinned) return false;
  return true;
}

/** Filters a search cannot honour, in words, so the view can say so. */
export function filtersSearchIgnores(f: Filters): string[] {
  const out: string[] = [];
  if (f.source) out.push('source');
  if (f.atRisk) out.push('at risk');
  if (f.deleted === 'only') out.push('deleted (search covers live memories only)');
  if (f.sort !== DEFAULT_FILTERS.sort) out.push('sort order (results are ranked by relevance)');
  return out;
}

export const SOURCE_PRESETS: { value: string; label: string }[] = [
  { value: '', label: 'Any' },
  { value: 'user', label: 'A person' },
  { value: 'agent:', label: 'Any agent' },
  { value: 'system', label: 'Loci itself' },
];

/** `agent:cursor` → "cursor (agent)" for people. */
export function describeSource(source: string): string {
  if (source === 'user') return 'a person';
  if (source === 'system') return 'Loci';
  const colon = source.indexOf(':');
  if (colon > 0) {
    const kind = source.slice(0, colon);
    const name = source.slice(colon + 1) || 'unknown';
    return kind === 'agent' ? `${name} (agent)` : `${name} (${kind})`;
  }
  return source;
}

/** Bytes of UTF-8 (the contract's content limits count bytes). */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}
