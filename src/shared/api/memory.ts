// The contract by domain (memory): memories, their versions and links, procedures, the
// activity feed.
import type { ConflictView } from './conflicts';
import type { Evidence, Layer, LinkType, MemoryKind, Trust, Visibility } from '../schemas';
import type { RecallHit } from './recall';

export interface FsrsView {
  state: 'new' | 'learning' | 'review' | 'relearning';
  stability: number;
  difficulty: number;
  reps: number;
  lapses: number;
  last_review: string | null;
  due: string;
}

export interface AccessView {
  count: number;
  last_at: string | null;
  /** Newest first, at most 50. */
  recent: string[];
}

export interface LinkView {
  from: string;
  to: string;
  type: LinkType;
  weight: number;
  traversals: number;
  last_traversed: string | null;
  created_at: string;
}

export interface MemorySummary {
  id: string;
  title: string;
  /** The first ~160 characters of the content. */
  preview: string;
  kind: MemoryKind;
  tags: string[];
  source: string;
  trust: Trust;
  visibility: Visibility;
  pinned: boolean;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  version: number;
  /** When it happened or was said, as given at `remember` (null: not given). */
  occurred_at: string | null;
  /** The conversation or thread it belongs to (null: none). */
  session: string | null;
  /** Who said it (null: not given). */
  speaker: string | null;
  /**
   * How many credentials are masked (`••••••••`) in this view's text: set on a quarantined
   * memory until a person reveals (memory.get with `reveal`) or redacts it.
   */
  secrets_hidden?: number;
}

export interface MemoryView extends Omit<MemorySummary, 'preview'> {
  content: string;
  /** Titles it also answers to: a merge keeps the merged memory's title here. Absent when none. */
  aliases?: string[];
  layer: Layer;
  owner: string | null;
  quarantine_reasons: string[];
  salience: number;
  valence: number;
  arousal: number;
  valid_from: string | null;
  valid_to: string | null;
  content_hash: string;
  evidence: Evidence[];
  /** ACT-R base-level activation (natural log scale; higher means more recently and often used). */
  activation: number | null;
  /** FSRS probability of recall now, 0–1. */
  retrievability: number | null;
  access: AccessView;
  fsrs: FsrsView;
  links: { outgoing: LinkView[]; incoming: LinkView[] };
}

export interface ListResult {
  items: MemorySummary[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  /** How many memories match the filters in all. */
  total: number;
}

export interface VersionView {
  version: number;
  title: string;
  content: string;
  kind: MemoryKind;
  tags: string[];
  changed_at: string;
  actor: string;
}

export interface HistoryResult {
  id: string;
  current_version: number;
  /** Earlier versions, newest first. */
  versions: VersionView[];
  /** When the memory holds (null: from always, until further notice). */
  valid_from: string | null;
  valid_to: string | null;
  /** False when a live memory supersedes it, or its validity ended. */
  current: boolean;
  /** Memories that replaced this one, and those it replaced. */
  superseded_by: HistoryLink[];
  supersedes: HistoryLink[];
  /** The contradiction candidates it took part in, open or decided. */
  conflicts: ConflictView[];
  /** All of it in time order, oldest first: what the history timeline draws. */
  timeline: HistoryEvent[];
}

export interface HistoryLink {
  id: string;
  title: string;
  /** When the link was made. */
  at: string;
}

export interface HistoryEvent {
  at: string;
  kind:
    | 'created'
    | 'edited'
    | 'valid-from'
    | 'valid-to'
    | 'supersedes'
    | 'superseded'
    | 'conflict'
    | 'resolved'
    | 'forgotten';
  /** One line in words. */
  text: string;
  /** The other memory, or the conflict, it refers to. */
  ref?: string;
  /** For `edited`: the version it made. */
  version?: number;
}

export interface MutationResult {
  id: string;
  version: number;
  change:
    | 'updated'
    | 'unchanged'
    | 'forgotten'
    | 'restored'
    | 'erased'
    | 'promoted'
    | 'tagged'
    | 'redacted';
  /** Set when this update quarantined the memory (its new text looked like a credential). */
  quarantined?: true;
}

export interface MemoryTitle {
  id: string;
  title: string;
  kind: MemoryKind;
  trust: Trust;
  /** When it was forgotten (null: live). */
  deleted_at: string | null;
  secrets_hidden?: number;
}

export interface TitlesResult {
  /** In the order asked; an id erased, of another store or not visible is left out. */
  titles: MemoryTitle[];
}

export interface CompleteResult {
  /** Values that begin with the prefix: the most used tags and the latest ids first. */
  values: string[];
  /** How many values match in all. */
  total: number;
  has_more: boolean;
}

/** A credential replaced by memory.redact: its rule and the keyed fingerprint left in its place. */
export interface RedactionView {
  rule: string;
  fingerprint: string;
}

export interface RedactResult extends MutationResult {
  redacted: RedactionView[];
}

export interface LinkManyResult {
  results: LinkResult[];
  created: number;
  updated: number;
}

export interface LinkResult {
  from: string;
  to: string;
  type: LinkType;
  weight: number;
  change: 'created' | 'updated' | 'removed';
  /** For removals: how many links were removed. */
  count?: number;
}

export interface NeighborsResult {
  root: string;
  /** Each node with its hop count and the ids on the path from the root to it. */
  nodes: (MemorySummary & { depth: number; path: string[] })[];
  edges: LinkView[];
  /** True when `limit` cut the walk short. */
  truncated: boolean;
}

export interface TimelineResult {
  store: string;
  /** Oldest first. */
  items: MemorySummary[];
  from: string | null;
  to: string | null;
  /** How many memories fall in the range in all. */
  total: number;
}

export interface MapResult {
  store: string;
  /** One line per memory, pinned first then newest first; identical while nothing changes. */
  text: string;
  listed: number;
  /** Memories left out to stay within max_tokens (the text says so too). */
  omitted: number;
  tokens: number;
}

export interface OutcomeResult {
  id: string;
  niche: string | null;
  successes: number;
  failures: number;
  /** Lower bound of the 95 % Wilson interval of the success rate. */
  wilson_lower: number;
}

export interface ProcedureHit extends RecallHit {
  successes: number;
  failures: number;
  wilson_lower: number;
  /** The last dream's skill competition made it the champion of this niche (of any, without one). */
  champion: boolean;
}

export interface FindProceduresResult {
  store: string;
  abstained: boolean;
  degraded: string[];
  results: ProcedureHit[];
}

export interface ActivityItem {
  /** Increasing per process: `activity.get` and `after` use it. */
  id: number;
  at: string;
  /** `mcp:<client>`, `ui`, `cli`. */
  actor: string;
  transport: string;
  tool: string;
  ok: boolean;
  error_code: string | null;
  duration_ms: number;
  /** The arguments and what the client received (text and structured), shortened past 16 KB. */
  args: unknown;
  result: unknown;
}

/** An activity item without its payloads (the feed); `activity.get` has them. */
export type ActivitySummary = Omit<ActivityItem, 'args' | 'result'>;

/** Calls over time (activity.stats): per client, with errors and latency, oldest first. */
export interface ActivityStatsResult {
  window_minutes: number;
  bucket_minutes: number;
  /** Every client with a call in the window, the busiest first (`mcp:<client>`, `ui`, `cli`). */
  clients: string[];
  buckets: {
    /** Where the bucket starts. */
    at: string;
    /** Calls per client in it. */
    calls: Record<string, number>;
    total: number;
    errors: number;
    p50_ms: number | null;
    p95_ms: number | null;
  }[];
}

export interface ActivityListResult {
  items: ActivitySummary[];
}

/** Context for the start of a session: pinned memories in full, then the memory map. */
export interface BootstrapResult {
  store: string;
  text: string;
  /** The pinned memories included whole (newest first, within half the budget). */
  pinned: string[];
  /** Pinned memories left out for want of room. */
  pinned_omitted: number;
  /** Counted with the same tokenizer as recall's budget. */
  tokens: number;
}
