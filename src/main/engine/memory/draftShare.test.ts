import { MessageChannel, Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { SCAN_TIMEOUT_RULE, scanSecretsMany, setScanBudget } from '../write/scanHost';
import { draftText } from './draftText';
import {
  HANDOFF_SHARE,
  prepareBatch,
  prepareMemories,
  WORKER_SHARE,
  type PendingBatch,
  type RememberItem,
} from './remember';

const TOKEN = `ghp_${'aB3'.repeat(12)}`;

/** A batch with given and derived titles, given and inferred kinds, tags and one credential. */
function batch(n: number): RememberItem[] {
  return Array.from({ length: n }, (_, i) => ({
    content:
      i === n - 1
        ? `The CI token is ${TOKEN} for the deploy job.`
        : `Note ${i}: the max_pool_size of service-${i % 7} is ${i}; TODO check it next week!`,
    ...(i % 3 === 0 ? { title: `Pool sizing ${i}` } : {}),
    ...(i % 5 === 0 ? { kind: 'semantic' as const } : {}),
    tags: [`svc-${i % 7}`, 'pools'],
  }));
}

/** What this thread would draft for each item (the reference). */
function expected(items: RememberItem[]) {
  return items.map((item) =>
    draftText({
      title: item.title ?? '',
      content: item.content,
      tags: item.tags ?? [],
      ...(item.kind ? { kind: item.kind } : {}),
    }),
  );
}

function drafted(p: Awaited<ReturnType<typeof prepareMemories>>[number]) {
  return {
    title: p.title,
    kind: p.kind,
    valence: p.valence,
    arousal: p.arousal,
    fts: p.fts,
    recognizerKeys: p.recognizerKeys,
  };
}

describe('a large batch drafted by this thread and the scan worker together', () => {
  it('sends the worker its share with the scan, and drafts exactly as this thread would', async () => {
    await scanSecretsMany(['the worker starts']);
    const items = batch(120);
    const post = vi.spyOn(Worker.prototype, 'postMessage');
    let got;
    try {
      got = await prepareMemories(items);
      const requests = post.mock.calls.map(([m]) => m as { drafts?: unknown[] });
      expect(requests.map((r) => r.drafts?.length)).toEqual([Math.floor(120 * WORKER_SHARE)]);
    } finally {
      post.mockRestore();
    }
    const want = expected(items);
    got.forEach((p, i) => {
      const w = want[i];
      expect(drafted(p), `item ${i}`).toEqual({
        title: w?.title,
        kind: w?.kind,
        valence: w?.valence,
        arousal: w?.arousal,
        fts: [w?.fts[0], items[i]?.content, w?.fts[1], w?.fts[2]],
        recognizerKeys: w?.recognizerKeys,
      });
    });
    expect(got.at(-1)?.secretRules).toContain('github-token');
    expect(got.slice(0, -1).every((p) => p.secretRules.length === 0)).toBe(true);
  });

  it('for a write, takes the worker’s share after the scans, when the write reaches it', async () => {
    await scanSecretsMany(['the worker starts']);
    // A credential in this thread's part and one in the worker's share.
    const items = batch(120);
    items[0] = { content: `Deploy with ${TOKEN} on Fridays.` };
    const post = vi.spyOn(Worker.prototype, 'postMessage');
    let pending: PendingBatch | undefined;
    const shared = Math.floor(120 * HANDOFF_SHARE);
    try {
      pending = await prepareBatch(items);
      const requests = post.mock.calls.map(([m]) => m as { drafts?: unknown[]; handoff?: unknown });
      expect(requests.map((r) => r.drafts?.length)).toEqual([shared]);
      expect(requests[0]?.handoff).toBeDefined();
    } finally {
      post.mockRestore();
    }
    const want = expected(items);
    // This thread's part is there at once; the worker's come in chunks as the write needs them.
    const got = Array.from({ length: pending.length }, (_, i) => pending?.at(i));
    pending.close();
    expect(got).toHaveLength(120);
    got.forEach((p, i) =>
      expect(p && drafted(p), `item ${i}`).toEqual({
        title: want[i]?.title,
        kind: want[i]?.kind,
        valence: want[i]?.valence,
        arousal: want[i]?.arousal,
        fts: [want[i]?.fts[0], items[i]?.content, want[i]?.fts[1], want[i]?.fts[2]],
        recognizerKeys: want[i]?.recognizerKeys,
      }),
    );
    expect(got[0]?.secretRules).toContain('github-token');
    expect(got.at(-1)?.secretRules).toContain('github-token');
    expect(got.slice(1, -1).every((p) => p?.secretRules.length === 0)).toBe(true);
  });

  it('drafts the share itself when the worker’s drafts do not come', async () => {
    await scanSecretsMany(['the worker starts']);
    const items = batch(80);
    // The worker answers the scan, but its drafts go where nobody reads them and the flag
    // it sets is not the one this thread waits on: the wait runs to its deadline.
    const original = Worker.prototype.postMessage;
    const elsewhere = new MessageChannel();
    const post = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (
      this: Worker,
      message: unknown,
    ) {
      const m = message as { handoff?: object };
      if (!m.handoff) return original.call(this, message);
      const lost = { port: elsewhere.port2, signal: new SharedArrayBuffer(4) };
      return original.call(this, { ...m, handoff: lost }, [elsewhere.port2]);
    });
    setScanBudget({ baseMs: 2000, perKiBMs: 0 });
    let pending: PendingBatch | undefined;
    try {
      pending = await prepareBatch(items);
    } finally {
      post.mockRestore();
      setScanBudget();
    }
    const t0 = performance.now();
    const got = Array.from({ length: pending.length }, (_, i) => pending?.at(i));
    // It waited for them as long as the drafting's budget, and no longer than it must.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1_990);
    pending.close();
    elsewhere.port1.close();
    const want = expected(items);
    got.forEach((p, i) => expect(p?.title, `item ${i}`).toBe(want[i]?.title));
    expect(got.map((p) => p?.recognizerKeys)).toEqual(want.map((w) => w.recognizerKeys));
    expect(got.at(-1)?.secretRules).toContain('github-token');
    expect(got.slice(0, -1).every((p) => p?.secretRules.length === 0)).toBe(true);
  });

  it('drafts the share itself when the worker went past its budget', async () => {
    await scanSecretsMany(['the worker starts']);
    const items = batch(80);
    setScanBudget({ baseMs: 0, perKiBMs: 0 });
    // The request never reaches the worker, so it cannot answer before its budget runs
    // out however long this thread takes to draft its own part.
    const post = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(() => undefined);
    let got;
    try {
      got = await prepareMemories(items);
      expect(post).toHaveBeenCalledTimes(1);
    } finally {
      post.mockRestore();
      setScanBudget();
    }
    expect(got.every((p) => p.secretRules.includes(SCAN_TIMEOUT_RULE))).toBe(true);
    const want = expected(items);
    got.forEach((p, i) => expect(p.title, `item ${i}`).toBe(want[i]?.title));
    expect(got.map((p) => p.recognizerKeys)).toEqual(want.map((w) => w.recognizerKeys));
  });
});
