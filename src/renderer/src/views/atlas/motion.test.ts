import { describe, expect, it } from 'vitest';
import { Motion } from './motion';
import type { TickMessage } from './protocol';

const tick = (positions: number[], settled = false): TickMessage => ({
  type: 'tick',
  generation: 1,
  positions: Float32Array.from(positions),
  alpha: 0.5,
  settled,
  ticks: 1,
  tickMs: 3,
});

describe('Motion', () => {
  it('eases from what is shown towards each update over about one update interval', () => {
    const motion = new Motion(Float32Array.from([0, 0]));
    motion.receive(tick([10, 20]), 0);
    motion.receive(tick([10, 20]), 100);
    // The first update landed long ago; the second eases over ~100 ms (capped).
    const m2 = new Motion(Float32Array.from([0, 0]));
    m2.receive(tick([0, 0]), 0);
    m2.receive(tick([100, -100]), 50);
    expect(m2.step(75)).toBe(true);
    expect(m2.current[0]).toBeCloseTo(50);
    expect(m2.current[1]).toBeCloseTo(-50);
    expect(m2.step(200)).toBe(true);
    expect(Array.from(m2.current)).toEqual([100, -100]);
    expect(m2.step(300)).toBe(false);
  });

  it('is moving until the layout settles and the easing ends', () => {
    const motion = new Motion(Float32Array.from([0, 0]));
    expect(motion.moving).toBe(true);
    motion.receive(tick([1, 1], true), 0);
    expect(motion.moving).toBe(true);
    motion.step(1000);
    expect(motion.moving).toBe(false);
    expect(motion.settled).toBe(true);
  });

  it('ignores an update for another number of nodes', () => {
    const motion = new Motion(Float32Array.from([0, 0]));
    motion.receive(tick([1, 2, 3, 4]), 0);
    expect(motion.step(10)).toBe(false);
  });

  it('puts a dragged node under the pointer at once', () => {
    const motion = new Motion(Float32Array.from([0, 0, 5, 5]));
    const v = motion.version;
    motion.place(1, 42, 43);
    expect(Array.from(motion.current)).toEqual([0, 0, 42, 43]);
    expect(motion.version).toBeGreaterThan(v);
  });
});
