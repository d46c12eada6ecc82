// Retrieval metrics with bootstrap confidence intervals, shared by `npm run eval` and the
// quality lab (`eval.run`, `loci eval`).
// Everything is deterministic (seeded resampling) so two runs print the same numbers.
import { mulberry32 } from '../../../shared/random';

export { mulberry32 };

export interface QuestionOutcome {
  id: string;
  category: string;
  /** Relevant dataset ids, best first; empty for unanswerable questions. */
  relevant: string[];
  /** Returned dataset ids, in rank order. */
  returned: string[];
  abstained: boolean;
}

export function recallAt(o: QuestionOutcome, k: number): number {
  if (o.relevant.length === 0) return 0;
  const top = new Set(o.returned.slice(0, k));
  return o.relevant.filter((r) => top.has(r)).length / o.relevant.length;
}

export function reciprocalRank(o: QuestionOutcome): number {
  const i = o.returned.findIndex((r) => o.relevant.includes(r));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Graded nDCG@k: the first relevant id has gain 2, the others 1. */
export function ndcgAt(o: QuestionOutcome, k: number): number {
  if (o.relevant.length === 0) return 0;
  const gain = (id: string) => (id === o.relevant[0] ? 2 : o.relevant.includes(id) ? 1 : 0);
  const dcg = o.returned.slice(0, k).reduce((s, id, i) => s + gain(id) / Math.log2(i + 2), 0);
  const ideal: number[] = o.relevant
    .map(gain)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))));
  return sorted[i] as number;
}

export interface Estimate {
  mean: number;
  low: number;
  high: number;
  n: number;
}

/** Mean with a 95 % percentile bootstrap interval. */
export function bootstrap(values: number[], resamples = 2000, seed = 1): Estimate {
  const random = mulberry32(seed);
  const n = values.length;
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)] as number;
    means.push(sum / Math.max(1, n));
  }
  means.sort((a, b) => a - b);
  return { mean: mean(values), low: percentile(means, 0.025), high: percentile(means, 0.975), n };
}

/** Paired bootstrap of b − a over the same questions. */
export function pairedDifference(
  a: number[],
  b: number[],
  resamples = 2000,
  seed = 2,
): Estimate & { mde: number } {
  const diffs = a.map((x, i) => (b[i] as number) - x);
  const estimate = bootstrap(diffs, resamples, seed);
  return { ...estimate, mde: minimumDetectableEffect(diffs) };
}

/**
 * The smallest true difference a paired comparison of this size would detect with 80 %
 * power at α = 0.05 (two-sided): (z₀.₉₇₅ + z₀.₈) · sd / √n ≈ 2.80 · sd / √n.
 */
export function minimumDetectableEffect(diffs: number[]): number {
  const n = diffs.length;
  if (n < 2) return Number.NaN;
  const m = mean(diffs);
  const sd = Math.sqrt(diffs.reduce((s, d) => s + (d - m) ** 2, 0) / (n - 1));
  return (2.8 * sd) / Math.sqrt(n);
}

export interface Summary {
  recall5: Estimate;
  recall10: Estimate;
  mrr: Estimate;
  ndcg10: Estimate;
  /** Of the questions it abstained on, the share that were really unanswerable. */
  abstentionPrecision: number;
  /** Of the unanswerable questions, the share it abstained on. */
  abstentionRecall: number;
  /** Of the answerable questions, the share it wrongly abstained on. */
  falseAbstention: number;
}

export function summarize(outcomes: QuestionOutcome[]): Summary {
  const answerable = outcomes.filter((o) => o.relevant.length > 0);
  const unanswerable = outcomes.filter((o) => o.relevant.length === 0);
  const abstainedOn = outcomes.filter((o) => o.abstained);
  return {
    recall5: bootstrap(answerable.map((o) => recallAt(o, 5))),
    recall10: bootstrap(answerable.map((o) => recallAt(o, 10))),
    mrr: bootstrap(answerable.map(reciprocalRank)),
    ndcg10: bootstrap(answerable.map((o) => ndcgAt(o, 10))),
    abstentionPrecision:
      abstainedOn.length === 0
        ? 0
        : abstainedOn.filter((o) => o.relevant.length === 0).length / abstainedOn.length,
    abstentionRecall:
      unanswerable.length === 0
        ? 0
        : unanswerable.filter((o) => o.abstained).length / unanswerable.length,
    falseAbstention:
      answerable.length === 0
        ? 0
        : answerable.filter((o) => o.abstained).length / answerable.length,
  };
}
