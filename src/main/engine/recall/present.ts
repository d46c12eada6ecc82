// What a recall answer says of each memory it returns (DESIGN.md §6, step 8): the hit
// as the contract shapes it (compact or verbose, with its flags and conversation fields),
// the one-line `why`, the per-branch breakdown, and the answer's confidence in words.
// Pure shaping: the ranking itself is in recall.ts and candidates.ts.
import type { RecallHit, RecallResult, ScoreBreakdown } from '../../../shared/api';
import { iso, parseTags, type MemoryRow } from '../memory/model';
import { injectionFlags } from '../write/injection';
import { truncateText } from './budget';
import type { Candidate } from './candidates';
import type { Evidence } from './confidence';
import type { ParsedRecall } from './run';
import { scoreParts, type Weights } from './ranking';

/** Compact answers carry about this many characters of each memory. */
export const COMPACT_CHARS = 320;

export const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

export function why(c: Candidate, units: number, now: number, semantic: boolean): string {
  const parts: string[] = [];
  if (c.lexical) {
    parts.push(
      c.lexical.phrase
        ? 'contains the query word for word'
        : c.lexical.matched === units
          ? units === 1
            ? 'matched the query term'
            : `matched all ${units} query terms`
          : `matched ${c.lexical.matched} of ${units} query terms`,
    );
  }
  if (c.vector)
    parts.push(
      `${semantic ? 'similar in meaning' : 'similar in spelling'} (${c.vector.similarity.toFixed(2)})`,
    );
  if (c.speaker) parts.push(`said by ${(c.row as MemoryRow).speaker}, whom the query names`);
  if (c.time >= 0.5) parts.push('from the time the query names');
  if (c.neighbour > 0 && (c.neighbour >= c.fused || (!c.lexical && !c.vector)))
    parts.push('said next to a match in its session');
  if (c.spread > 0 && !c.lexical && !c.vector && c.neighbour === 0)
    parts.push('linked to other results');
  else if (c.spread > 0.05) parts.push('also linked to other results');
  const row = c.row as MemoryRow;
  if (row.valid_to !== null && row.valid_to <= now) parts.push(`valid until ${iso(row.valid_to)}`);
  return parts.join('; ');
}

export function answerConfidence(e: Evidence): RecallResult['confidence'] {
  return { value: round(e.confidence, 3), level: e.level, basis: e.basis };
}

export function breakdown(c: Candidate, units: number, weights: Weights): ScoreBreakdown {
  const row = c.row as MemoryRow;
  const parts = scoreParts(
    {
      fused: c.relevance,
      spread: c.spread,
      activation: c.activation,
      retrievability: c.retrievability,
      salience: row.salience,
      pinned: row.pinned === 1,
    },
    weights,
  );
  return {
    lexical: c.lexical ? round(c.lexical.bm25, 4) : null,
    lexical_rank: c.lexicalRank,
    vector: c.vector ? round(c.vector.similarity, 4) : null,
    vector_rank: c.vectorRank,
    fused: round(c.fused, 4),
    coverage: round(c.lexical?.coverage ?? 0, 4),
    speaker: c.speaker,
    time: round(c.time, 4),
    neighbour: round(c.neighbour, 4),
    relevance: round(c.relevance, 4),
    spread: round(c.spread, 4),
    activation: c.activation === null ? null : round(c.activation, 4),
    retrievability: c.retrievability === null ? null : round(c.retrievability, 4),
    salience: (c.row as MemoryRow).salience,
    matched_terms: c.lexical?.matched ?? 0,
    query_terms: units,
    final: round(c.final, 4),
    contributions: parts.map((p) => ({
      term: p.term,
      input: round(p.input, 4),
      weight: p.weight,
      value: round(p.value, 4),
    })),
  };
}

export function toHit(
  row: MemoryRow,
  args: ParsedRecall,
  scored: { score: number; confidence: number; why: string; breakdown: ScoreBreakdown | null },
): RecallHit {
  const verbose = args.format === 'verbose';
  const body = verbose
    ? { text: row.content, truncated: false }
    : truncateText(row.content, COMPACT_CHARS);
  // Signs of instructions aimed at the reader: always in verbose results, and in compact
  // ones whenever there are any, so an agent is warned by default.
  const flags = injectionFlags(`${row.title}\n${row.content}`);
  return {
    id: row.id,
    title: row.title,
    content: body.text,
    truncated: body.truncated,
    tags: parseTags(row),
    kind: row.kind,
    created_at: iso(row.created_at),
    ...(row.occurred_at !== null ? { occurred_at: iso(row.occurred_at) } : {}),
    ...(row.session !== null ? { session: row.session } : {}),
    ...(row.speaker !== null ? { speaker: row.speaker } : {}),
    score: scored.score,
    confidence: scored.confidence,
    why: scored.why,
    pinned: row.pinned === 1,
    quarantined: row.trust === 'quarantined',
    ...(verbose || flags.length > 0 ? { flags } : {}),
    ...(verbose && scored.breakdown ? { breakdown: scored.breakdown } : {}),
  };
}
