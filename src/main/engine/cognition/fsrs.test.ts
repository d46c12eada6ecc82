import { describe, expect, it } from 'vitest';
import { newFsrsState, rehearse, retrievability } from './fsrs';

const DAY = 86_400_000;
const t0 = Date.parse('2026-01-01T00:00:00Z');

describe('FSRS (v6 default parameters)', () => {
  it('gives a first Good review stability w2 and difficulty w4 − e^(2·w5) + 1', () => {
    const s = rehearse(newFsrsState(t0), t0);
    expect(s.stability).toBeCloseTo(2.3065, 4);
    // 6.4133 − e^(0.8334 × 2) + 1 = 2.118104
    expect(s.difficulty).toBeCloseTo(2.118104, 4);
    expect(s.reps).toBe(1);
    expect(s.last_review).toBe(t0);
  });

  it('computes retrievability R(t, S) = (1 + F·t/S)^(−w20) with fractional days', () => {
    const s = rehearse(newFsrsState(t0), t0);
    // F = 0.9^(−1/0.1542) − 1 = 0.980346; values worked out by hand from the formula.
    expect(retrievability(s, t0)).toBeCloseTo(1, 10);
    expect(retrievability(s, t0 + 1 * DAY)).toBeCloseTo(0.946847, 5);
    expect(retrievability(s, t0 + 2.3065 * DAY)).toBeCloseTo(0.9, 6);
    expect(retrievability(s, t0 + 10 * DAY)).toBeCloseTo(0.774367, 5);
    expect(retrievability(s, t0 + 30 * DAY)).toBeCloseTo(0.667526, 5);
  });

  it('has no retrievability before the first review', () => {
    expect(retrievability(newFsrsState(t0), t0 + DAY)).toBeNull();
  });

  it('grows stability with spaced reviews', () => {
    let s = rehearse(newFsrsState(t0), t0);
    const first = s.stability;
    s = rehearse(s, t0 + 3 * DAY);
    expect(s.stability).toBeGreaterThan(first);
    const second = s.stability;
    s = rehearse(s, t0 + 20 * DAY);
    expect(s.stability).toBeGreaterThan(second);
  });

  it('is not moved by a clock that runs backwards', () => {
    const s = rehearse(rehearse(newFsrsState(t0), t0), t0 + 3 * DAY);
    const back = rehearse(s, t0 - 5 * DAY);
    expect(back.stability).toBeGreaterThanOrEqual(s.stability * 0.999);
    expect(back.last_review).toBe(s.last_review);
    expect(retrievability(s, t0 - 10 * DAY)).toBeCloseTo(1, 10);
  });
});
