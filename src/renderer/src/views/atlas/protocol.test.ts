import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLayoutRunner, yieldRatioFor } from './layoutRunner';
import {
  allocatePositions,
  positionCount,
  positionX,
  positionY,
  POSITION_STRIDE,
  setPosition,
  type FromLayout,
  type InitMessage,
  type TickMessage,
} from './protocol';

describe('positions buffer', () => {
  it('holds x then y per node, in node order', () => {
    const p = allocatePositions(3);
    expect(p).toBeInstanceOf(Float32Array);
    expect(p.length).toBe(3 * POSITION_STRIDE);
    setPosition(p, 1, 10, -20);
    setPosition(p, 2, 0.5, 7);
    expect(Array.from(p)).toEqual([0, 0, 10, -20, 0.5, 7]);
    expect(positionX(p, 1)).toBe(10);
    expect(positionY(p, 1)).toBe(-20);
    expect(positionCount(p)).toBe(3);
    // Out of range reads are 0, not undefined.
    expect(positionX(p, 9)).toBe(0);
  });
});

function init(generation: number, alpha = 1): InitMessage {
  const positions = allocatePositions(4);
  [
    [0, 0],
    [30, 0],
    [0, 30],
    [60, 60],
  ].forEach(([x, y], i) => setPosition(positions, i, x!, y!));
  return {
    type: 'init',
    generation,
    positions,
    links: Uint32Array.from([0, 1, 1, 2]),
    weights: Float32Array.from([0.9, 0.4]),
    alpha,
  };
}

describe('layout runner (the worker body)', () => {
  afterEach(() => vi.useRealTimers());

  function setup() {
    vi.useFakeTimers();
    // A clock of our own that moves 1 ms per reading, whatever the fake timers fake. (A
    // zero-delay timer set while timers run is due 1 ms later: advance by 1.)
    let clock = 0;
    const messages: FromLayout[] = [];
    const transfers: Transferable[][] = [];
    const runner = createLayoutRunner(
      (m, t) => {
        messages.push(m);
        transfers.push(t);
      },
      {
        budgetMs: 5,
        now: () => (clock += 1),
        schedule(fn) {
          const t = setTimeout(fn, 0);
          return () => clearTimeout(t);
        },
      },
    );
    const ticks = () => messages.filter((m): m is TickMessage => m.type === 'tick');
    return { runner, messages, transfers, ticks };
  }

  it('posts a positions buffer per batch, transferred, until the layout settles', () => {
    const { runner, transfers, ticks } = setup();
    runner.handle(init(1));
    vi.advanceTimersByTime(1);
    const first = ticks()[0]!;
    expect(first.generation).toBe(1);
    expect(first.positions).toBeInstanceOf(Float32Array);
    expect(first.positions.length).toBe(4 * POSITION_STRIDE);
    expect(transfers[0]).toEqual([first.positions.buffer]);
    expect(first.ticks).toBeGreaterThan(0);
    for (let i = 0; i < 2000 && !ticks().at(-1)!.settled; i++) vi.advanceTimersByTime(1);
    const last = ticks().at(-1)!;
    expect(last.settled).toBe(true);
    expect(Array.from(last.positions).every(Number.isFinite)).toBe(true);
    // Settled: nothing more is scheduled.
    const count = ticks().length;
    vi.advanceTimersByTime(1000);
    expect(ticks().length).toBe(count);
    runner.dispose();
  });

  it('ignores drags for an older graph and wakes up for a drag of the current one', () => {
    const { runner, ticks } = setup();
    runner.handle(init(1, 0));
    vi.advanceTimersByTime(1);
    expect(ticks().at(-1)!.settled).toBe(true);
    runner.handle(init(2, 0));
    vi.advanceTimersByTime(1);
    const before = ticks().length;
    runner.handle({ type: 'drag', generation: 1, index: 0, x: 500, y: 500 });
    vi.advanceTimersByTime(50);
    expect(ticks().length).toBe(before);
    runner.handle({ type: 'drag', generation: 2, index: 0, x: 500, y: 500 });
    vi.advanceTimersByTime(1);
    const dragged = ticks().at(-1)!;
    expect(dragged.generation).toBe(2);
    expect(dragged.settled).toBe(false);
    expect(dragged.positions[0]).toBe(500);
    expect(dragged.positions[1]).toBe(500);
    runner.handle({ type: 'release', generation: 2, index: 0 });
    for (let i = 0; i < 2000 && !ticks().at(-1)!.settled; i++) vi.advanceTimersByTime(1);
    expect(ticks().at(-1)!.settled).toBe(true);
    runner.dispose();
  });

  it('stops on pause and carries on after a reheat', () => {
    const { runner, ticks } = setup();
    runner.handle(init(1));
    vi.advanceTimersByTime(1);
    runner.handle({ type: 'pause' });
    const count = ticks().length;
    vi.advanceTimersByTime(100);
    expect(ticks().length).toBe(count);
    runner.handle({ type: 'reheat', generation: 1, alpha: 0 });
    vi.advanceTimersByTime(1);
    expect(ticks().length).toBeGreaterThan(count);
    runner.dispose();
  });

  it('reports a layout that cannot start as an error message', () => {
    const { runner, messages } = setup();
    runner.handle({ ...init(1), positions: null as unknown as Float32Array });
    expect(messages).toEqual([{ type: 'error', message: expect.any(String) }]);
  });
});

describe('the layout worker leaves the page its share of a small machine', () => {
  it('rests half of each batch on two cores, a fifth on four, none on more', () => {
    expect(yieldRatioFor(2)).toBe(0.5);
    expect(yieldRatioFor(undefined)).toBe(0.5);
    expect(yieldRatioFor(4)).toBe(0.2);
    expect(yieldRatioFor(8)).toBe(0);
  });

  it('waits yieldRatio × the batch time before the next batch', () => {
    let clock = 0;
    const delays: number[] = [];
    const pending: (() => void)[] = [];
    const runner = createLayoutRunner(() => undefined, {
      budgetMs: 10,
      yieldRatio: 0.5,
      now: () => (clock += 2),
      schedule(fn, delayMs) {
        delays.push(delayMs);
        pending.push(fn);
        return () => undefined;
      },
    });
    runner.handle(init(1));
    // The first batch starts at once; each later one after half the previous batch's time.
    for (let i = 0; i < 3; i++) pending.shift()?.();
    expect(delays[0]).toBe(0);
    expect(delays.slice(1).every((d) => d > 0)).toBe(true);
    const batchMs = delays[1]! / 0.5;
    expect(batchMs).toBeGreaterThanOrEqual(10);
    runner.dispose();
  });
});
