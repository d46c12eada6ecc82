// How a result's final score is made, from its verbose breakdown and the ranking weights
// the trace reports (docs/heuristics.md, "6. Ranking"):
//   final = w_rel·min(1, relevance + spread) + w_act·σ(B + 4) + w_ret·R + w_sal·salience + w_pin·pinned
// where relevance is the fused branches after the conversation signals (speaker, time,
// session neighbours), relative to the best candidate
// and the answer's abstention decision in words, from the trace's abstention stage.
import type { RecallHit, RecallResult, ScoreBreakdown } from '../../../../shared/api';

export interface Weights {
  relevance: number;
  activation: number;
  retrievability: number;
  salience: number;
  pinned: number;
}

/** The documented defaults, for answers without a trace. */
export const DEFAULT_WEIGHTS: Weights = {
  relevance: 0.75,
  activation: 0.08,
  retrievability: 0.07,
  salience: 0.05,
  pinned: 0.05,
};

/** The ranking weights the engine used (the ranking stage's detail), else the defaults. */
export function weightsOf(result: Pick<RecallResult, 'trace'>): Weights {
  const detail = result.trace?.stages.find((s) => s.name === 'ranking')?.detail;
  const w = detail?.weights as Partial<Record<keyof Weights, unknown>> | undefined;
  if (!w) return DEFAULT_WEIGHTS;
  const pick = (k: keyof Weights) =>
    typeof w[k] === 'number' ? (w[k] as number) : DEFAULT_WEIGHTS[k];
  return {
    relevance: pick('relevance'),
    activation: pick('activation'),
    retrievability: pick('retrievability'),
    salience: pick('salience'),
    pinned: pick('pinned'),
  };
}

/** σ(B + 4): ACT-R activation squashed to 0–1 (0 when the memory was never used). */
export function squash(activation: number | null): number {
  return activation === null ? 0 : 1 / (1 + Math.exp(-(activation + 4)));
}

export interface Contribution {
  key: keyof Weights;
  label: string;
  /** The input on its 0–1 scale. */
  input: number;
  weight: number;
  /** weight × input: this part's share of the final score. */
  value: number;
}

export function contributions(
  breakdown: ScoreBreakdown,
  pinned: boolean,
  weights: Weights,
): Contribution[] {
  const parts: [keyof Weights, string, number][] = [
    ['relevance', 'Relevance', Math.min(1, breakdown.relevance + breakdown.spread)],
    ['activation', 'Activation', squash(breakdown.activation)],
    ['retrievability', 'Retrievability', breakdown.retrievability ?? 0],
    ['salience', 'Salience', breakdown.salience],
    ['pinned', 'Pinned', pinned ? 1 : 0],
  ];
  return parts.map(([key, label, input]) => ({
    key,
    label,
    input,
    weight: weights[key],
    value: weights[key] * input,
  }));
}

export interface Decision {
  abstained: boolean;
  /** One sentence on why, for people. */
  reason: string;
  /** Best vector evidence against the bar, when the vector branch ran. */
  gauge: { best: number | null; bar: number; floor: number; calibrated: boolean } | null;
  /** Best IDF-weighted share of the query's words one memory holds (0–1), when traced. */
  coverage: number | null;
}

const two = (n: number) => n.toFixed(2);

/** Why the answer abstained or answered, from the trace's abstention stage. */
export function decisionOf(result: RecallResult): Decision {
  const stages = result.trace?.stages ?? [];
  const recognised = stages.find((s) => s.name === 'recognise');
  if (result.how === 'fastpath') {
    const best = recognised?.detail.best;
    const runner = recognised?.detail.runner_up;
    return {
      abstained: false,
      reason:
        typeof best === 'number' && typeof runner === 'number'
          ? `The query names one memory: recognised at ${two(best)}, ${two(runner)} for the next.`
          : 'The query names one memory: the recogniser answered alone.',
      gauge: null,
      coverage: null,
    };
  }
  const stage = stages.find((s) => s.name === 'abstention');
  const note = result.degraded.find((d) => d.includes('no searchable words'));
  if (!stage) {
    return {
      abstained: result.abstained,
      reason: result.abstained
        ? note
          ? 'The query has no searchable words: nothing to match.'
          : 'Nothing relevant was found.'
        : `${result.results.length} result${result.results.length === 1 ? '' : 's'} cleared the evidence check.`,
      gauge: null,
      coverage: null,
    };
  }
  const d = stage.detail;
  const bar = typeof d.threshold === 'number' ? d.threshold : null;
  const floor = typeof d.floor === 'number' ? d.floor : (bar ?? 0);
  const best = typeof d.best_similarity === 'number' ? d.best_similarity : null;
  const coverage = typeof d.best_coverage === 'number' ? d.best_coverage : null;
  const absent = typeof d.absent === 'number' ? d.absent : 0;
  const calibrated = d.threshold_source === 'calibrated';
  const vectorRan = stages.some((s) => s.name === 'vector' && s.detail.used !== false);
  const barWords =
    bar === null ? '' : `the ${calibrated ? 'calibrated' : 'default'} bar of ${two(bar)}`;
  const c = result.confidence;

  let reason: string;
  if (result.abstained) {
    const words =
      absent >= 0.999
        ? 'No word of the query is in any memory'
        : 'Almost none of the query’s weight is in any memory';
    reason = vectorRan
      ? `${words}, and nothing is near in meaning (best similarity ${best === null ? 'none' : two(best)}, under ${barWords || 'the bar'}).`
      : `${words}, and there is no vector branch.`;
  } else {
    reason = `Confidence ${c.level} (${two(c.value)}): ${c.basis}.${
      c.level === 'low'
        ? ' More likely than not, what was asked is not among these results: a lead to check.'
        : ''
    }`;
  }
  return {
    abstained: result.abstained,
    reason,
    gauge: vectorRan && bar !== null ? { best, bar, floor, calibrated } : null,
    coverage,
  };
}

/** A hit's breakdown rows as label → value text (the verbose per-branch scores). */
export function breakdownRows(hit: RecallHit): { label: string; value: string; hint: string }[] {
  const b = hit.breakdown;
  if (!b) return [];
  const rank = (r: number | null) => (r === null ? '' : ` · rank ${r}`);
  return [
    {
      label: 'Relevance',
      value: two(b.relevance),
      hint: 'The branches fused, with the conversation signals, relative to the best candidate (0–1)',
    },
    {
      label: 'Fused',
      value: two(b.fused),
      hint: 'Lexical and vector scores combined, before the conversation signals',
    },
    {
      label: 'Lexical',
      value:
        b.lexical_rank === null
          ? 'not a lexical match'
          : `${b.matched_terms}/${b.query_terms} terms${rank(b.lexical_rank)}${b.lexical === null ? '' : ` · BM25 ${two(b.lexical)}`}`,
      hint: 'Full-text match over title, content, tags and identifier parts',
    },
    {
      label: 'Coverage',
      value: two(b.coverage),
      hint: 'Share of the query’s IDF weight it holds: rare words count more than common ones',
    },
    {
      label: 'Speaker',
      value: b.speaker ? 'named by the query' : '—',
      hint: 'The query names who said it',
    },
    {
      label: 'Time',
      value: b.time ? two(b.time) : '—',
      hint: 'How well when it happened fits a time the query names (0–1)',
    },
    {
      label: 'Neighbour',
      value: b.neighbour ? two(b.neighbour) : '—',
      hint: 'Relevance lent by a matching turn next to it in its session',
    },
    {
      label: 'Vector similarity',
      value:
        b.vector === null ? 'not a vector neighbour' : `${two(b.vector)}${rank(b.vector_rank)}`,
      hint: 'Cosine similarity of the query and the memory',
    },
    {
      label: 'Spread',
      value: two(b.spread),
      hint: 'Activation reaching it over links from other candidates',
    },
    {
      label: 'Activation',
      value:
        b.activation === null
          ? 'never used'
          : `${two(b.activation)} → ${two(squash(b.activation))}`,
      hint: 'ACT-R base-level activation (recency and frequency of use), squashed to 0–1',
    },
    {
      label: 'Retrievability',
      value: b.retrievability === null ? '—' : two(b.retrievability),
      hint: 'FSRS probability of recall now',
    },
    {
      label: 'Salience',
      value: two(b.salience),
      hint: 'How much the memory mattered when written',
    },
    { label: 'Pinned', value: hit.pinned ? 'yes' : 'no', hint: 'Pinned memories get a bonus' },
  ];
}
