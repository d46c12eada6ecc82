// Lexical candidates from FTS5: BM25 over title, content, tags and identifier parts,
// ordered by rank with a LIMIT, tier by tier ("all terms", then "all but one", down to
// the minimum-should-match floor), after a first tier for the query quoted word for word
// (a memory that contains the very phrase asked for outranks one that merely has its
// words). Filters apply in the same query so a LIMIT is never spent on memories the
// caller may not see.
import type { Db } from '../store/database';
import { FTS_WEIGHTS } from '../store/ftsIndex';
import { stmt } from '../store/statements';
import { queryTiers, type QueryTier, type QueryUnit } from './terms';

export interface LexicalHit {
  rid: number;
  /** −bm25 (higher is better). */
  bm25: number;
  /** How many query units the memory matched at least. */
  matched: number;
  /** It contains the query word for word. */
  phrase?: boolean;
}

export interface Filter {
  sql: string;
  params: unknown[];
}

export interface LexicalResult {
  hits: LexicalHit[];
  units: number;
  /** The tiers that were run, for explanations. */
  tiersRun: number;
}

/**
 * Runs the tiers strictest first until `limit` memories are found. Earlier tiers rank
 * above later ones whatever their BM25, so a memory with every term comes first.
 */
export function lexicalSearch(
  db: Db,
  units: QueryUnit[],
  filter: Filter,
  limit: number,
  phrase: string | null = null,
): LexicalResult {
  const tiers: (QueryTier & { phrase?: boolean })[] = queryTiers(units);
  // The phrase holds every word of the query, so its matches hold every unit.
  if (phrase && units.length > 0)
    tiers.unshift({ required: units.length, match: phrase, phrase: true });
  const hits: LexicalHit[] = [];
  const seen = new Set<number>();
  let tiersRun = 0;
  for (const tier of tiers) {
    if (hits.length >= limit) break;
    tiersRun++;
    const rows = stmt(
      db,
      `SELECT f.rowid AS rid, bm25(memory_fts, ${FTS_WEIGHTS}) AS rank
         FROM memory_fts f JOIN memory m ON m.rid = f.rowid
        WHERE memory_fts MATCH ? AND ${filter.sql}
        ORDER BY rank LIMIT ?`,
    ).all(tier.match, ...filter.params, limit + seen.size) as { rid: number; rank: number }[];
    for (const row of rows) {
      if (seen.has(row.rid)) continue;
      seen.add(row.rid);
      hits.push({
        rid: row.rid,
        bm25: -row.rank,
        matched: tier.required,
        ...(tier.phrase ? { phrase: true } : {}),
      });
      if (hits.length >= limit) break;
    }
  }
  return { hits, units: units.length, tiersRun };
}
