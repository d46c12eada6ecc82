import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finalScore, mmr, rrf, scoreParts, squashActivation, wordJaccard } from './ranking';

const w = { relevance: 0.75, activation: 0.08, retrievability: 0.07, salience: 0.05, pinned: 0.05 };

describe('rrf', () => {
  it('is Σ 1/(k + rank), normalised so rank 1 everywhere is 1', () => {
    expect(rrf([1, 1], 60, 2)).toBeCloseTo(1, 10);
    // (1/61 + 1/63) / (2/61) = 0.984127
    expect(rrf([1, 3], 60, 2)).toBeCloseTo(0.984127, 6);
    // (1/65) / (2/61) = 0.469231
    expect(rrf([5, null], 60, 2)).toBeCloseTo(0.469231, 6);
    expect(rrf([1], 60, 1)).toBeCloseTo(1, 10);
  });
});

describe('scoreParts', () => {
  it('gives the five terms of the blend, which add up to the final score', () => {
    const input = {
      fused: 0.6,
      spread: 0.1,
      activation: -2,
      retrievability: 0.9,
      salience: 0.4,
      pinned: true,
    };
    const parts = scoreParts(input, w);
    expect(parts.map((p) => p.term)).toEqual([
      'relevance',
      'activation',
      'retrievability',
      'salience',
      'pinned',
    ]);
    expect(parts[0]).toMatchObject({ input: 0.7, weight: 0.75 });
    expect(parts[0]!.value).toBeCloseTo(0.525, 10);
    expect(parts.reduce((s, p) => s + p.value, 0)).toBeCloseTo(finalScore(input, w), 12);
  });
});

describe('finalScore', () => {
  it('blends relevance, activation, retrievability, salience and pinning with the configured weights', () => {
    // 0.75·min(1, 0.6 + 0.1) + 0.08·σ(−2 + 4) + 0.07·0.9 + 0.05·0.4 + 0.05·1
    // = 0.525 + 0.08·0.880797 + 0.063 + 0.02 + 0.05 = 0.728464
    const s = finalScore(
      { fused: 0.6, spread: 0.1, activation: -2, retrievability: 0.9, salience: 0.4, pinned: true },
      w,
    );
    expect(s).toBeCloseTo(0.728464, 5);
  });

  it('caps relevance at 1 and treats missing use data as none', () => {
    expect(
      finalScore(
        {
          fused: 0.9,
          spread: 0.5,
          activation: null,
          retrievability: null,
          salience: 0,
          pinned: false,
        },
        w,
      ),
    ).toBeCloseTo(0.75, 10);
  });

  it('squashes ACT-R activation with σ(B + 4)', () => {
    expect(squashActivation(-4)).toBeCloseTo(0.5, 10);
    expect(squashActivation(Math.log(60 ** -0.5))).toBeCloseTo(0.875, 2);
    expect(squashActivation(null)).toBe(0);
  });
});

describe('mmr', () => {
  it('trades a near-duplicate for a different relevant item', () => {
    const items = [
      { id: 'a', score: 0.9, text: 'deploy billing service on tuesday' },
      { id: 'a2', score: 0.88, text: 'deploy billing service on tuesday morning' },
      { id: 'b', score: 0.8, text: 'billing owner is dana' },
    ];
    const picked = mmr(
      items,
      (i) => i.score,
      (x, y) => wordJaccard(x.text, y.text),
      2,
      0.7,
    );
    expect(picked.map((i) => i.id)).toEqual(['a', 'b']);
    const relevanceOnly = mmr(
      items,
      (i) => i.score,
      (x, y) => wordJaccard(x.text, y.text),
      2,
      1,
    );
    expect(relevanceOnly.map((i) => i.id)).toEqual(['a', 'a2']);
  });

  it('computes word Jaccard', () => {
    expect(wordJaccard('a b c', 'b c d')).toBeCloseTo(0.5, 10);
    expect(wordJaccard('', 'x')).toBe(0);
  });
});

describe('mmr, incremental', () => {
  /** The definition, the slow way: every redundancy recomputed against every pick. */
  function naiveMmr(scores: number[], sim: number[][], k: number, lambda: number): number[] {
    const chosen: number[] = [];
    const rest = scores.map((_, i) => i);
    while (chosen.length < k && rest.length > 0) {
      let bestIndex = 0;
      let best = -Infinity;
      rest.forEach((i, at) => {
        const redundancy = chosen.length === 0 ? 0 : Math.max(...chosen.map((c) => sim[i]![c]!));
        const value = lambda * scores[i]! - (1 - lambda) * redundancy;
        if (value > best) {
          best = value;
          bestIndex = at;
        }
      });
      chosen.push(rest.splice(bestIndex, 1)[0]!);
    }
    return chosen;
  }

  it('picks exactly what the definition picks, asking each pair once at most', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 25 }).chain((n) =>
          fc.tuple(
            fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
            fc.array(
              fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: n, maxLength: n }),
              {
                minLength: n,
                maxLength: n,
              },
            ),
            fc.integer({ min: 1, max: 12 }),
            fc.double({ min: 0, max: 1, noNaN: true }),
          ),
        ),
        ([scores, raw, k, lambda]) => {
          const n = scores.length;
          const sim = raw.map((row, i) =>
            row.map((v, j) => (i === j ? 1 : i < j ? v : raw[j]![i]!)),
          );
          const asked = new Set<string>();
          const got = mmr(
            scores.map((_, i) => i),
            (i) => scores[i]!,
            (a, b) => {
              const key = `${Math.min(a, b)}:${Math.max(a, b)}`;
              expect(asked.has(key)).toBe(false);
              asked.add(key);
              return sim[a]![b]!;
            },
            k,
            lambda,
          );
          expect(got).toEqual(naiveMmr(scores, sim, k, lambda));
          expect(asked.size).toBeLessThanOrEqual(k * n);
        },
      ),
      { numRuns: 300 },
    );
  });
});
