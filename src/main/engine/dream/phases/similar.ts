// Candidate pairs of similar memories for merge and recombine: the most recent
// `max_compared` live, trusted memories (not a dream's own), paired through their rarer
// words (an inverted index, so the work grows with the pairs that share something, not
// with n²), scored by word-set Jaccard. Deterministic: ordered by score, then by rid.
import { stmt } from '../../store/statements';
import type { PhaseContext } from '../types';
import { jaccard, words } from '../text';

export interface Candidate {
  rid: number;
  id: string;
  title: string;
  content: string;
  kind: string;
  pinned: number;
  version: number;
  uses: number;
}

export interface SimilarPair {
  a: Candidate;
  b: Candidate;
  score: number;
}

/** A word in more than this share of memories says little about similarity. */
const COMMON_SHARE = 0.05;
/** Pairs compared per memory, at most (the first by rid, deterministically). */
const PER_WORD_CAP = 200;

export async function similarPairs(
  ctx: PhaseContext,
  minScore: number,
): Promise<{ pairs: SimilarPair[]; examined: number }> {
  const rows = stmt(
    ctx.store.db,
    `SELECT m.rid, m.id, m.title, m.content, m.kind, m.pinned, m.version,
        COALESCE(s.access_count, 0) AS uses
       FROM memory m LEFT JOIN memory_state s ON s.rid = m.rid
      WHERE m.deleted_at IS NULL AND m.trust = 'trusted' AND m.source <> 'dream'
      ORDER BY m.updated_at DESC, m.rid DESC LIMIT ?`,
  ).all(ctx.config.max_compared) as Candidate[];
  rows.sort((x, y) => x.rid - y.rid);
  const sets: Set<string>[] = [];
  for (const r of rows) {
    if (sets.length % 250 === 249) await ctx.yield();
    sets.push(words(`${r.title}\n${r.content}`));
  }
  const postings = new Map<string, number[]>();
  sets.forEach((set, i) => {
    for (const w of set) {
      const p = postings.get(w);
      if (p) p.push(i);
      else postings.set(w, [i]);
    }
  });
  await ctx.yield();
  const maxDf = Math.max(2, Math.ceil(rows.length * COMMON_SHARE));
  const pairs: SimilarPair[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < rows.length; i++) {
    if (i % 200 === 199) {
      ctx.progress(i, rows.length);
      await ctx.yield();
    }
    seen.clear();
    const mine = sets[i] as Set<string>;
    for (const w of mine) {
      const p = postings.get(w) as number[];
      if (p.length > maxDf && rows.length > 40) continue;
      for (const j of p.slice(0, PER_WORD_CAP)) {
        if (j <= i || seen.has(j)) continue;
        seen.add(j);
        const score = jaccard(mine, sets[j] as Set<string>);
        if (score >= minScore)
          pairs.push({
            a: rows[i] as Candidate,
            b: rows[j] as Candidate,
            score: Math.round(score * 1e4) / 1e4,
          });
      }
    }
  }
  pairs.sort((x, y) => y.score - x.score || x.a.rid - y.a.rid || x.b.rid - y.b.rid);
  return { pairs, examined: rows.length };
}
