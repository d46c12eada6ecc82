import { describe, expect, it } from 'vitest';
import { WRITES_QUIET_MS, WRITES_YIELD_MAX_MS, WriteBursts } from './writeBursts';

/** Whether the wait is over once the event loop has turned (no timer involved). */
async function overAtOnce(wait: Promise<void>): Promise<boolean> {
  let over = false;
  void wait.then(() => (over = true));
  await new Promise((resolve) => setImmediate(resolve));
  return over;
}

describe('what background indexing gives way to', () => {
  it('does not wait when no large write is under way or just ended', async () => {
    const bursts = new WriteBursts(16);
    bursts.writing(16)(); // not large
    bursts.wrote(3);
    expect(await overAtOnce(bursts.giveWay(() => false))).toBe(true);
  });

  it('waits while a large write runs, and a quiet moment after it ends', async () => {
    const bursts = new WriteBursts(16);
    const end = bursts.writing(1000);
    const waited = bursts.giveWay(() => false);
    await new Promise((r) => setTimeout(r, WRITES_QUIET_MS * 2));
    expect(await overAtOnce(waited)).toBe(false);
    end();
    end(); // ending twice counts once
    const t0 = performance.now();
    await waited;
    expect(performance.now() - t0).toBeGreaterThanOrEqual(WRITES_QUIET_MS * 0.5);
    // A write that ended without writing() seeing it begin counts as well.
    bursts.wrote(1000);
    expect(await overAtOnce(bursts.giveWay(() => false))).toBe(false);
  });

  it('stops waiting when someone hurries it, when told to stop, or when closed', async () => {
    const bursts = new WriteBursts(16);
    const end = bursts.writing(1000);
    const waiting = bursts.giveWay(() => false);
    let release: () => void = () => {};
    const hurried = bursts.hurry(new Promise<void>((r) => (release = r)));
    expect(await overAtOnce(waiting)).toBe(true);
    // While hurried, nothing waits.
    expect(await overAtOnce(bursts.giveWay(() => false))).toBe(true);
    release();
    await hurried;
    let stop = false;
    const stopped = bursts.giveWay(() => stop);
    expect(await overAtOnce(stopped)).toBe(false);
    stop = true;
    bursts.endWaits();
    expect(await overAtOnce(stopped)).toBe(true);
    const closing = bursts.giveWay(() => false);
    bursts.close();
    expect(await overAtOnce(closing)).toBe(true);
    end();
  });

  it('waits no longer than its bound in a row, however the writes go on', async () => {
    const bursts = new WriteBursts(16);
    const end = bursts.writing(1000);
    const t0 = performance.now();
    await bursts.giveWay(() => false);
    end();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(WRITES_YIELD_MAX_MS - 50);
  });
});
