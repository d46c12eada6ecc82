import { describe, expect, it } from 'vitest';
import { ALPHA_MIN, coolingTicks, ForceLayout } from './forceLayout';

function ring(n: number, radius: number): Float32Array {
  const p = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    p[i * 2] = Math.cos((i / n) * Math.PI * 2) * radius;
    p[i * 2 + 1] = Math.sin((i / n) * Math.PI * 2) * radius;
  }
  return p;
}

describe('ForceLayout', () => {
  it('settles, pulling linked memories together and pushing the rest apart', () => {
    // Two triangles, no link between them.
    const layout = new ForceLayout({
      positions: ring(6, 200),
      links: Uint32Array.from([0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3]),
      weights: Float32Array.from([1, 1, 1, 1, 1, 1]),
      alpha: 1,
    });
    let guard = 0;
    while (!layout.settled && guard++ < 1000) layout.run(50);
    expect(layout.settled).toBe(true);
    expect(layout.alpha).toBeLessThan(ALPHA_MIN);
    const p = layout.positions();
    expect(Array.from(p).every(Number.isFinite)).toBe(true);
    const d = (a: number, b: number) =>
      Math.hypot(p[a * 2]! - p[b * 2]!, p[a * 2 + 1]! - p[b * 2 + 1]!);
    expect(d(0, 1)).toBeLessThan(d(0, 4));
    expect(d(3, 5)).toBeLessThan(d(2, 3));
  });

  it('runs at least one tick per batch and stops at the budget', () => {
    const layout = new ForceLayout({
      positions: ring(3, 10),
      links: new Uint32Array(0),
      weights: new Float32Array(0),
      alpha: 1,
    });
    let t = 0;
    const ran = layout.run(0, () => (t += 5));
    expect(ran).toBe(1);
    expect(layout.ticks).toBe(1);
  });

  it('holds a dragged node and stays warm until it is released', () => {
    const layout = new ForceLayout({
      positions: ring(4, 50),
      links: Uint32Array.from([0, 1, 1, 2]),
      weights: Float32Array.from([0.5, 0.5]),
      alpha: 0,
    });
    expect(layout.settled).toBe(true);
    layout.drag(2, 300, -300);
    for (let i = 0; i < 50; i++) layout.run(0);
    expect(layout.settled).toBe(false);
    const p = layout.positions();
    expect([p[4], p[5]]).toEqual([300, -300]);
    layout.release(2);
    let guard = 0;
    while (!layout.settled && guard++ < 2000) layout.run(50);
    expect(layout.settled).toBe(true);
  });

  it('skips links that name missing or identical nodes', () => {
    const layout = new ForceLayout({
      positions: ring(2, 10),
      links: Uint32Array.from([0, 0, 0, 7]),
      weights: Float32Array.from([1, 1]),
      alpha: 1,
    });
    layout.run(5);
    expect(Array.from(layout.positions()).every(Number.isFinite)).toBe(true);
  });

  it('cools big graphs in fewer ticks', () => {
    expect(coolingTicks(100)).toBe(300);
    expect(coolingTicks(3000)).toBeLessThan(300);
    expect(coolingTicks(20000)).toBe(180);
  });
});
