import { describe, expect, it, vi } from 'vitest';
import {
  Footprint,
  readSystemPressure,
  type FootprintOptions,
  type PressureReading,
  type TrimDepth,
} from './footprint';
import type * as runtimeHeap from './runtimeHeap';
import { busyNativeHeap, quietNativeHeap, workingNativeHeap } from './runtimeHeap';

// The C allocator's mode is watched, not changed (runtimeHeap.test.ts checks what it does).
vi.mock('./runtimeHeap', async (original) => ({
  ...(await original<typeof runtimeHeap>()),
  quietNativeHeap: vi.fn(async () => true),
  busyNativeHeap: vi.fn(),
  workingNativeHeap: vi.fn(async () => true),
}));

function setup(
  pressure: PressureReading = { freeShare: 0.5, stallPct: 0 },
  options: Partial<FootprintOptions> = {},
) {
  let now = 1_000_000;
  const reading = { ...pressure };
  const fp = new Footprint({
    now: () => now,
    idleMs: 30_000,
    pollMs: 5000,
    minFreeShare: 0.05,
    maxStallPct: 20,
    pressureGapMs: 300_000,
    readPressure: () => reading,
    ...options,
  });
  const released: TrimDepth[] = [];
  fp.add({ name: 'part', release: (d) => void released.push(d) });
  return { fp, released, reading, advance: (ms: number) => (now += ms) };
}

describe('the engine footprint', () => {
  it('trims once after a quiet spell, and again only after more activity', async () => {
    const { fp, released, advance } = setup();
    advance(29_000);
    expect(await fp.poll()).toBeNull();
    advance(1_000);
    const report = await fp.poll();
    expect(report).toMatchObject({ depth: 'idle', reason: 'idle', released: ['part'] });
    expect(report?.rssAfter).toBeGreaterThan(0);
    advance(60_000);
    expect(await fp.poll()).toBeNull(); // nothing ran since: nothing to give back
    const end = fp.begin();
    end();
    advance(30_000);
    expect((await fp.poll())?.depth).toBe('idle');
    expect(released).toEqual(['idle', 'idle']);
  });

  it("sets the C allocator's working threshold when it starts, not at the first quiet spell", () => {
    vi.mocked(workingNativeHeap).mockClear();
    vi.mocked(quietNativeHeap).mockClear();
    const { fp } = setup(undefined, { workingThreshold: true });
    fp.start();
    fp.stop();
    expect(workingNativeHeap).toHaveBeenCalledTimes(1);
    expect(quietNativeHeap).not.toHaveBeenCalled();
    // A forwarder's footprint leaves glibc's rule alone until its first quiet spell.
    const forwarder = setup().fp;
    forwarder.start();
    forwarder.stop();
    expect(workingNativeHeap).toHaveBeenCalledTimes(1);
  });

  it('makes the C allocator give back as it frees while quiet, and keep for reuse once busy', async () => {
    const { fp, advance } = setup();
    vi.mocked(quietNativeHeap).mockClear();
    advance(30_000);
    await fp.poll();
    expect(quietNativeHeap).toHaveBeenCalledTimes(1);
    vi.mocked(busyNativeHeap).mockClear();
    fp.begin()();
    fp.touch();
    expect(busyNativeHeap).toHaveBeenCalled();
  });

  it('never trims under a call in progress, however long it runs', async () => {
    const { fp, released, advance, reading } = setup();
    const end = fp.begin();
    advance(120_000);
    reading.freeShare = 0.01;
    expect(await fp.poll()).toBeNull();
    end();
    expect((await fp.poll())?.depth).toBe('pressure');
    expect(released).toEqual(['pressure']);
  });

  it('trims deep under memory pressure, at most once per gap', async () => {
    const { fp, released, advance, reading } = setup();
    reading.stallPct = 35; // PSI: tasks stalled on memory 35 % of the last 10 s
    expect((await fp.poll())?.reason).toBe('pressure');
    fp.touch();
    advance(60_000);
    // Still pressed, but a deep trim was just made: only the light one of a quiet spell.
    expect((await fp.poll())?.depth).toBe('idle');
    advance(300_000);
    fp.touch();
    expect((await fp.poll())?.depth).toBe('pressure');
    expect(released).toEqual(['pressure', 'idle', 'pressure']);
  });

  it('waits for background work to end, then a quiet spell, before trimming', async () => {
    const { fp, released, advance } = setup();
    let working = true;
    fp.addWork(() => working);
    advance(60_000);
    expect(await fp.poll()).toBeNull(); // a backfill runs: not quiet
    working = false;
    advance(29_000);
    expect(await fp.poll()).toBeNull(); // quiet since the last look, not for 30 s yet
    advance(1_000);
    expect((await fp.poll())?.depth).toBe('idle');
    expect(released).toEqual(['idle']);
  });

  it('goes on past a part that fails to release, naming it', async () => {
    const { fp, released, advance } = setup();
    fp.add({
      name: 'broken',
      release: () => {
        throw new Error('no');
      },
    });
    fp.add({ name: 'after', release: (d) => void released.push(d) });
    advance(30_000);
    const report = await fp.poll();
    expect(report?.released).toEqual(['part', 'after']);
    expect(released).toEqual(['idle', 'idle']);
  });

  it('reads free memory, and PSI where the kernel has it', () => {
    const r = readSystemPressure();
    expect(r.freeShare).toBeGreaterThan(0);
    expect(r.freeShare).toBeLessThanOrEqual(1);
    if (r.stallPct !== null) expect(r.stallPct).toBeGreaterThanOrEqual(0);
  });
});
