import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

describe('the Atlas map of meaning', () => {
  it('puts memories whose embeddings are close near each other, and says the map goes by meaning', async () => {
    const { results } = await t.cli.call('memory.rememberMany', {
      items: ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1'].map((k) => ({ content: `note ${k}` })),
    });
    const store = await t.engine.store(undefined);
    const dims = 8;
    // Two clusters and a stray, with a little noise (deterministic).
    const base = (k: string) =>
      k.startsWith('a')
        ? [1, 0, 0, 0, 0.5, 0, 0, 0]
        : k.startsWith('b')
          ? [0, 1, 0, 0, 0, 0.5, 0, 0]
          : [0, 0, 1, 1, 0, 0, 0, 0];
    const keys = ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1'];
    store.db.prepare('DELETE FROM memory_embedding').run();
    const put = store.db.prepare(
      `INSERT INTO memory_embedding (rid, model, dims, vector, code, embedded_at)
       VALUES ((SELECT rid FROM memory WHERE id = ?), 'test-8', ?, ?, ?, 0)`,
    );
    results.forEach((r, i) => {
      const v = Float32Array.from(base(keys[i]!), (x, d) => x + ((i * 7 + d * 3) % 5) * 0.01);
      put.run(r.id, dims, Buffer.from(v.buffer), Buffer.alloc(1));
    });
    const atlas = await t.cli.call('graph.atlas', {});
    expect(atlas.layout).toBe('meaning');
    const at = new Map(atlas.nodes.map((n) => [n.id, n.at]));
    const p = (i: number) => at.get(results[i]!.id)!;
    expect(p(0)).toHaveLength(2);
    const d = (i: number, j: number) => Math.hypot(p(i)[0] - p(j)[0], p(i)[1] - p(j)[1]);
    const within = Math.max(d(0, 1), d(0, 2), d(1, 2), d(3, 4), d(3, 5), d(4, 5));
    const between = Math.min(d(0, 3), d(1, 4), d(2, 5), d(0, 6), d(3, 6));
    expect(within).toBeLessThan(between / 3);
  });

  it('goes by links when memories have no vectors', async () => {
    await t.cli.call('memory.rememberMany', { items: [{ content: 'one' }, { content: 'two' }] });
    (await t.engine.store(undefined)).db.prepare('DELETE FROM memory_embedding').run();
    const atlas = await t.cli.call('graph.atlas', {});
    expect(atlas.layout).toBe('links');
    expect(atlas.nodes.every((n) => n.at === undefined)).toBe(true);
  });
});
