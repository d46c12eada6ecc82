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
    expect(w.requests).toHaveLength(1); // sent at once: one piece in flight, three waiting
    expect(w.requests[0]?.texts).toHaveLength(8);
    const query = lanes.run(['what port?'], 'query', 'interactive');
    expect(w.requests).toHaveLength(1); // waits for the piece in flight
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

  it('sizes background pieces to a time budget, learning how long a text takes', async () => {
    const w = fakeWorker();
    let clock = 0;
    const lanes = new LaneScheduler(w.send, {
      backgroundChunk: 32,
      backgroundBudgetMs: 10,
      maxMerge: 64,
      now: () => clock,
    });
    const texts = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const bulk = lanes.run(texts, 'passage', 'background');
    const answer = async (i: number, ms: number) => {
      await tick();
      clock += ms;
      w.requests[i]?.answer();
    };
    expect(lanes.pieceSize).toBe(1); // nothing timed yet: the first piece is one text
    await answer(0, 2); // 2 ms a text: five fit in 10 ms
    expect(w.requests[1]?.texts).toHaveLength(5);
    await answer(1, 5 * 20); // 20 ms a text now: the estimate moves a third of the way
    expect(lanes.pieceSize).toBe(1); // (2 + 0.3 × 18 = 7.4 ms a text)
    expect(w.requests[2]?.texts).toEqual(['p6']);
    // A query still goes ahead of the rest of the job.
    const query = lanes.run(['q'], 'query', 'interactive');
    await answer(2, 1);
    await tick();
    expect(w.requests[3]?.texts).toEqual(['q']);
    w.requests[3]?.answer();
    await query;
    for (let i = 4; w.requests.length > i || !lanes.idle; i++) await answer(i, 1);
    const vectors = await bulk;
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => t.length));
    expect(Math.max(...w.requests.map((r) => r.texts.length))).toBeLessThanOrEqual(32);
  });

  it('drops the rest of a background job whose piece failed, and goes on with the next', async () => {
    let calls = 0;
    const sent: string[][] = [];
    const lanes = new LaneScheduler(
      async (texts) => {
        sent.push(texts);
        if (calls++ === 0) throw new Error('worker crashed');
        return texts.map(() => new Float32Array(1));
      },
      { backgroundChunk: 2, maxMerge: 64 },
    );
    const failed = lanes.run(['a', 'b', 'c', 'd'], 'passage', 'background');
    const next = lanes.run(['e'], 'passage', 'background');
    await expect(failed).rejects.toThrow('worker crashed');
    expect(await next).toHaveLength(1);
    expect(sent).toEqual([['a', 'b'], ['e']]);
  });
});
