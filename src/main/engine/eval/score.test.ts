import { describe, expect, it } from 'vitest';
import { bootstrap, ndcgAt, pairedDifference, recallAt, reciprocalRank } from './metrics';
import { describeConfig, differenceOf, scoreCase, summarizeOutcomes } from './score';

const q = (relevant: string[], returned: string[]) => ({
  id: 'q',
  category: 'c',
  relevant,
  returned,
  abstained: false,
});

describe('retrieval metrics (hand-computed)', () => {
  it('recall@k counts the relevant ids inside the cut', () => {
    expect(recallAt(q(['a', 'b'], ['x', 'a', 'y', 'b']), 2)).toBe(0.5);
    expect(recallAt(q(['a', 'b'], ['x', 'a', 'y', 'b']), 4)).toBe(1);
    expect(recallAt(q([], ['a']), 10)).toBe(0);
  });

  it('reciprocal rank is 1/position of the first relevant id', () => {
    expect(reciprocalRank(q(['b'], ['x', 'y', 'b']))).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank(q(['b'], ['x']))).toBe(0);
  });

  it('nDCG@10 gives the first relevant id gain 2 and the others 1', () => {
    // returned [x, a, b]: dcg = 2/log2(3) + 1/log2(4); ideal [a, b]: 2/1 + 1/log2(3)
    const dcg = 2 / Math.log2(3) + 1 / 2;
    const idcg = 2 + 1 / Math.log2(3);
    expect(ndcgAt(q(['a', 'b'], ['x', 'a', 'b']), 10)).toBeCloseTo(dcg / idcg, 12);
    expect(ndcgAt(q(['a', 'b'], ['a', 'b']), 10)).toBeCloseTo(1, 12);
  });

  it('bootstrap intervals hold the mean and collapse on constant data', () => {
    expect(bootstrap([1, 1, 1])).toMatchObject({ mean: 1, low: 1, high: 1, n: 3 });
    const e = bootstrap([0, 1, 0, 1, 1, 0, 1, 0]);
    expect(e.mean).toBe(0.5);
    expect(e.low).toBeLessThan(0.5);
    expect(e.high).toBeGreaterThan(0.5);
    const d = pairedDifference([0, 0, 0, 0], [1, 1, 1, 1]);
    expect(d).toMatchObject({ mean: 1, low: 1, high: 1 });
    expect(d.mde).toBe(0);
  });
});

describe('quality-lab scoring', () => {
  it('scores a case against what recall returned', () => {
    const o = scoreCase({ id: 'c1', expected: ['a', 'b'], wrong: ['w'] }, ['w', 'a', 'x']);
    expect(o.recall10).toBe(0.5);
    expect(o.rr).toBe(0.5);
    expect(o.ndcg10).toBeCloseTo(2 / Math.log2(3) / (2 + 1 / Math.log2(3)), 12);
    expect(o.wrong10).toBe(1);
    expect(o.returned).toEqual(['w', 'a', 'x']);
  });

  it('only the top 10 count', () => {
    const returned = Array.from({ length: 12 }, (_, i) => `m${i}`);
    const o = scoreCase({ id: 'c', expected: ['m11'], wrong: ['m10'] }, returned);
    expect(o).toMatchObject({ recall10: 0, rr: 0, ndcg10: 0, wrong10: 0 });
    expect(o.returned).toHaveLength(10);
  });

  it('a case with only wrong marks scores wrong@10 and nothing else', () => {
    const o = scoreCase({ id: 'c', expected: [], wrong: ['w1', 'w2'] }, ['w2']);
    expect(o).toMatchObject({ recall10: null, rr: null, ndcg10: null, wrong10: 0.5 });
    const s = summarizeOutcomes([o], 3);
    expect(s.recall10.n).toBe(0);
    expect(s.wrong10).toMatchObject({ mean: 0.5, n: 1 });
    expect(s.skipped).toBe(3);
  });

  it('pairs two runs case by case', () => {
    const a = [
      scoreCase({ id: '1', expected: ['a'], wrong: [] }, ['x', 'a']),
      scoreCase({ id: '2', expected: ['b'], wrong: [] }, ['b']),
    ];
    const b = [
      scoreCase({ id: '1', expected: ['a'], wrong: [] }, ['a']),
      scoreCase({ id: '2', expected: ['b'], wrong: [] }, ['b']),
    ];
    const d = differenceOf(a, b);
    // MRR: (1 - 0.5) and (1 - 1): mean 0.25
    expect(d.mrr.mean).toBe(0.25);
    expect(d.mrr.n).toBe(2);
    expect(d.wrong10.n).toBe(0);
    expect(d.wrong10.mde).toBeNull();
  });

  it('labels a configuration by what it changes', () => {
    expect(describeConfig({})).toBe('store configuration');
    expect(describeConfig({ use_vectors: false, weights: { relevance: 1 } })).toBe(
      'vectors off; weights relevance 1',
    );
    expect(describeConfig({ fusion: 'rrf', rrf_k: 10, neighbour_weight: 0 })).toBe(
      'fusion rrf; rrf_k 10; neighbour_weight 0',
    );
  });
});
