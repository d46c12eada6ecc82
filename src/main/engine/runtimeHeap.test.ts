import { describe, expect, it } from 'vitest';
import { collectGarbage, returnFreedNativeMemory } from './runtimeHeap';

const MiB = 1024 * 1024;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// glibc on Linux with koffi installed (an optional dependency): the call is made there.
const canTrim = await returnFreedNativeMemory();

describe('the heaps of a process that stays up', () => {
  it('collects the JavaScript heap on demand, without a global `gc`', () => {
    expect(collectGarbage()).toBe(true);
    expect('gc' in globalThis).toBe(false);
  });

  it.skipIf(!canTrim)(
    'gives back the pages freed in the middle of the C heap (glibc, koffi installed)',
    async () => {
      // 80 MiB of small C allocations (buffers' memory comes from malloc), one in sixteen
      // kept: what is freed lies between live blocks, where glibc does not return it alone.
      const kept: Buffer[] = [];
      let dropped: Buffer[] = [];
      for (let i = 0; i < 40_000; i++) {
        const b = Buffer.allocUnsafeSlow(2048).fill(i & 0xff);
        (i % 16 === 0 ? kept : dropped).push(b);
      }
      dropped = [];
      // The buffers' memory is freed when the collector sweeps them (in the background).
      collectGarbage();
      await pause(200);
      collectGarbage();
      await pause(200);
      const before = process.memoryUsage.rss();
      expect(await returnFreedNativeMemory()).toBe(true);
      const after = process.memoryUsage.rss();
      expect(dropped).toHaveLength(0);
      expect(kept).toHaveLength(2500);
      // 75 MiB were freed; most of it goes back at once.
      expect((before - after) / MiB).toBeGreaterThan(40);
    },
  );
});
