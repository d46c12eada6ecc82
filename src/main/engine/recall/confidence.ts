// Abstention and confidence (DESIGN.md §6, step 6). Every answer carries a probability
// that it holds what was asked for, and every result the probability that it is one of
// the memories asked for, each from a logistic model over evidence that means the same in
// any store: how much of the query's IDF mass the best match holds (rare words count more
// than common ones), and with a model, how far the best cosine similarity is above the
// store's calibrated bar. The coefficients were fitted on conversational and document
// questions, answerable and not (`npm run eval -- --fit-confidence`); docs/heuristics.md
// lists them. Recall abstains — returns nothing — only when the answer's probability is
// below ABSTAIN_BELOW: almost no query word and nothing near in meaning. A weak but
// on-topic answer is returned, ranked, and marked low.
import type { Confidence } from '../../../shared/api';
import type { Candidate } from './candidates';
import type { Thresholds } from './calibration';
import type { LexicalResult } from './lexical';

/** Logistic coefficients: answer = σ(a·features), result = σ(r·features). */
export const CONFIDENCE_MODEL = {
  answer: { bias: -2.6, coverage: 4.6, similarity: 9.0, semanticBias: 0.0 },
  result: {
    bias: -2.2,
    coverage: 2.2,
    similarity: 6.0,
    relevance: 2.4,
    rank: -0.45,
    neighbourOnly: -0.4,
  },
} as const;

/** Below this probability the answer is "nothing relevant stored". */
export const ABSTAIN_BELOW = 0.1;
/** Levels people and agents act on. */
export const HIGH_FROM = 0.7;
export const MEDIUM_FROM = 0.4;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export interface Evidence {
  /** Best IDF-weighted share of the query's words one memory holds (0–1). */
  coverage: number;
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
  const confidence = sigmoid(
    a.bias + a.coverage * coverage + (margin !== null ? a.similarity * margin + a.semanticBias : 0),
  );
  const words =
    input.lexical.units === 0
      ? 'no searchable words'
      : `${Math.round(coverage * 100)} % of the query's weight in words`;
  const basis =
    margin !== null
      ? `${words}; best similarity ${(input.bestSimilarity as number).toFixed(2)} against a bar of ${input.threshold.value.toFixed(2)}`
      : `${words}; no similarity in meaning (no model)`;
  return {
    coverage,
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
