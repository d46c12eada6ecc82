import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { TextDraft } from '../memory/draftText';
import { DraftHandoff } from './scanHost';

/** A stand-in draft, told apart by its title. */
const draft = (n: number) => ({ title: `draft ${n}` }) as unknown as TextDraft;

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** A handoff of `expected` drafts, and what the worker's side does: send a chunk, counted. */
function handoff(expected: number, waitMs: number) {
  const channel = new MessageChannel();
  channels.push(channel);
  const signal = new SharedArrayBuffer(4);
  const send = (chunk: TextDraft[] | null) => {
    channel.port2.postMessage(chunk);
    Atomics.add(new Int32Array(signal), 0, 1);
  };
  return {
    taken: new DraftHandoff(channel.port1, signal, waitMs, expected),
    send,
    channel,
    signal,
  };
}

describe('drafts handed over by the scan worker in chunks', () => {
  it('gives a draft as soon as its chunk is in, without waiting for the later ones', () => {
    const { taken, send } = handoff(5, 10_000);
    send([draft(0), draft(1)]);
    const t0 = performance.now();
    expect(taken.take(0)).toEqual(draft(0));
    expect(taken.take(1)).toEqual(draft(1));
    expect(performance.now() - t0).toBeLessThan(5_000);
    send([draft(2), draft(3), draft(4)]);
    expect(taken.take(4)).toEqual(draft(4));
    expect(taken.take(3)).toEqual(draft(3));
    // Past what was asked for there is nothing to wait for.
    expect(taken.take(5)).toBeUndefined();
  });

  it('gives up on the rest when the worker could not draft a chunk', () => {
    const { taken, send } = handoff(4, 10_000);
    send([draft(0)]);
    send(null);
    const t0 = performance.now();
    expect(taken.take(0)).toEqual(draft(0));
    expect(taken.take(1)).toBeUndefined();
    expect(taken.take(3)).toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('waits for a chunk no longer than its deadline, and not again after it', () => {
    const { taken, send } = handoff(3, 300);
    send([draft(0)]);
    expect(taken.take(0)).toEqual(draft(0));
    const t0 = performance.now();
    expect(taken.take(1)).toBeUndefined();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
    const t1 = performance.now();
    expect(taken.take(2)).toBeUndefined();
    expect(performance.now() - t1).toBeLessThan(290);
  });

  it('wakes when another thread sends the chunk it waits for', async () => {
    const { taken, channel, signal } = handoff(1, 15_000);
    // The worker's side, in a thread of its own: sends the chunk a little later.
    const sender = new Worker(
      `const { workerData } = require('node:worker_threads');
       setTimeout(() => {
         workerData.port.postMessage([{ title: 'draft 0' }]);
         const flag = new Int32Array(workerData.signal);
         Atomics.add(flag, 0, 1);
         Atomics.notify(flag, 0);
       }, 200);`,
      { eval: true, workerData: { port: channel.port2, signal }, transferList: [channel.port2] },
    );
    try {
      const t0 = performance.now();
      expect(taken.take(0)).toEqual(draft(0));
      expect(performance.now() - t0).toBeLessThan(10_000);
    } finally {
      await sender.terminate();
    }
  });
});
