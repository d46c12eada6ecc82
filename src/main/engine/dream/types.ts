// The one interface every dream phase implements (DESIGN.md §7): plan (reads only,
// yielding to the event loop between slices) → the dry-run report → apply (synchronous,
// inside the one transaction the cycle opens for the phase, re-checking what it planned).
import type { LlmClient } from '../llm';
import type { DreamChange, DreamPhaseName, ReviewEvidence, ReviewKind } from '../../../shared/api';
import type { Config } from '../config';
import type { OpenStore } from '../store/registry';

/** A write a phase wants a person to review (or auto-accepts, when configured). */
export interface ProposalDraft {
  kind: ReviewKind;
  /** One line on what accepting does. */
  title: string;
  proposal: Record<string, unknown>;
  evidence: ReviewEvidence[];
  diff: string | null;
  /** `dream:<phase>` or `llm:<model>`. */
  source: string;
  /** The same proposal is never made twice (whatever became of the first). */
  fingerprint: string;
}

export interface PhasePlan<P = unknown> {
  examined: number;
  changes: DreamChange[];
  proposals: ProposalDraft[];
  notes: string[];
  /** What apply needs, beyond the changes listed. */
  data: P;
}

export interface PhaseContext {
  store: OpenStore;
  config: Config['dream'];
  /** The cycle's clock reading (epoch ms): one instant for the whole cycle. */
  now: number;
  cycle: string;
  dryRun: boolean;
  /** Throws when the cycle was cancelled; awaits the event loop (call between slices). */
  yield(): Promise<void>;
  progress(done: number, total: number | null): void;
  /** The language model, when one is configured; null otherwise. */
  llm: LlmClient | null;
  /** Ids for what a phase records (conflicts). */
  newId: () => string;
  /** The k nearest memories by meaning to a stored one (none without its vector). */
  nearestTo: (rid: number, k: number) => number[];
  /** The configuration's conflicts.min_confidence. */
  minConflictConfidence: number;
  /** Cluster memberships this cycle found (the cluster phase sets, schema reads). */
  shared: { clusters?: ClusterInfo[] };
}

export interface ClusterInfo {
  /** The smallest member id: stable while the membership is. */
  key: string;
  members: string[];
}

export type { LlmClient };

export interface DreamPhase<P = unknown> {
  name: DreamPhaseName;
  plan(ctx: PhaseContext): Promise<PhasePlan<P>>;
  /**
   * Applies the plan inside the phase's transaction and returns what it really changed
   * (a planned change whose subject moved on meanwhile is dropped, not forced).
   */
  apply(ctx: PhaseContext, plan: PhasePlan<P>): DreamChange[];
}

export const DAY_MS = 86_400_000;

/** The actor dream writes are audited under. */
export const DREAM_ACTOR = { kind: 'dream', transport: 'dream' } as const;
