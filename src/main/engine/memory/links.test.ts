import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import type { LociError } from '../../../shared/errors';

let t: TestEngine;
let ids: string[];
beforeEach(async () => {
  t = await openTestEngine();
  const { results } = await t.cli.call('memory.rememberMany', {
    items: [
      'Node A of the chain',
      'Node B of the chain',
      'Node C of the chain',
      'Node D of the chain',
    ].map((content) => ({ content })),
  });
  ids = results.map((r) => r.id);
});
afterEach(async () => {
  await t.close();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: LociError) => e,
  );

describe('links', () => {
  it('creates, updates and removes typed weighted links', async () => {
    const [a, b] = ids as [string, string];
    expect(
      await t.cli.call('link.create', { from: a, to: b, type: 'causes', weight: 0.7 }),
    ).toMatchObject({ change: 'created', weight: 0.7 });
    expect(
      await t.cli.call('link.create', { from: a, to: b, type: 'causes', weight: 0.9 }),
    ).toMatchObject({ change: 'updated', weight: 0.9 });
    await t.cli.call('link.create', { from: a, to: b, type: 'supports' });
    const m = await t.cli.call('memory.get', { id: a });
    expect(m.links.outgoing.map((l) => [l.type, l.weight])).toEqual([
      ['causes', 0.9],
      ['supports', 0.5],
    ]);
    expect((await t.cli.call('memory.get', { id: b })).links.incoming).toHaveLength(2);
    expect(await t.cli.call('link.remove', { from: a, to: b, type: 'causes' })).toMatchObject({
      change: 'removed',
      count: 1,
    });
    expect(await t.cli.call('link.remove', { from: a, to: b })).toMatchObject({
      change: 'removed',
      count: 1,
    });
    expect((await failure(t.cli.call('link.remove', { from: a, to: b })))?.code).toBe('not-found');
  });

  it('refuses self-links, bad weights and unknown memories', async () => {
    const [a] = ids as [string];
    expect((await failure(t.cli.call('link.create', { from: a, to: a })))?.message).toMatch(
      /cannot be linked to itself/,
    );
    expect(
      (await failure(t.cli.call('link.create', { from: a, to: ids[1]!, weight: 1.5 })))?.code,
    ).toBe('invalid-args');
    expect(
      (await failure(t.cli.call('link.create', { from: a, to: '01HZZZZZZZZZZZZZZZZZZZZZZZ' })))
        ?.code,
    ).toBe('not-found');
    expect(
      (await failure(t.cli.call('link.create', { from: a, to: ids[1]!, type: 'likes' as never })))
        ?.code,
    ).toBe('invalid-args');
  });

  it('walks neighbours by depth, type and visibility', async () => {
    const [a, b, c, d] = ids as [string, string, string, string];
    await t.cli.call('link.create', { from: a, to: b, type: 'follows' });
    await t.cli.call('link.create', { from: b, to: c, type: 'follows' });
    await t.cli.call('link.create', { from: d, to: a, type: 'related' });
    const one = await t.cli.call('graph.neighbors', { id: a });
    expect(one.nodes.map((n) => n.id).sort()).toEqual([b, d].sort());
    const two = await t.cli.call('graph.neighbors', { id: a, depth: 2 });
    expect(two.nodes.find((n) => n.id === c)?.depth).toBe(2);
    expect(two.edges).toHaveLength(3);
    const follows = await t.cli.call('graph.neighbors', { id: a, depth: 2, types: ['follows'] });
    expect(follows.nodes.map((n) => n.id).sort()).toEqual([b, c].sort());
    const limited = await t.cli.call('graph.neighbors', { id: a, depth: 2, limit: 1 });
    expect(limited).toMatchObject({ truncated: true });
    expect(limited.nodes).toHaveLength(1);

    // A private memory of another agent is neither shown nor walked through.
    const secret = await t
      .agent('zed')
      .call('memory.remember', { content: 'Zed private bridge note', visibility: 'private' });
    await t.cli.call('link.create', { from: c, to: secret.id });
    const cursorView = await t.agent('cursor').call('graph.neighbors', { id: c });
    expect(cursorView.nodes.map((n) => n.id)).toEqual([b]);
    const zedView = await t.agent('zed').call('graph.neighbors', { id: c });
    expect(zedView.nodes.map((n) => n.id).sort()).toEqual([b, secret.id].sort());
  });
});
