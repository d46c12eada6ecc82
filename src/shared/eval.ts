// The quality lab's part of the contract: recalls a person marked ("this recall missed X",
// "this one was wrong") kept as eval cases, and eval runs over them with bootstrap
// intervals and paired comparisons of two ranking configurations.
import { z } from 'zod';
import { MemoryIdSchema, StoreNameSchema } from './schemas';

export const EVAL_LIMITS = {
  queryMaxChars: 2000,
  idsMax: 50,
  noteMaxChars: 500,
  labelMaxChars: 100,
  runsMax: 500,
} as const;

const storeField = { store: StoreNameSchema.optional() };
const weight = z.number().min(0).max(1).optional();

/**
 * The ranking knobs a run may change (a subset of config.json `recall`); what is left
 * out keeps the store's configuration.
 */
export const EvalConfigSchema = z.strictObject({
  use_vectors: z.boolean().optional(),
  use_recognizer: z.boolean().optional(),
  weights: z
    .strictObject({
      relevance: weight,
      activation: weight,
      retrievability: weight,
      salience: weight,
      pinned: weight,
    })
    .optional(),
  fusion: z.enum(['linear', 'rrf']).optional(),
  rrf_k: z.number().int().min(1).max(1000).optional(),
  vector_weight: weight,
  spelling_weight: weight,
  neighbour_weight: weight,
  speaker_boost: z.number().min(0).max(3).optional(),
  time_boost: z.number().min(0).max(3).optional(),
  spread_hops: z.number().int().min(0).max(2).optional(),
  mmr_lambda: z.number().min(0).max(1).optional(),
});
export type EvalConfig = z.infer<typeof EvalConfigSchema>;

export const EvalMarkArgsSchema = z
  .strictObject({
    ...storeField,
    query: z.string().trim().min(1, 'the query is empty').max(EVAL_LIMITS.queryMaxChars),
    /** Memories this recall should have returned ("this recall missed X"). */
    missed: z.array(MemoryIdSchema).max(EVAL_LIMITS.idsMax).default([]),
    /** Memories it returned that were wrong ("this one was wrong"). */
    wrong: z.array(MemoryIdSchema).max(EVAL_LIMITS.idsMax).default([]),
    /** The activity call the mark was made from. */
    call_id: z.number().int().min(1).optional(),
    note: z.string().max(EVAL_LIMITS.noteMaxChars).optional(),
  })
  .refine((a) => a.missed.length + a.wrong.length > 0, {
    message: 'mark at least one memory as missed or as wrong',
    path: ['missed'],
  })
  .refine((a) => !a.missed.some((id) => a.wrong.includes(id)), {
    message: 'a memory cannot be both missed and wrong for the same query',
    path: ['wrong'],
  });

export const EvalCasesArgsSchema = z.strictObject({ ...storeField });

export const EvalCaseIdSchema = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'an eval case id is a 26-character ULID');

export const EvalRemoveArgsSchema = z.strictObject({ ...storeField, id: EvalCaseIdSchema });

export const EvalRunArgsSchema = z.strictObject({
  ...storeField,
  /** Changes to the store's ranking for this run (absent: the store's configuration). */
  config: EvalConfigSchema.optional(),
  label: z.string().trim().min(1).max(EVAL_LIMITS.labelMaxChars).optional(),
  /** A second configuration run over the same cases: the answer has the paired difference. */
  against: EvalConfigSchema.optional(),
  against_label: z.string().trim().min(1).max(EVAL_LIMITS.labelMaxChars).optional(),
  /** Keep the run(s) in the store's history (the trend); false for a look without a trace. */
  save: z.boolean().default(true),
});

export const EvalRunsArgsSchema = z.strictObject({
  ...storeField,
  limit: z.number().int().min(1).max(EVAL_LIMITS.runsMax).default(100),
});

export type EvalMarkArgs = z.input<typeof EvalMarkArgsSchema>;
export type EvalRunArgs = z.input<typeof EvalRunArgsSchema>;

export interface EvalCaseMemory {
  id: string;
  /** Null when the memory has been erased since it was marked. */
  title: string | null;
  /** Forgotten (soft-deleted) or erased: the case can no longer expect it. */
  gone: boolean;
}

export interface EvalCase {
  id: string;
  query: string;
  expected: EvalCaseMemory[];
  wrong: EvalCaseMemory[];
  note: string | null;
  call_id: number | null;
  actor: string;
  created_at: string;
  updated_at: string;
}

export interface EvalCasesResult {
  store: string;
  cases: EvalCase[];
}

export interface EvalRemoveResult {
  store: string;
  id: string;
  removed: true;
}

/** A mean with its 95 % percentile-bootstrap interval over `n` cases. */
export interface EvalEstimate {
  mean: number;
  low: number;
  high: number;
  n: number;
}

export interface EvalSummary {
  /** Cases with at least one expected memory still present: recall@10, MRR and nDCG@10. */
  recall10: EvalEstimate;
  mrr: EvalEstimate;
  ndcg10: EvalEstimate;
  /** Cases with memories marked wrong: the share of those still in the top 10 (lower is better). */
  wrong10: EvalEstimate;
  /** Cases skipped because every memory they name is gone. */
  skipped: number;
}

export interface EvalOutcome {
  case_id: string;
  /** Result ids in rank order (top 10). */
  returned: string[];
  recall10: number | null;
  rr: number | null;
  ndcg10: number | null;
  wrong10: number | null;
}

export interface EvalRunView {
  /** Null for a run that was not saved. */
  id: string | null;
  at: string;
  actor: string;
  label: string;
  /** The knobs this run changed (empty: the store's configuration). */
  config: EvalConfig;
  cases: number;
  summary: EvalSummary;
}

export interface EvalDifference {
  /** `against` − `config`, paired over the cases both could score. */
  recall10: EvalEstimate & { mde: number | null };
  mrr: EvalEstimate & { mde: number | null };
  ndcg10: EvalEstimate & { mde: number | null };
  wrong10: EvalEstimate & { mde: number | null };
}

export interface EvalRunResult {
  store: string;
  run: EvalRunView;
  outcomes: EvalOutcome[];
  against: EvalRunView | null;
  against_outcomes: EvalOutcome[] | null;
  difference: EvalDifference | null;
}

export interface EvalRunsResult {
  store: string;
  /** Oldest first (the order of the trend). */
  runs: EvalRunView[];
}
