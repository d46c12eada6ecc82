import { describe, expect, it } from 'vitest';
import { LaneScheduler } from './lanes';
import type { EmbedKind } from './types';

/** A worker stand-in: records each request, answers when told to. */
function fakeWorker() {
  const requests: { texts: string[]; kind: EmbedKind; answer: () => void }[] = [];
  const send = (texts: string[], kind: EmbedKind) =>
    new Promise<Float32Array[]>((resolve) => {
      requests.push({
        texts,
        kind,
        answer: () => resolve(texts.map((t) => Float32Array.of(t.length))),
      });
    });
  return { requests, send };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('embedding lanes', () => {
  it('cuts background work into pieces and lets a query in after the piece in flight', async () => {
    const w = fakeWorker();
    const lanes = new LaneScheduler(w.send, { backgroundChunk: 8, maxMerge: 64 });
    const bulk = lanes.run(
      Array.from({ length: 32 }, (_, i) => `passage ${i}`),
      'passage',
      'background',
    );
    await tick();
    expect(w.requests).toHaveLength(1); // one piece in flight, three waiting
    expect(w.requests[0]?.texts).toHaveLength(8);
    const query = lanes.run(['what port?'], 'query', 'interactive');
    w.requests[0]?.answer();
    await tick();
    // The query goes next, ahead of the three waiting pieces.
    expect(w.requests[1]?.texts).toEqual(['what port?']);
    w.requests[1]?.answer();
    expect((await query)[0]?.[0]).toBe('what port?'.length);
    for (let i = 2; i < 5; i++) {
      await tick();
      w.requests[i]?.answer();
    }
    const vectors = await bulk;
    expect(vectors.map((v) => v[0])).toEqual(
      Array.from({ length: 32 }, (_, i) => `passage ${i}`.length),
    );
    expect(lanes.sent).toEqual({ interactive: 1, background: 4 });
    expect(lanes.idle).toBe(true);
  });

  it('sends queries that queued up behind a piece together, each answered with its own', async () => {
    const w = fakeWorker();
    const lanes = new LaneScheduler(w.send, { backgroundChunk: 8, maxMerge: 3 });
    const bulk = lanes.run(['a', 'b'], 'passage', 'background');
    await tick();
    const qs = ['one', 'three', 'fifteen', 'x'].map((q) => lanes.run([q], 'query', 'interactive'));
    const own = lanes.run(['mine'], 'passage', 'interactive'); // another kind: not merged
    w.requests[0]?.answer();
    await tick();
    expect(w.requests[1]?.texts).toEqual(['one', 'three', 'fifteen']); // up to maxMerge
    w.requests[1]?.answer();
    await tick();
    expect(w.requests[2]?.texts).toEqual(['x']);
    w.requests[2]?.answer();
    await tick();
    expect(w.requests[3]).toMatchObject({ texts: ['mine'], kind: 'passage' });
    w.requests[3]?.answer();
    expect((await Promise.all(qs)).map((v) => v[0]?.[0])).toEqual([3, 5, 7, 1]);
    expect((await own)[0]?.[0]).toBe(4);
    await bulk;
  });

  it('fails every request of a batch the worker failed, and goes on with the next', async () => {
    let calls = 0;
    const lanes = new LaneScheduler(
      async (texts) => {
        if (calls++ === 0) throw new Error('worker crashed');
        return texts.map(() => new Float32Array(1));
      },
      { backgroundChunk: 8, maxMerge: 64 },
    );
    await expect(lanes.run(['a'], 'query', 'interactive')).rejects.toThrow('worker crashed');
    expect(await lanes.run(['b'], 'query', 'interactive')).toHaveLength(1);
  });
});
