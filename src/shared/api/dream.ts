// The contract by domain (dream): dreams and the review inbox.
import type { DREAM_PHASES, REVIEW_KINDS, REVIEW_STATES } from '../schemas';

export type DreamPhaseName = (typeof DREAM_PHASES)[number];
export type ReviewKind = (typeof REVIEW_KINDS)[number];
export type ReviewState = (typeof REVIEW_STATES)[number];

/** One thing a phase changed (or, in a dry run, would change): what, and before → after. */
export interface DreamChange {
  /** `link`, `link.weight`, `arousal`, `salience`, `forget`, `cluster`, `proposal`, `standing`, `versions`… */
  kind: string;
  /** Memory ids (a link: `from->to`; a cluster: its key; a table: its name). */
  target: string;
  before: unknown;
  after: unknown;
  note?: string;
}

export interface DreamPhaseReport {
  phase: DreamPhaseName;
  status: 'done' | 'skipped' | 'failed' | 'cancelled';
  /** How many things it looked at (memories, links, pairs, rows: `notes` says which). */
  examined: number;
  /** The changes, at most 200 listed (`changes_total` counts all). */
  changes: DreamChange[];
  changes_total: number;
  /** Review items it put in the inbox (or, dry run, would put). */
  proposals: number;
  /** Plain sentences: what was skipped and why (no language model configured…). */
  notes: string[];
  duration_ms: number;
}

export type DreamStatus = 'running' | 'done' | 'cancelled' | 'failed' | 'interrupted';

export interface DreamReport {
  id: string;
  store: string;
  dry_run: boolean;
  status: DreamStatus;
  /** `manual` (CLI, API, MCP, the view, the tray) or `idle` (the scheduler). */
  trigger: 'manual' | 'idle';
  /** Who started it (`ui`, `cli`, `mcp:<client>`, `dream` for the scheduler). */
  actor: string;
  started_at: string;
  finished_at: string | null;
  phases: DreamPhaseReport[];
  totals: { examined: number; changes: number; proposals: number; duration_ms: number };
  error: string | null;
}

export type DreamSummary = Omit<DreamReport, 'phases'> & { phases: DreamPhaseName[] };

export interface DreamListResult {
  store: string;
  cycles: DreamSummary[];
  /** The cycle running now in this store, if any. */
  running: { id: string; phase: DreamPhaseName | null; dry_run: boolean } | null;
  schedule: {
    enabled: boolean;
    idle_minutes: number;
    interval_hours: number;
    /** The last applied (not dry-run) cycle that finished. */
    last_cycle_at: string | null;
    /** The earliest the scheduler may dream again (then it waits for idle time too). */
    next_eligible_at: string | null;
    llm: { configured: boolean; model: string | null };
    auto_accept: Record<ReviewKind, boolean>;
  };
  pending_reviews: number;
}

export interface DreamCancelResult {
  id: string | null;
  cancelled: boolean;
}

export interface ReviewEvidence {
  /** A memory the proposal rests on (null when it is not a memory, e.g. a model's note). */
  id: string | null;
  title: string;
  excerpt: string;
  note: string | null;
}

export interface ReviewItemView {
  id: string;
  kind: ReviewKind;
  state: ReviewState;
  /** One line on what accepting does. */
  title: string;
  /** What would be written: for `schema`/`merge`/`refine` a title and content; for `link` the two ends. */
  proposal: Record<string, unknown>;
  evidence: ReviewEvidence[];
  /** A readable before/after, when the proposal changes an existing memory. */
  diff: string | null;
  /** `dream:<phase>` or `llm:<model>`. */
  source: string;
  cycle: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
  /** What accepting it wrote (memory ids), once accepted. */
  result_ids: string[];
  reason: string | null;
}

export interface ReviewListResult {
  store: string;
  items: ReviewItemView[];
  counts: Record<ReviewState, number>;
}

export interface ReviewDecideResult {
  store: string;
  results: { id: string; state: ReviewState; result_ids: string[] }[];
}
