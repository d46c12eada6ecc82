import { describe, expect, it } from 'vitest';
import { formatHlc, HlcClock, hlcWall, parseHlc } from './hlc';

describe('hybrid logical clocks', () => {
  it('sort as strings in clock order and name their device', () => {
    const a = formatHlc({ wall: 1_700_000_000_000, counter: 5, device: 'aaaaaaaa' });
    const b = formatHlc({ wall: 1_700_000_000_000, counter: 6, device: 'aaaaaaaa' });
    const c = formatHlc({ wall: 1_700_000_000_001, counter: 0, device: 'aaaaaaaa' });
    expect([c, b, a].sort()).toEqual([a, b, c]);
    expect(parseHlc(b)).toEqual({ wall: 1_700_000_000_000, counter: 6, device: 'aaaaaaaa' });
    expect(hlcWall(c)).toBe(1_700_000_000_001);
    expect(() => parseHlc('nonsense')).toThrow(/not a hybrid logical clock/);
  });

  it('never runs backwards, even when the wall clock does', () => {
    let now = 10_000;
    const clock = new HlcClock('aaaaaaaa', () => now);
    const first = clock.tick();
    now = 5_000;
    const second = clock.tick();
    expect(second > first).toBe(true);
    expect(hlcWall(second)).toBe(10_000);
  });

  it('orders a local event after one received from a clock hours ahead, and says how far ahead it runs', () => {
    const now = 10_000;
    const clock = new HlcClock('aaaaaaaa', () => now);
    const remote = formatHlc({ wall: now + 3 * 3_600_000, counter: 2, device: 'bbbbbbbb' });
    clock.receive(remote);
    const next = clock.tick();
    expect(next > remote).toBe(true);
    expect(clock.aheadBy()).toBe(3 * 3_600_000);
  });

  it('resumes from the persisted clock', () => {
    const clock = new HlcClock(
      'aaaaaaaa',
      () => 1,
      formatHlc({ wall: 50, counter: 9, device: 'aaaaaaaa' }),
    );
    expect(parseHlc(clock.tick())).toEqual({ wall: 50, counter: 10, device: 'aaaaaaaa' });
  });
});
