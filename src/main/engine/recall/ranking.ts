// Ranking (DESIGN.md §6, step 4) and diversity (step 5). The blend and its defaults are
// configuration (config.json `recall.weights`), documented in docs/heuristics.md:
//   final = w_rel · min(1, fused + spread) + w_act · σ(B + 4) + w_ret · R + w_sal · salience + w_pin · pinned
// with B the ACT-R base-level activation, R the FSRS retrievability and σ the logistic
// function (σ(B + 4) is ~0.9 for a memory used a minute ago, ~0.03 for one untouched for a month).

export interface Weights {
  relevance: number;
  activation: number;
  retrievability: number;
  salience: number;
  pinned: number;
}

export interface RankInput {
  fused: number;
  spread: number;
  activation: number | null;
  retrievability: number | null;
  salience: number;
  pinned: boolean;
}

export const squashActivation = (b: number | null): number =>
  b === null ? 0 : 1 / (1 + Math.exp(-(b + 4)));

/** One term of the blend: its input on a 0–1 scale, its weight, and weight × input. */
export interface ScorePart {
  term: keyof Weights;
  input: number;
  weight: number;
  value: number;
}

/** The five terms of the final score, in the order of the formula above. */
export function scoreParts(input: RankInput, w: Weights): ScorePart[] {
  const inputs: [keyof Weights, number][] = [
    ['relevance', Math.min(1, input.fused + input.spread)],
    ['activation', squashActivation(input.activation)],
    ['retrievability', input.retrievability ?? 0],
    ['salience', input.salience],
    ['pinned', input.pinned ? 1 : 0],
  ];
  return inputs.map(([term, x]) => ({ term, input: x, weight: w[term], value: w[term] * x }));
}

export function finalScore(input: RankInput, w: Weights): number {
  return scoreParts(input, w).reduce((sum, p) => sum + p.value, 0);
}

/** Reciprocal rank fusion: Σ 1 / (k + rank), ranks from 1, normalised so that rank 1 in every branch is 1. */
export function rrf(ranks: (number | null)[], k: number, branches: number): number {
  const raw = ranks.reduce<number>((sum, r) => (r === null ? sum : sum + 1 / (k + r)), 0);
  return raw / (branches / (k + 1));
}

/**
 * Maximal marginal relevance: picks, one at a time, the item with the best
 * λ · score − (1 − λ) · (its highest similarity to an item already picked). Each item's
 * highest similarity is updated with the one just picked, so similarity is asked for
 * once per pair at most (k · n calls, not k² · n).
 */
export function mmr<T>(
  items: T[],
  score: (t: T) => number,
  similarity: (a: T, b: T) => number,
  k: number,
  lambda: number,
): T[] {
  const chosen: T[] = [];
  const rest = items.map((item) => ({ item, score: score(item), redundancy: 0 }));
  while (chosen.length < k && rest.length > 0) {
    let bestIndex = 0;
    let best = -Infinity;
    rest.forEach((r, i) => {
      const value = lambda * r.score - (1 - lambda) * r.redundancy;
      if (value > best) {
        best = value;
        bestIndex = i;
      }
    });
    const picked = (rest.splice(bestIndex, 1)[0] as (typeof rest)[number]).item;
    chosen.push(picked);
    if (chosen.length < k) {
      for (const r of rest) r.redundancy = Math.max(r.redundancy, similarity(r.item, picked));
    }
  }
  return chosen;
}

/** The word set wordJaccard compares, for callers that compare one text many times. */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Jaccard similarity of two word sets. */
export function setJaccard(wa: Set<string>, wb: Set<string>): number {
  if (wa.size === 0 || wb.size === 0) return 0;
  let inter = 0;
  for (const w of wa) if (wb.has(w)) inter++;
  return inter / (wa.size + wb.size - inter);
}

/** Jaccard similarity of the word sets of two texts (used when vectors are missing). */
export function wordJaccard(a: string, b: string): number {
  return setJaccard(wordSet(a), wordSet(b));
}
