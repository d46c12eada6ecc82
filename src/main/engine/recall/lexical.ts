// Lexical candidates from FTS5: BM25 over title, content, tags and identifier parts for
// every query term, with term coverage, the exact phrase and proximity as boosts — never
// as filters, so a memory that matches some of the words still ranks, below those that
// match more. Fast path first: the query quoted word for word, then all terms together;
// only when those do not fill the candidate list does the any-term query run, over the
// terms rare enough to rank cheaply (a term in half the store would make FTS5 score half
// the store; it still counts, through coverage). Filters apply inside each query so a
// LIMIT is never spent on memories the caller may not see.
import type { Db } from '../store/database';
import { FTS_WEIGHTS } from '../store/ftsIndex';
import { stmt } from '../store/statements';
import type { QueryUnit } from './terms';

export interface LexicalHit {
  rid: number;
  /** −bm25 (higher is better), as FTS5 computes it over the query's terms. */
  bm25: number;
  /** How many query units the memory contains. */
  matched: number;
  /** Share of the query's IDF mass it contains (0–1): rare words count more than common ones. */
  coverage: number;
  /** It contains the query word for word. */
  phrase?: boolean;
  /** Share of neighbouring query-unit pairs found close together in it (0–1). */
  near: number;
  /** bm25 with the coverage, phrase and proximity boosts: the order of the branch. */
  score: number;
}

export interface Filter {
  sql: string;
  params: unknown[];
}

export interface LexicalResult {
  hits: LexicalHit[];
  units: number;
  /** The ranked queries that were run (phrase, all terms, any term), for explanations. */
  tiersRun: number;
  /**
   * Inverse document frequency per unit, in query order, when it was measured: empty on
   * the fast path, where some memories hold every unit.
   */
  idf: number[];
  /** Share of the query's IDF mass in units no memory holds at all (0–1). */
  absent: number;
}

/** How much full coverage multiplies a memory's BM25 by (half coverage: half of it). */
export const COVERAGE_BOOST = 0.5;
/** Added for full coverage whatever the BM25: in a small store FTS5's IDF is near zero. */
export const COVERAGE_FLOOR = 1;
/** Containing the query word for word. */
export const PHRASE_BOOST = 0.5;
/** Every neighbouring pair of query words within NEAR_DISTANCE tokens. */
export const NEAR_BOOST = 0.25;
const NEAR_DISTANCE = 8;
/** Proximity is tested on this many of the best candidates. */
const NEAR_TOP = 10;
/**
 * A unit's matches are read up to this many: below it its document frequency is exact
 * and its matches are known; above it, the frequency is estimated from how far into the
 * store (by row) the first ones reach.
 */
const DF_READ = 512;
/** Rows the any-term query may have to score, summed over its terms (about 1 µs each). */
const ANY_TERM_ROWS = 20_000;
/** Looking one candidate up by rowid costs about this many rows read (~9 µs vs ~0.15 µs). */
const SCAN_PER_LOOKUP = 50;

/**
 * Inverse document frequency, always positive (BM25's as Lucene smooths it): a word in
 * most memories still counts a little, and a store of three memories still tells a rare
 * word from a common one (FTS5's own IDF is ~0 for any word in half of the rows).
 */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

function inList(rids: readonly number[]): string {
  return rids.map(() => '?').join(', ');
}

/** Frequencies and IDF weights of a query's units, read once per recall when needed. */
interface Measured {
  stats: UnitStats[];
  weights: number[];
  total: number;
}

interface UnitStats {
  /** Rows matching the unit (exact up to DF_READ, else estimated). */
  df: number;
  /** Every matching row, when there are at most DF_READ. */
  rows: Set<number> | null;
}

function unitStats(db: Db, unit: QueryUnit, maxRid: number): UnitStats {
  const rows = stmt(db, 'SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?')
    .pluck()
    .all(unit.expr, DF_READ + 1) as number[];
  if (rows.length <= DF_READ) return { df: rows.length, rows: new Set(rows) };
  // Matches come in rowid order: the density of the first ones stands for the rest.
  const last = rows[rows.length - 1] as number;
  return { df: Math.round((rows.length * maxRid) / Math.max(1, last)), rows: null };
}

/** Which of `rids` match an FTS5 expression: read all its matches, or look each up. */
function matching(db: Db, expr: string, rids: readonly number[], df: number): Set<number> {
  if (rids.length === 0) return new Set();
  if (df <= SCAN_PER_LOOKUP * rids.length) {
    const wanted = new Set(rids);
    const all = stmt(db, 'SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?')
      .pluck()
      .all(expr) as number[];
    return new Set(all.filter((rid) => wanted.has(rid)));
  }
  // FTS5 evaluates `rowid IN (…)` as one seek per value.
  const rows = stmt(
    db,
    `SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? AND rowid IN (${inList(rids)})`,
  )
    .pluck()
    .all(expr, ...rids) as number[];
  return new Set(rows);
}

/** A unit NEAR can take: a plain quoted word or phrase (not an OR of spellings). */
const simplePhrase = (u: QueryUnit) => /^"(?:[^"]|"")*"$/.test(u.expr);

export function lexicalSearch(
  db: Db,
  units: QueryUnit[],
  filter: Filter,
  limit: number,
  phrase: string | null = null,
): LexicalResult {
  const n = units.length;
  if (n === 0) return { hits: [], units: 0, tiersRun: 0, idf: [], absent: 0 };
  // Frequencies (a capped read per unit) are needed only when not every candidate holds
  // every unit: the fast path, where the phrase and all-terms queries fill the branch,
  // skips them.
  const cache: { measured: Measured | null } = { measured: null };
  const measure = (): Measured => {
    if (!cache.measured) {
      const { live, maxRid } = storeSize(db);
      const stats = units.map((u) => unitStats(db, u, maxRid));
      const weights = stats.map((st) => idf(live, Math.min(live, st.df)));
      cache.measured = { stats, weights, total: weights.reduce((a, b) => a + b, 0) };
    }
    return cache.measured;
  };

  const found = new Map<number, { bm25: number; all: boolean; phrase: boolean }>();
  let tiersRun = 0;
  const run = (match: string, cap: number, all: boolean, isPhrase: boolean) => {
    tiersRun++;
    const rows = stmt(
      db,
      `SELECT f.rowid AS rid, bm25(memory_fts, ${FTS_WEIGHTS}) AS rank
         FROM memory_fts f JOIN memory m ON m.rid = f.rowid
        WHERE memory_fts MATCH ? AND ${filter.sql}
        ORDER BY rank LIMIT ?`,
    ).all(match, ...filter.params, cap + found.size) as { rid: number; rank: number }[];
    for (const row of rows) {
      const seen = found.get(row.rid);
      if (seen) {
        // A phrase match's BM25 treats the phrase as one term; the all-terms query scores
        // it like every other candidate, so that score replaces it.
        if (seen.phrase && !isPhrase) seen.bm25 = -row.rank;
        continue;
      }
      if (found.size >= cap) break;
      found.set(row.rid, { bm25: -row.rank, all, phrase: isPhrase });
    }
  };
  // The phrase holds every word of the query, so its matches hold every unit.
  if (phrase) run(phrase, limit, true, true);
  run(
    n === 1 ? (units[0] as QueryUnit).expr : units.map((u) => u.expr).join(' AND '),
    limit,
    true,
    false,
  );
  if (found.size < limit && n > 1) {
    const { stats } = measure();
    // Not enough memories hold every term: rank those holding any, by BM25 over the
    // rarer terms (the rarest always), as many as ANY_TERM_ROWS lets FTS5 score.
    const order = units.map((_, i) => i).filter((i) => (stats[i] as UnitStats).df > 0);
    order.sort((a, b) => (stats[a] as UnitStats).df - (stats[b] as UnitStats).df);
    const chosen: number[] = [];
    let rows = 0;
    for (const i of order) {
      const df = (stats[i] as UnitStats).df;
      if (chosen.length > 0 && rows + df > ANY_TERM_ROWS) continue;
      chosen.push(i);
      rows += df;
    }
    if (chosen.length > 0)
      run(chosen.map((i) => (units[i] as QueryUnit).expr).join(' OR '), limit, false, false);
  }

  // Which units each any-term match holds: known for rare units, looked up for common ones.
  const partial = [...found.entries()].filter(([, f]) => !f.all).map(([rid]) => rid);
  const holds = new Map<number, boolean[]>(
    partial.map((rid) => [rid, new Array<boolean>(n).fill(false)]),
  );
  if (partial.length > 0) {
    const { stats } = measure();
    units.forEach((u, i) => {
      const s = stats[i] as UnitStats;
      const hit = s.rows ?? matching(db, u.expr, partial, s.df);
      for (const rid of partial) if (hit.has(rid)) (holds.get(rid) as boolean[])[i] = true;
    });
  }
  const holdsUnit = (rid: number, i: number) => {
    const h = holds.get(rid);
    return h ? (h[i] as boolean) : true;
  };

  // Coverage first: it orders the branch before proximity reorders its head.
  const coverageOf = new Map<number, { matched: number; coverage: number }>();
  for (const [rid, f] of found) {
    if (f.all) {
      coverageOf.set(rid, { matched: n, coverage: 1 });
      continue;
    }
    const { weights, total } = measure();
    let matched = 0;
    let w = 0;
    for (let i = 0; i < n; i++) {
      if (!holdsUnit(rid, i)) continue;
      matched++;
      w += weights[i] as number;
    }
    coverageOf.set(rid, { matched, coverage: total > 0 ? w / total : 0 });
  }
  const base = (rid: number) => {
    const f = found.get(rid) as { bm25: number; phrase: boolean };
    const { coverage } = coverageOf.get(rid) as { coverage: number };
    return (
      (f.bm25 * (1 + COVERAGE_BOOST * coverage) + COVERAGE_FLOOR * coverage) *
      (f.phrase ? 1 + PHRASE_BOOST : 1)
    );
  };

  // Proximity: neighbouring query words within a few tokens of each other, looked for in
  // the head of the branch only (a NEAR test reads positions: ~30 µs a memory).
  const head = [...found.keys()].sort((a, b) => base(b) - base(a)).slice(0, NEAR_TOP);
  const nearCount = new Map<number, number>();
  let pairs = 0;
  for (let i = 0; i + 1 < n; i++) {
    const a = units[i] as QueryUnit;
    const b = units[i + 1] as QueryUnit;
    if (!simplePhrase(a) || !simplePhrase(b)) continue;
    pairs++;
    const both = head.filter((rid) => holdsUnit(rid, i) && holdsUnit(rid, i + 1));
    for (const rid of matching(
      db,
      `NEAR(${a.expr} ${b.expr}, ${NEAR_DISTANCE})`,
      both,
      Number.MAX_SAFE_INTEGER,
    ))
      nearCount.set(rid, (nearCount.get(rid) ?? 0) + 1);
  }

  const hits: LexicalHit[] = [];
  for (const [rid, f] of found) {
    const { matched, coverage } = coverageOf.get(rid) as { matched: number; coverage: number };
    const near = pairs > 0 ? (nearCount.get(rid) ?? 0) / pairs : 0;
    hits.push({
      rid,
      bm25: f.bm25,
      matched,
      coverage,
      near,
      score: base(rid) * (1 + NEAR_BOOST * near),
      ...(f.phrase ? { phrase: true } : {}),
    });
  }
  hits.sort((a, b) => b.score - a.score || a.rid - b.rid);
  // Some memory holds every unit (then none is absent), or the frequencies were measured.
  const m = found.size === 0 || hits.some((h) => h.coverage < 1) ? measure() : cache.measured;
  const absent =
    m && m.total > 0
      ? m.weights.reduce((a, w, i) => a + ((m.stats[i] as UnitStats).df === 0 ? w : 0), 0) / m.total
      : 0;
  return { hits, units: n, tiersRun, idf: m ? m.weights : [], absent };
}

/** Live memories (for IDF) and the highest row id, each read from an index in microseconds. */
export function storeSize(db: Db): { live: number; maxRid: number } {
  const all = stmt(db, 'SELECT COUNT(*) FROM memory').pluck().get() as number;
  const gone = stmt(db, 'SELECT COUNT(*) FROM memory WHERE deleted_at IS NOT NULL')
    .pluck()
    .get() as number;
  const maxRid = (stmt(db, 'SELECT MAX(rid) FROM memory').pluck().get() as number | null) ?? 0;
  return { live: Math.max(1, all - gone), maxRid };
}
