import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageCache } from './pageCache';

interface Pending {
  offset: number;
  limit: number;
  signal: AbortSignal;
  resolve: (total?: number) => void;
  reject: (err: unknown) => void;
}

/** A cache over numbers 0…total-1 whose requests the test answers by hand. */
function setup(total = 10_000, opts: { maxBlocks?: number } = {}) {
  const pending: Pending[] = [];
  const cache = new PageCache<number>({
    blockSize: 100,
    maxRequestRows: 500,
    maxBlocks: opts.maxBlocks ?? 8,
    throttleMs: 0,
    fetch: (offset, limit, signal) =>
      new Promise((resolve, reject) => {
        pending.push({
          offset,
          limit,
          signal,
          reject,
          resolve: (t = total) => {
            const items: number[] = [];
            for (let i = offset; i < Math.min(t, offset + limit); i++) items.push(i);
            resolve({ items, total: t });
          },
        });
      }),
  });
  const answerAll = async (t?: number) => {
    for (const p of pending.splice(0)) if (!p.signal.aborted) p.resolve(t);
    await Promise.resolve();
    await Promise.resolve();
  };
  return { cache, pending, answerAll };
}

describe('PageCache', () => {
  afterEach(() => vi.useRealTimers());

  it('fetches the blocks a range needs, adjacent ones in one request', async () => {
    const { cache, pending, answerAll } = setup();
    cache.setRange(0, 30);
    expect(pending.map((p) => [p.offset, p.limit])).toEqual([[0, 100]]);
    await answerAll();
    expect(cache.total).toBe(10_000);
    expect(cache.item(30)).toBe(30);
    cache.setRange(150, 420);
    // Block 0 is here; blocks 1–4 come in one request.
    expect(pending.map((p) => [p.offset, p.limit])).toEqual([[100, 400]]);
  });

  it('never asks twice for a block on its way (coalescing)', () => {
    const { cache, pending } = setup();
    cache.setRange(0, 30);
    cache.setRange(5, 40);
    cache.setRange(10, 60);
    expect(pending).toHaveLength(1);
  });

  it('cancels requests for blocks scrolled away from, and ignores their answers', async () => {
    const { cache, pending, answerAll } = setup();
    cache.setRange(0, 30);
    await answerAll();
    cache.setRange(5_000, 5_030);
    const far = pending[0];
    cache.setRange(9_000, 9_030);
    expect(far?.signal.aborted).toBe(true);
    expect(pending.map((p) => p.offset)).toEqual([5_000, 9_000]);
    far?.resolve();
    await answerAll();
    expect(cache.item(5_000)).toBeUndefined();
    expect(cache.item(9_010)).toBe(9_010);
  });

  it('keeps a bounded number of blocks', async () => {
    const { cache, answerAll } = setup(100_000, { maxBlocks: 4 });
    for (let b = 0; b < 20; b++) {
      cache.setRange(b * 1_000, b * 1_000 + 20);
      await answerAll();
    }
    expect(cache.loadedBlockCount).toBeLessThanOrEqual(4);
    expect(cache.item(19_010)).toBe(19_010);
  });

  it('invalidate keeps the stale rows on screen and fetches the visible ones again', async () => {
    const { cache, pending, answerAll } = setup(500);
    cache.setRange(0, 30);
    await answerAll();
    cache.invalidate();
    expect(cache.item(3)).toBe(3);
    expect(pending.map((p) => p.offset)).toEqual([0]);
    await answerAll(501);
    expect(cache.total).toBe(501);
  });

  it('a failure is reported and not retried until asked', async () => {
    const { cache, pending } = setup();
    cache.setRange(0, 30);
    pending.shift()?.reject(new Error('boom'));
    await Promise.resolve();
    await Promise.resolve();
    expect(cache.error?.code).toBe('internal');
    cache.setRange(0, 40);
    expect(pending).toHaveLength(0);
    cache.retry();
    expect(pending).toHaveLength(1);
  });

  it('rows() fetches what is missing of a range (for shift-click selection)', async () => {
    const { cache, pending, answerAll } = setup();
    cache.setRange(0, 30);
    await answerAll();
    const rows = cache.rows(50, 250);
    await Promise.resolve();
    expect(pending.map((p) => [p.offset, p.limit])).toEqual([[100, 200]]);
    await answerAll();
    expect((await rows).length).toBe(201);
  });

  it('throttles requests while the range keeps moving', async () => {
    vi.useFakeTimers();
    const pending: number[] = [];
    const cache = new PageCache<number>({
      blockSize: 100,
      maxRequestRows: 500,
      maxBlocks: 8,
      throttleMs: 50,
      fetch: (offset) => {
        pending.push(offset);
        return new Promise(() => undefined);
      },
    });
    for (let i = 0; i < 30; i++) cache.setRange(i * 1_000, i * 1_000 + 20);
    expect(pending).toEqual([]);
    vi.advanceTimersByTime(60);
    // Only where the list ended up.
    expect(pending).toEqual([29_000]);
  });
});
