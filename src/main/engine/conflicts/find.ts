// Finding contradiction candidates for memories: each is compared with its nearest
// existing memories — by words (BM25 over its subject words) and, when its vector is
// there, by meaning — with the detector of detect.ts. Facts are short: a long memory (an
// ingested chunk) is compared sentence by sentence, only with the sentences that share
// its subject. Conversation turns and episodes are records of what happened, and schemas
// summaries of other memories, not claims about what holds: they are left out; so are
// forgotten, quarantined and superseded ones.
// Two memories are compared only when the same readers see both (both shared, or both
// private to the same owner).
import {
  comparePair,
  overlap,
  rawSubjectWords,
  SAME_SUBJECT,
  sayOneWay,
  stem,
  subjectWords,
} from './detect';
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

/**
 * The word queries that find a memory's neighbours, the narrowest first. Facts that
 * disagree share most of their subject words, so the rarest of them find the neighbours:
 * first those holding all of the few rarest (as many as keep the expected matches small),
 * then those holding any of the rare ones (while their postings stay under a budget).
 * How rare a word is comes from the full-text index (and is remembered a while), so a
 * query never ranks thousands of rows of common words, however large the store.
 */
export function neighbourQueries(store: OpenStore, text: string): string[] {
  const total = Math.max(1, memoryCount(store));
  const ranked: { raw: string; df: number }[] = [];
  const seen = new Set<string>();
  for (const raw of rawSubjectWords(text)) {
    // Words the index keeps as one token; a path or a hyphenated word is several.
    if (raw.length < 2 || !/^[\p{L}\p{N}]+$/u.test(raw)) continue;
    const key = stem(raw.normalize('NFD').replace(/\p{M}/gu, ''));
    if (seen.has(key)) continue;
    seen.add(key);
    const df = docFrequency(store, key);
    // Only this memory holds it (or the index spells it otherwise): it finds no neighbour.
    if (df > 1) ranked.push({ raw, df });
  }
  if (ranked.length === 0) return [];
  ranked.sort((a, b) => a.df - b.df);
  const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;
  const queries: string[] = [];
  // All of the rarest: words added while more than EXPECTED rows would still match.
  const all: string[] = [];
  let expected = total;
  for (const { raw, df } of ranked) {
    if (all.length >= 2 && expected <= EXPECTED) break;
    if (all.length >= 6) break;
    all.push(quote(raw));
    expected *= df / total;
  }
  if (all.length > 1) queries.push(all.join(' AND '));
  // Any of the rare ones, while their postings stay under the budget.
  const any: string[] = [];
  let postings = 0;
  for (const { raw, df } of ranked) {
    if (any.length >= 12 || postings + df > POSTINGS_BUDGET) break;
    any.push(quote(raw));
    postings += df;
  }
  if (any.length) queries.push(any.join(' OR '));
  return queries;
}

/** Rows expected to hold all the words of the narrow query: few enough to rank. */
const EXPECTED = 40;
/** Index entries the wide query may read: a store's common words are left out. */
const POSTINGS_BUDGET = 1_000;
/** A word held by this many memories has its count remembered (it moves slowly)… */
const DF_CACHED = 32;
/** …for this long. */
const DF_TTL_MS = 60_000;

const frequencies = new WeakMap<
  OpenStore['db'],
  { at: number; count: number; df: Map<string, number> }
>();

function cacheOf(store: OpenStore) {
  const now = Date.now();
  let c = frequencies.get(store.db);
  if (!c || now - c.at > DF_TTL_MS || c.df.size > 20_000) {
    store.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.loci_fts_terms USING fts5vocab(main, 'memory_fts', 'row')`,
    );
    c = {
      at: now,
      count: stmt(store.db, 'SELECT COUNT(*) FROM memory WHERE deleted_at IS NULL')
        .pluck()
        .get() as number,
      df: new Map(),
    };
    frequencies.set(store.db, c);
  }
  return c;
}

export function memoryCount(store: OpenStore): number {
  return cacheOf(store).count;
}

/** How many memories hold a word as the full-text index spells it (stemmed, no accents). */
export function wordDocFrequency(store: OpenStore, word: string): number {
  return docFrequency(store, stem(word.normalize('NFD').replace(/\p{M}/gu, '')));
}

/** How many memories hold a (stemmed) word, from the index's vocabulary. */
function docFrequency(store: OpenStore, key: string): number {
  const c = cacheOf(store);
  let df = c.df.get(key);
  if (df === undefined) {
    df =
      (stmt(store.db, 'SELECT doc FROM temp.loci_fts_terms WHERE term = ?').pluck().get(key) as
        number | undefined) ?? 0;
    // A rare word's count moves with the next write that holds it (the one a conflict is
    // about): only a common word's is kept.
    if (df >= DF_CACHED) c.df.set(key, df);
  }
  return df;
}

/** The candidates for one memory against what the store holds. */
export function candidatesFor(
  store: OpenStore,
  fact: FactRow,
  opts: FindOptions = {},
): Candidate[] {
  const subject = [...subjectWords(fact.content)].filter((w) => w.length > 1);
  if (subject.length === 0) return [];
  const same =
    fact.visibility === 'shared'
      ? `m.visibility = 'shared'`
      : `m.visibility = 'private' AND m.owner IS ?`;
  const sameParams = fact.visibility === 'shared' ? [] : [fact.owner];
  const byWords: FactRow[] = [];
  for (const match of neighbourQueries(store, fact.content)) {
    const rows = stmt(
      store.db,
      `SELECT ${FACT_COLUMNS} FROM memory m
        WHERE m.rid IN (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rank LIMIT ?)
          AND m.rid != ? AND ${same} AND ${eligible()}`,
    ).all(match, NEAREST * 2, fact.rid, ...sameParams) as FactRow[];
    for (const r of rows) {
      if (byWords.length < NEAREST && !byWords.some((b) => b.rid === r.rid)) byWords.push(r);
    }
    if (byWords.length >= NEAREST) break;
  }
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
  // What comparePair would find first, found once: a text that shares too few subject
  // words is passed over before the whole comparison.
  const factSubject = subjectWords(sayOneWay(fact.content));
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
      if (overlap(factSubject, subjectWords(sayOneWay(text))) < SAME_SUBJECT) continue;
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
