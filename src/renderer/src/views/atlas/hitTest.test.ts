import { describe, expect, it } from 'vitest';
import { GridIndex } from './hitTest';

function points(list: [number, number][]): Float32Array {
  return Float32Array.from(list.flat());
}

describe('GridIndex', () => {
  const positions = points([
    [0, 0],
    [10, 0],
    [100, 100],
    [-50, 20],
  ]);
  const radii = Float32Array.from([4, 4, 10, 3]);

  it('finds the node whose disc holds the point', () => {
    const index = GridIndex.build(positions, radii, null, 10);
    expect(index.hit(1, 1)).toBe(0);
    expect(index.hit(11, -2)).toBe(1);
    expect(index.hit(108, 100)).toBe(2);
    expect(index.hit(-50, 22)).toBe(3);
    expect(index.hit(50, 50)).toBe(-1);
  });

  it('widens each disc by the slop and prefers the nearest edge', () => {
    const index = GridIndex.build(positions, radii, null, 10);
    expect(index.hit(-50, 25.5)).toBe(-1);
    expect(index.hit(-50, 25.5, 3)).toBe(3);
    // Between nodes 0 and 1 (5 from each centre), nearer 1 by a hair.
    expect(index.hit(5.2, 0, 2)).toBe(1);
  });

  it('skips nodes the filters hide', () => {
    const visible = Uint8Array.from([0, 1, 1, 1]);
    const index = GridIndex.build(positions, radii, visible, 10);
    expect(index.hit(1, 1)).toBe(-1);
    expect(index.hit(9, 0)).toBe(1);
  });

  it('answers -1 on an empty or fully hidden graph', () => {
    expect(GridIndex.build(new Float32Array(0), new Float32Array(0), null, 5).hit(0, 0)).toBe(-1);
    expect(GridIndex.build(positions, radii, new Uint8Array(4), 10).hit(0, 0)).toBe(-1);
  });

  it('agrees with a brute-force search on thousands of random nodes', () => {
    let seed = 42;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const n = 3000;
    const pos = new Float32Array(n * 2);
    const rad = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      pos[i * 2] = rnd() * 2000 - 1000;
      pos[i * 2 + 1] = rnd() * 1200 - 600;
      rad[i] = 3 + rnd() * 10;
    }
    const index = GridIndex.build(pos, rad, null, 13);
    for (let q = 0; q < 500; q++) {
      const x = rnd() * 2000 - 1000;
      const y = rnd() * 1200 - 600;
      let best = -1;
      let gap = Infinity;
      for (let i = 0; i < n; i++) {
        const g = Math.hypot(pos[i * 2]! - x, pos[i * 2 + 1]! - y) - rad[i]!;
        if (g <= 2 && g < gap) {
          best = i;
          gap = g;
        }
      }
      expect(index.hit(x, y, 2)).toBe(best);
    }
  });
});
