// Scoring of the quality lab's cases: what one recall returned against what a person
// marked (expected, wrong), and the summary of a run with 95 % bootstrap intervals.
// Pure functions over ids; the database and the recall pipeline stay in lab.ts.
import type {
  EvalConfig,
  EvalDifference,
  EvalEstimate,
  EvalOutcome,
  EvalSummary,
} from '../../../shared/eval';
import { bootstrap, ndcgAt, pairedDifference, recallAt, reciprocalRank } from './metrics';

/** Results that count: the quality lab scores the top 10. */
export const EVAL_DEPTH = 10;

export interface CaseForScoring {
  id: string;
  /** Expected memories still live, in the order they were marked (the first counts most). */
  expected: string[];
  /** Memories marked wrong that are still live. */
  wrong: string[];
}

export function scoreCase(c: CaseForScoring, returned: string[]): EvalOutcome {
  const top = returned.slice(0, EVAL_DEPTH);
  const outcome = {
    id: c.id,
    category: 'marked',
    relevant: c.expected,
    returned: top,
    abstained: top.length === 0,
  };
  const answerable = c.expected.length > 0;
  const topSet = new Set(top);
  return {
    case_id: c.id,
    returned: top,
    recall10: answerable ? recallAt(outcome, EVAL_DEPTH) : null,
    rr: answerable ? reciprocalRank(outcome) : null,
    ndcg10: answerable ? ndcgAt(outcome, EVAL_DEPTH) : null,
    wrong10:
      c.wrong.length > 0 ? c.wrong.filter((id) => topSet.has(id)).length / c.wrong.length : null,
  };
}

const present = (xs: (number | null)[]): number[] => xs.filter((x): x is number => x !== null);

const rounded = (e: { mean: number; low: number; high: number; n: number }): EvalEstimate => ({
  mean: round(e.mean),
  low: round(e.low),
  high: round(e.high),
  n: e.n,
});

const round = (x: number) => Math.round(x * 10_000) / 10_000;

export function summarizeOutcomes(outcomes: EvalOutcome[], skipped: number): EvalSummary {
  return {
    recall10: rounded(bootstrap(present(outcomes.map((o) => o.recall10)))),
    mrr: rounded(bootstrap(present(outcomes.map((o) => o.rr)))),
    ndcg10: rounded(bootstrap(present(outcomes.map((o) => o.ndcg10)))),
    wrong10: rounded(bootstrap(present(outcomes.map((o) => o.wrong10)))),
    skipped,
  };
}

/** `b − a` per metric, paired over the cases both runs scored. */
export function differenceOf(a: EvalOutcome[], b: EvalOutcome[]): EvalDifference {
  const byCase = new Map(b.map((o) => [o.case_id, o]));
  const paired = (pick: (o: EvalOutcome) => number | null) => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const o of a) {
      const other = byCase.get(o.case_id);
      const x = pick(o);
      const y = other ? pick(other) : null;
      if (x === null || y === null) continue;
      xs.push(x);
      ys.push(y);
    }
    const d = pairedDifference(xs, ys);
    return { ...rounded(d), mde: Number.isFinite(d.mde) ? round(d.mde) : null };
  };
  return {
    recall10: paired((o) => o.recall10),
    mrr: paired((o) => o.rr),
    ndcg10: paired((o) => o.ndcg10),
    wrong10: paired((o) => o.wrong10),
  };
}

/** A short human label for a set of ranking changes (`store configuration` for none). */
export function describeConfig(config: EvalConfig): string {
  const parts: string[] = [];
  if (config.use_vectors !== undefined) parts.push(`vectors ${config.use_vectors ? 'on' : 'off'}`);
  if (config.use_recognizer !== undefined)
    parts.push(`recogniser ${config.use_recognizer ? 'on' : 'off'}`);
  const weights = Object.entries(config.weights ?? {}).filter(([, v]) => v !== undefined);
  if (weights.length > 0) parts.push(`weights ${weights.map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const key of [
    'fusion',
    'rrf_k',
    'vector_weight',
    'spelling_weight',
    'neighbour_weight',
    'speaker_boost',
    'time_boost',
    'spread_hops',
    'mmr_lambda',
  ] as const) {
    if (config[key] !== undefined) parts.push(`${key} ${config[key]}`);
  }
  return parts.length === 0 ? 'store configuration' : parts.join('; ');
}
