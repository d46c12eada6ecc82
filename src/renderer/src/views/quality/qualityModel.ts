// The Quality view's model: which metric is shown, how an estimate and a difference read
// in words, and the ranking knobs a comparison may change. No React here.
import type { EvalConfig, EvalEstimate, EvalRunView, EvalSummary } from '../../../../shared/eval';

export type MetricKey = 'ndcg10' | 'recall10' | 'mrr' | 'wrong10';

export const METRICS: { key: MetricKey; label: string; hint: string; lowerIsBetter: boolean }[] = [
  {
    key: 'ndcg10',
    label: 'nDCG@10',
    hint: 'how high the missed memories rank (1: first)',
    lowerIsBetter: false,
  },
  {
    key: 'recall10',
    label: 'recall@10',
    hint: 'share of missed memories now in the top 10',
    lowerIsBetter: false,
  },
  { key: 'mrr', label: 'MRR', hint: '1 / rank of the first missed memory', lowerIsBetter: false },
  {
    key: 'wrong10',
    label: 'wrong@10',
    hint: 'share of wrong results still in the top 10 (lower is better)',
    lowerIsBetter: true,
  },
];

export function metricOf(key: MetricKey) {
  return METRICS.find((m) => m.key === key) ?? (METRICS[0] as (typeof METRICS)[number]);
}

export const f3 = (x: number) => x.toFixed(3);
export const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(3)}`;

/** `0.812 [0.700, 0.900]`, or a dash when no case could be scored. */
export function formatEstimate(e: EvalEstimate): string {
  return e.n === 0 ? '—' : `${f3(e.mean)} [${f3(e.low)}, ${f3(e.high)}]`;
}

/** Runs of the store's own configuration: the trend (comparisons have their own labels). */
export function trendRuns(runs: EvalRunView[]): EvalRunView[] {
  return runs.filter((r) => Object.keys(r.config).length === 0);
}

/**
 * What a paired difference says, in words: better or worse when the 95 % interval leaves
 * zero, otherwise no clear difference (and the interval says how large one could be).
 */
export function verdict(
  d: EvalEstimate,
  metric: MetricKey,
  a: string,
  b: string,
): { tone: 'better' | 'worse' | 'unclear' | 'none'; text: string } {
  if (d.n === 0) return { tone: 'none', text: 'No case could be scored on this metric.' };
  const { lowerIsBetter, label } = metricOf(metric);
  if (d.low > 0 || d.high < 0) {
    const up = d.low > 0;
    const better = up !== lowerIsBetter;
    return {
      tone: better ? 'better' : 'worse',
      text: `${b} is ${better ? 'better' : 'worse'} than ${a} on ${label}: ${signed(d.mean)} (95 % interval ${signed(d.low)} to ${signed(d.high)}, ${d.n} cases).`,
    };
  }
  return {
    tone: 'unclear',
    text: `No clear difference on ${label}: ${signed(d.mean)}, the 95 % interval ${signed(d.low)} to ${signed(d.high)} holds zero (${d.n} cases).`,
  };
}

/** The knobs the comparison form offers (a subset of config.json `recall`). */
export interface Knobs {
  use_vectors: boolean;
  use_recognizer: boolean;
  relevance: number;
  activation: number;
  retrievability: number;
  salience: number;
}

/** The engine's defaults (engine/config.ts), the starting point of both sides. */
export const DEFAULT_KNOBS: Knobs = {
  use_vectors: true,
  use_recognizer: true,
  relevance: 0.75,
  activation: 0.08,
  retrievability: 0.07,
  salience: 0.05,
};

/** Only what differs from the defaults goes to the engine (the label then names it). */
export function knobsToConfig(k: Knobs): EvalConfig {
  const config: EvalConfig = {};
  if (k.use_vectors !== DEFAULT_KNOBS.use_vectors) config.use_vectors = k.use_vectors;
  if (k.use_recognizer !== DEFAULT_KNOBS.use_recognizer) config.use_recognizer = k.use_recognizer;
  const weights: NonNullable<EvalConfig['weights']> = {};
  for (const key of ['relevance', 'activation', 'retrievability', 'salience'] as const) {
    if (k[key] !== DEFAULT_KNOBS[key]) weights[key] = k[key];
  }
  if (Object.keys(weights).length > 0) config.weights = weights;
  return config;
}

export function estimateOf(summary: EvalSummary, key: MetricKey): EvalEstimate {
  return summary[key];
}
