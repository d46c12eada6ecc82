// Finding contradiction candidates for memories: each is compared with its nearest
// existing memories — by words (BM25 over its subject words) and, when its vector is
// there, by meaning — with the detector of detect.ts. Facts are short: a long memory (an
// ingested chunk) is compared sentence by sentence, only with the sentences that share
// its subject. Conversation turns and episodes are records of what happened, and schemas
// summaries of other memories, not claims about what holds: they are left out; so are
// forgotten, quarantined and superseded ones.
// Two memories are compared only when the same readers see both (both shared, or both
// private to the same owner).
import { comparePair, SAME_SUBJECT, subjectWords } from './detect';
import { startOf, type Candidate } from './store';
import type { MemoryRow } from '../memory/model';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';

/** A memory longer than this is not a single fact: it is not compared as a whole. */
export const FACT_MAX_CHARS = 400;
/** Neighbours compared, from each side (words, meaning). */
const NEAREST = 8;
/** Below this the detector's word is not enough to bother a person. */
export const MIN_CONFIDENCE = 0.5;
/** Candidates kept for one memory, the surest first. */
const PER_MEMORY = 3;
/** Sentences of a long neighbour looked at, at most. */
const SENTENCES_MAX = 60;

/** An SQL condition on `alias`: a memory that can take part in a conflict. */
export function eligible(alias = 'm'): string {
  return `${alias}.deleted_at IS NULL AND ${alias}.trust = 'trusted' AND ${alias}.session IS NULL
    AND ${alias}.kind NOT IN ('episodic', 'schematic')
    AND NOT EXISTS (SELECT 1 FROM link sl JOIN memory sm ON sm.rid = sl.src
                     WHERE sl.dst = ${alias}.rid AND sl.type = 'supersedes' AND sm.deleted_at IS NULL)`;
}

export type FactRow = Pick<
  MemoryRow,
  | 'rid'
  | 'content'
  | 'source'
  | 'visibility'
  | 'owner'
  | 'valid_from'
  | 'occurred_at'
  | 'created_at'
>;

const FACT_COLUMNS =
  'm.rid, m.content, m.source, m.visibility, m.owner, m.valid_from, m.occurred_at, m.created_at';

/** Whether a memory is compared at all (eligible and short enough to be one fact). */
export function isFact(store: OpenStore, rid: number): FactRow | null {
  const row = stmt(
    store.db,
    `SELECT ${FACT_COLUMNS} FROM memory m WHERE m.rid = ? AND ${eligible()}`,
  ).get(rid) as FactRow | undefined;
  // A chunk of an ingested file is a passage, not a fact: it is compared, sentence by
  // sentence, when a fact is written near it, not as a fact of its own.
  return row && row.content.length <= FACT_MAX_CHARS && !row.source.startsWith('file:')
    ? row
    : null;
}

const sentences = (text: string) =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 8);

export interface FindOptions {
  /** Nearest memories by meaning (rids), when the memory has a vector; none otherwise. */
  nearByMeaning?: ((rid: number, k: number) => number[]) | undefined;
  /** Below this detector confidence a pair is not a candidate (default MIN_CONFIDENCE). */
  minConfidence?: number | undefined;
}

/** The candidates for one memory against what the store holds. */
export function candidatesFor(
  store: OpenStore,
  fact: FactRow,
  opts: FindOptions = {},
): Candidate[] {
  const subject = [...subjectWords(fact.content)].filter((w) => w.length > 1);
  if (subject.length === 0) return [];
  // The longest subject words first: the rarer, the better a neighbour query.
  const terms = subject.sort((a, b) => b.length - a.length).slice(0, 12);
  const match = terms.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
  const same =
    fact.visibility === 'shared'
      ? `m.visibility = 'shared'`
      : `m.visibility = 'private' AND m.owner IS ?`;
  const sameParams = fact.visibility === 'shared' ? [] : [fact.owner];
  const byWords = stmt(
    store.db,
    `SELECT ${FACT_COLUMNS} FROM memory_fts f JOIN memory m ON m.rid = f.rowid
      WHERE memory_fts MATCH ? AND m.rid != ? AND ${same} AND ${eligible()}
      ORDER BY bm25(memory_fts) LIMIT ?`,
  ).all(match, fact.rid, ...sameParams, NEAREST) as FactRow[];
  const seen = new Set(byWords.map((r) => r.rid));
  const meaning = (opts.nearByMeaning?.(fact.rid, NEAREST) ?? []).filter(
    (rid) => rid !== fact.rid && !seen.has(rid),
  );
  const byMeaning = meaning.length
    ? (stmt(
        store.db,
        `SELECT ${FACT_COLUMNS} FROM memory m
          WHERE m.rid IN (SELECT value FROM json_each(?)) AND ${same} AND ${eligible()}`,
      ).all(JSON.stringify(meaning), ...sameParams) as FactRow[])
    : [];

  const mine = new Set(subject);
  const found: Candidate[] = [];
  for (const other of [...byWords, ...byMeaning]) {
    // The one that began to hold first is the older, whichever was written first.
    const factFirst =
      startOf(fact) < startOf(other) || (startOf(fact) === startOf(other) && fact.rid < other.rid);
    const texts =
      other.content.length <= FACT_MAX_CHARS && !other.source.startsWith('file:')
        ? [other.content]
        : sentences(other.content)
            .slice(0, SENTENCES_MAX * 4)
            .filter((s) => {
              let shared = 0;
              for (const w of subjectWords(s)) if (mine.has(w)) shared++;
              return shared >= Math.min(2, mine.size);
            })
            .slice(0, SENTENCES_MAX);
    let best: Candidate | null = null;
    for (const text of texts) {
      const cmp = factFirst ? comparePair(fact.content, text) : comparePair(text, fact.content);
      if (cmp.relation !== 'contradicting' && cmp.relation !== 'updating') continue;
      if (cmp.subject < SAME_SUBJECT || cmp.confidence < (opts.minConfidence ?? MIN_CONFIDENCE))
        continue;
      if (!best || cmp.confidence > best.confidence) {
        best = {
          older: factFirst ? fact.rid : other.rid,
          newer: factFirst ? other.rid : fact.rid,
          relation: cmp.relation,
          confidence: cmp.confidence,
          spans: cmp.spans,
        };
      }
    }
    if (best) found.push(best);
  }
  return found.sort((a, b) => b.confidence - a.confidence).slice(0, PER_MEMORY);
}
