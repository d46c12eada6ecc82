// Abstention and confidence (DESIGN.md §6, step 6). Every answer carries a probability
// that it holds what was asked for, and every result the probability that it is one of
// the memories asked for, each from a logistic model over evidence that means the same in
// any store: how much of the query's IDF mass the best match holds (rare words count more
// than common ones), and with a model, how far the best cosine similarity is above the
// store's calibrated bar. The coefficients were fitted on conversational and document
// questions, answerable and not (`npm run eval -- --fit-confidence`); docs/heuristics.md
// lists them. Recall abstains — returns nothing — only when the answer's probability is
// below ABSTAIN_BELOW: no query word in any memory and nothing near in meaning. A weak
// but on-topic answer is returned, ranked, and marked low.
import type { Confidence } from '../../../shared/api';
import type { Candidate } from './candidates';
import type { Thresholds } from './calibration';
import type { LexicalResult } from './lexical';

/**
 * Logistic coefficients: answer = σ(a · features), result = σ(r · features). Fitted by
 * `npm run eval -- --fit-confidence` on the conversational suite (LoCoMo's development
 * conversations and eval/datasets/ferrylog; 3,276 answers, 75,281 results): AUC 0.75
 * for an answer holding what was asked, 0.83 for telling unanswerable questions from
 * answerable ones, 0.87 for a result being one asked for.
 */
export const CONFIDENCE_MODEL = {
  answer: { bias: -0.91, coverage: 2.93, absent: -0.94, similarity: 2.71, semanticBias: 0.01 },
  result: {
    bias: -1.48,
    coverage: 1.26,
    similarity: 0.14,
    relevance: 0.82,
    rank: -0.85,
    neighbourOnly: -0.01,
  },
} as const;

/**
 * Below this probability the answer is "nothing relevant stored": without a model, no word
 * of the query is in any memory; with one, none either and nothing is above the bar.
 */
export const ABSTAIN_BELOW = 0.15;
/** Levels people and agents act on: low means more likely than not that it is not here. */
export const HIGH_FROM = 0.75;
export const MEDIUM_FROM = 0.5;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export interface Evidence {
  /** Best IDF-weighted share of the query's words one memory holds (0–1). */
  coverage: number;
  /** IDF-weighted share of the query's words that no memory holds (0–1). */
  absent: number;
  /** Best cosine similarity minus the abstention bar (semantic models only, else null). */
  margin: number | null;
  /** The abstention bar similarities are measured against (semantic models only). */
  bar: number | null;
  confidence: number;
  level: Confidence['level'];
  abstain: boolean;
  basis: string;
}

export function level(p: number): Confidence['level'] {
  return p >= HIGH_FROM ? 'high' : p >= MEDIUM_FROM ? 'medium' : 'low';
}

export function assessEvidence(input: {
  lexical: LexicalResult;
  bestSimilarity: number | null;
  /** Similarity means meaning (a model), not spelling (the hashing fallback). */
  semantic: boolean;
  threshold: Thresholds;
}): Evidence {
  const coverage = input.lexical.hits.reduce((m, h) => Math.max(m, h.coverage), 0);
  const margin =
    input.semantic && input.bestSimilarity !== null
      ? input.bestSimilarity - input.threshold.value
      : null;
  const a = CONFIDENCE_MODEL.answer;
  const absent = input.lexical.absent;
  const confidence = sigmoid(
    a.bias +
      a.coverage * coverage +
      a.absent * absent +
      (margin !== null ? a.similarity * margin + a.semanticBias : 0),
  );
  const words =
    input.lexical.units === 0
      ? 'no searchable words'
      : `${Math.round(coverage * 100)} % of the query's weight in words${absent > 0 ? ` (${Math.round(absent * 100)} % of it in words no memory holds)` : ''}`;
  const basis =
    margin !== null
      ? `${words}; best similarity ${(input.bestSimilarity as number).toFixed(2)} against a bar of ${input.threshold.value.toFixed(2)}`
      : `${words}; no similarity in meaning (no model)`;
  return {
    coverage,
    absent,
    margin,
    bar: margin !== null ? input.threshold.value : null,
    confidence,
    level: level(confidence),
    abstain: confidence < ABSTAIN_BELOW,
    basis,
  };
}

/** The probability that this result is one of the memories asked for (rank from 1). */
export function hitConfidence(c: Candidate, rank: number, evidence: Evidence): number {
  const r = CONFIDENCE_MODEL.result;
  const margin = evidence.bar !== null && c.similarity !== null ? c.similarity - evidence.bar : 0;
  return sigmoid(
    r.bias +
      r.coverage * (c.lexical?.coverage ?? 0) +
      r.similarity * margin +
      r.relevance * Math.min(1, c.relevance + c.spread) +
      r.rank * Math.log2(rank + 1) +
      (!c.lexical && !c.vector ? r.neighbourOnly : 0),
  );
}
