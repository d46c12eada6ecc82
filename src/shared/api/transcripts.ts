// Result types of the contract, by domain (transcripts): what an import made of each
// file, and the journals it keeps.
import type { TranscriptFormat, TurnClass } from '../constants';

export interface DistillCounts {
  written: number;
  proposed: number;
  duplicate: number;
  rejected: number;
}

export interface TranscriptFileReport {
  path: string;
  /** `imported`; `unchanged` (this file was imported before); `replaced` (its session had
   * been imported shorter: the journal and the episode now hold all of it); `failed`. */
  status: 'imported' | 'unchanged' | 'replaced' | 'failed';
  format: TranscriptFormat | null;
  session: string | null;
  journal_id: string | null;
  /** The episode memory of the session. */
  episode_id: string | null;
  /** Lines in the file, and what became of them: every line is one of these. */
  lines: number;
  accounting: TranscriptAccounting | null;
  /** What distillation made of the session (null when nothing new was read). */
  distilled: DistillCounts | null;
  /** What the language model added, when one was asked (`llm`, on import). */
  model?: ModelDistillReport;
  /** Why it failed (status `failed`). */
  reason?: string;
}

export interface TranscriptAccounting {
  /** Lines that gave turns. */
  used: number;
  /** Known records with nothing to keep, by kind (summary, reasoning, blank…). */
  ignored: Record<string, number>;
  /** Lines that could not be read: the first ones with their line number and reason. */
  skipped: { line: number; reason: string }[];
  skipped_total: number;
  /** Lines past the journal's budget (not kept), from `stopped_at` on. */
  not_kept: number;
  stopped_at: number | null;
  turns: number;
  /** Turns whose text was cut to the per-turn budget (head and tail kept). */
  truncated: number;
  /** Turns with a credential in them: kept, never shown to an agent. */
  quarantined: number;
  by_class: Record<TurnClass, number>;
}

export interface TranscriptImportResult {
  store: string;
  files: TranscriptFileReport[];
  totals: { imported: number; unchanged: number; replaced: number; failed: number };
}

export interface JournalSummary {
  id: string;
  source: string;
  format: TranscriptFormat;
  session: string | null;
  cwd: string | null;
  started_at: string | null;
  ended_at: string | null;
  turns: number;
  episode_id: string | null;
  imported_at: string;
}

export interface JournalListResult {
  store: string;
  journals: JournalSummary[];
}

export interface JournalTurnView {
  seq: number;
  line: number;
  class: TurnClass;
  at: string | null;
  tool: string | null;
  text: string;
  exit: number | null;
  quarantined: boolean;
}

export interface JournalCandidateView {
  n: number;
  /** Who drew it: an extractor (`instruction`, `correction`, `error-remedy`, `config`), the
   * agent (`agent`), the client's model (`sampling`) or the configured one (`llm`). */
  extractor: string;
  content: string;
  /** Its quotes, where the gate found them (class, turn, line). */
  quotes: { quote: string; class: TurnClass; seq: number; line: number }[];
  /** `written` (a memory now), `proposed` (in the review inbox), `duplicate` (an equal one
   * exists), `rejected` (the gate's reasons). */
  status: 'written' | 'proposed' | 'duplicate' | 'rejected';
  reasons: string[];
  memory_id: string | null;
  review_id: string | null;
}

export interface JournalProposeResult {
  store: string;
  journal_id: string;
  /** One per candidate, in order: what the gate said and where it went. */
  results: Pick<JournalCandidateView, 'n' | 'status' | 'reasons' | 'memory_id' | 'review_id'>[];
  /** What could not be read of a model's answer (`reply`), each named. */
  problems: string[];
}

export interface JournalWindowResult {
  store: string;
  journal_id: string;
  offset: number;
  /** The last turn in the window. */
  last: number;
  total: number;
  /** Where the next window starts (null: this was the last). */
  next_offset: number | null;
  /** The instructions (a model's system prompt) and the window's classed turns. */
  system: string;
  prompt: string;
  /** Tokens a model may answer with (distill.max_tokens). */
  max_tokens: number;
  /** Windows of one journal a model should be asked about, at most (distill.max_windows). */
  max_windows: number;
}

export interface ModelDistillReport {
  /** The model asked, as configured (`llm.model`) or as the client named it (sampling). */
  model: string;
  /** Windows of the journal the model was asked about, and the turns they covered. */
  windows: number;
  turns_covered: number;
  counts: DistillCounts;
  /** What went wrong: an endpoint that did not answer, an answer that could not be read. */
  problems: string[];
}

export interface JournalDistillResult extends ModelDistillReport {
  store: string;
  journal_id: string;
}

export interface JournalView {
  journal: JournalSummary & { lines: number; accounting: TranscriptAccounting };
  /** The turns asked for (offset, limit, classes), in order. */
  turns: JournalTurnView[];
  /** Turns matching the classes asked for, in all. */
  total: number;
  /** What distillation drew from the session, and what the gate said of each. */
  candidates: JournalCandidateView[];
}
