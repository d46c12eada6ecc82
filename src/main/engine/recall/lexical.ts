// Lexical candidates from FTS5: BM25 over title, content, tags and identifier parts,
// ordered by rank with a LIMIT, tier by tier ("all terms", then "all but one", down to
// the minimum-should-match floor). Filters apply in the same query so a LIMIT is never
// spent on memories the caller may not see.
import type { Db } from '../store/database';
import { FTS_WEIGHTS } from '../store/ftsIndex';
import { stmt } from '../store/statements';
import { queryTiers, type QueryUnit } from './terms';

export interface LexicalHit {
  rid: number;
  /** −bm25 (higher is better). */
  bm25: number;
  /** How many query units the memory matched at least. */
  matched: number;
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
): LexicalResult {
  const tiers = queryTiers(units);
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
      hits.push({ rid: row.rid, bm25: -row.rank, matched: tier.required });
      if (hits.length >= limit) break;
    }
  }
  return { hits, units: units.length, tiersRun };
}
