import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../api';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const agent = (name: string) =>
  createInProcessClient(t.handlers, { actor: { kind: 'mcp', client: name } });

describe('memory.complete', () => {
  it('pages tags, the most used first, with the whole count when there are more', async () => {
    await t.cli.call('memory.remember', { content: 'One.', tags: ['ops', 'ops-db'] });
    await t.cli.call('memory.remember', { content: 'Two.', tags: ['ops'] });
    await t.cli.call('memory.remember', { content: 'Three.', tags: ['ops_x', 'other'] });
    expect(await t.cli.call('memory.complete', { field: 'tag', prefix: 'OPS', limit: 1 })).toEqual({
      values: ['ops'],
      total: 3,
      has_more: true,
    });
    // `_` is a character typed, not LIKE's wildcard.
    expect(await t.cli.call('memory.complete', { field: 'tag', prefix: 'ops_' })).toEqual({
      values: ['ops_x'],
      total: 1,
      has_more: false,
    });
  });

  it("offers an agent neither another client's private memories nor forgotten or quarantined ones", async () => {
    const mine = await agent('a').call('memory.remember', {
      content: 'Private to a.',
      tags: ['secret-plan'],
      visibility: 'private',
    });
    const gone = await t.cli.call('memory.remember', { content: 'Forgotten.', tags: ['gone'] });
    await t.cli.call('memory.forget', { id: gone.id });
    const b = agent('b');
    expect((await b.call('memory.complete', { field: 'tag', prefix: 'secret' })).values).toEqual(
      [],
    );
    expect((await b.call('memory.complete', { field: 'tag', prefix: 'gone' })).values).toEqual([]);
    expect(
      (await b.call('memory.complete', { field: 'id', prefix: mine.id.slice(0, 10) })).values,
    ).toEqual([]);
    expect(
      (await agent('a').call('memory.complete', { field: 'id', prefix: mine.id.slice(0, 10) }))
        .values,
    ).toEqual([mine.id]);
  });

  it('offers a token scoped to some stores only those, and every kind', async () => {
    await t.cli.call('store.create', { name: 'work' });
    await t.cli.call('store.create', { name: 'wiki' });
    const scoped = createInProcessClient(t.handlers, {
      actor: {
        kind: 'mcp',
        client: 'scoped',
        grant: {
          id: 'g1',
          name: 'scoped',
          policy: {
            read_only: false,
            stores: ['work'],
            ingest: true,
            forget: true,
            shared_only: false,
          },
        },
      },
    });
    expect((await scoped.call('memory.complete', { field: 'store', prefix: 'w' })).values).toEqual([
      'work',
    ]);
    expect((await t.cli.call('memory.complete', { field: 'kind', prefix: '' })).total).toBe(6);
    await expect(
      t.cli.call('memory.complete', { field: 'colour' as never, prefix: '' }),
    ).rejects.toThrow(/field/);
  });
});
