// How a result's final score is made — the terms of the blend as the engine's ranking
// computed them (the verbose breakdown's `contributions`; docs/heuristics.md, "6.
// Ranking": nothing of the formula is restated here) — and the answer's abstention
// decision in words, from the trace's abstention stage.
import type {
  RecallHit,
  RecallResult,
  ScoreBreakdown,
  ScoreContribution,
} from '../../../../shared/api';

const TERM_LABELS: Record<ScoreContribution['term'], string> = {
  relevance: 'Relevance',
  activation: 'Activation',
  retrievability: 'Retrievability',
  salience: 'Salience',
  pinned: 'Pinned',
};

export interface Contribution {
  key: ScoreContribution['term'];
  label: string;
  /** The input on its 0–1 scale. */
  input: number;
  weight: number;
  /** weight × input: this part's share of the final score. */
  value: number;
}

/** The terms of the final score as the engine's ranking computed them, labelled. */
export function contributionsOf(breakdown: ScoreBreakdown): Contribution[] {
  return breakdown.contributions.map((c) => ({
    key: c.term,
    label: TERM_LABELS[c.term],
    input: c.input,
    weight: c.weight,
    value: c.value,
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
          : `${two(b.activation)} → ${two(b.contributions.find((c) => c.term === 'activation')?.input ?? 0)}`,
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
