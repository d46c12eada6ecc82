import { describe, expect, it } from 'vitest';
import { linkTake } from './draw';

// Buckets of 5, 3, 0 and 4 links (weakest first).
const starts = Uint32Array.from([0, 5, 8, 8, 12]);

describe('linkTake', () => {
  it('draws every link without a limit', () => {
    expect(linkTake(starts, null)).toEqual([5, 3, 0, 4]);
  });

  it('keeps the strongest buckets whole and cuts into the next', () => {
    expect(linkTake(starts, 6)).toEqual([0, 2, 0, 4]);
    expect(linkTake(starts, 4)).toEqual([0, 0, 0, 4]);
    expect(linkTake(starts, 2)).toEqual([0, 0, 0, 2]);
  });

  it('never takes more than there is, nor less than nothing', () => {
    expect(linkTake(starts, 100)).toEqual([5, 3, 0, 4]);
    expect(linkTake(starts, -3)).toEqual([0, 0, 0, 0]);
    expect(linkTake(starts, 7.9).reduce((a, b) => a + b, 0)).toBe(7);
  });
});
