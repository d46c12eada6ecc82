// Result types of the contract, by domain (conflicts): contradiction candidates, their
// resolutions, and verified claims.
import type { CONFLICT_RESOLUTIONS, CONFLICT_STATES, VERIFY_VERDICTS } from '../constants';
import type { MemorySummary } from './memory';

export type ConflictState = (typeof CONFLICT_STATES)[number];
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];
export type VerifyVerdict = (typeof VERIFY_VERDICTS)[number];

/** Where two memories differ: the value in the older one and the value in the newer one. */
export interface ConflictSpan {
  kind: 'number' | 'negation' | 'opposite' | 'name';
  /** The differing text as it stands in each ('' when one side has none, e.g. a negation). */
  older: string;
  newer: string;
}

export interface ConflictView {
  id: string;
  state: ConflictState;
  /** `updating`: the newer one says things changed; `contradicting`: nothing says which holds. */
  relation: 'contradicting' | 'updating';
  /** 0–1: how sure the detector is that the two conflict. */
  confidence: number;
  spans: ConflictSpan[];
  /** The one stated (or valid) first, and the one after it. */
  older: MemorySummary & { content: string; valid_from: string | null; valid_to: string | null };
  newer: MemorySummary & { content: string; valid_from: string | null; valid_to: string | null };
  /**
   * The memory that holds now: the newer one while the conflict is open (the latest word
   * wins until someone decides), the winner once superseded, null when both hold
   * (scoped) or when it is not a conflict (dismissed).
   */
  current: string | null;
  detected_at: string;
  /** `write` (found when the newer one was written), `scan`, `dream`, or the actor that linked them. */
  detected_by: string;
  /** The decision, once one was made. */
  resolution: {
    kind: ConflictResolution;
    /** supersede: the memory that holds, and from when the other stopped holding. */
    winner?: string;
    at?: string;
    /** scope: each memory's context. */
    contexts?: { older: string; newer: string };
    reason?: string;
    by: string;
    decided_at: string;
  } | null;
}

export interface ConflictListResult {
  conflicts: ConflictView[];
  /** Open candidates in the store (the caller can see), whatever the filter. */
  open: number;
  next_cursor: string | null;
}

export interface ConflictResolveResult {
  resolved: ConflictView[];
}

export interface ConflictScanResult {
  /** Memories compared with their neighbours. */
  examined: number;
  /** New candidates found (pairs already known, decided or not, are not counted again). */
  found: number;
  ms: number;
}

/** A memory's place in a conflict, as recall reports it on each result. */
export interface ConflictMark {
  /** The conflict candidate (conflict.resolve takes it). */
  conflict: string;
  /** The other memory, and its title. */
  id: string;
  title: string;
  /** Which of the two holds now (see ConflictView.current). */
  current: string;
}

/** A memory that decides a claim, and how. */
export interface VerifyEvidence {
  id: string;
  title: string;
  content: string;
  /** `supports` the claim, or `contradicts` it. */
  stance: 'supports' | 'contradicts';
  /** False when the memory no longer holds: superseded, or its validity ended. */
  current: boolean;
  /** The values that differ, when it contradicts. */
  spans: ConflictSpan[];
  valid_from: string | null;
  valid_to: string | null;
  /** The memory that replaced it, when superseded. */
  superseded_by?: string;
}

export interface VerifyResult {
  claim: string;
  verdict: VerifyVerdict;
  /**
   * Calibrated probability (0–1) that the verdict is right (on the labelled claims of
   * `npm run eval -- --suite verify`).
   */
  confidence: number;
  /** One line in words: what decided it. */
  basis: string;
  /** The memories that decide it, current ones first. */
  evidence: VerifyEvidence[];
  /** The time the claim was judged at. */
  as_of: string;
}
