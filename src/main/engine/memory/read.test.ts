import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import type { LociError } from '../../../shared/errors';
import { LATEST_SCHEMA_VERSION } from '../store/migrations';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

describe('memory.list', () => {
  it('pages through every memory exactly once with cursors, in both directions', async () => {
    const items = Array.from({ length: 137 }, (_, i) => ({
      content: `Numbered memory ${i} for paging`,
    }));
    const { results } = await t.cli.call('memory.rememberMany', { items });
    // Several memories share a timestamp: the cursor must break ties by row.
    for (const direction of ['desc', 'asc'] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await t.cli.call('memory.list', {
          limit: 10,
          direction,
          ...(cursor ? { cursor } : {}),
        });
        expect(page.total).toBe(137);
        seen.push(...page.items.map((m) => m.id));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      expect(seen).toHaveLength(137);
      expect(new Set(seen).size).toBe(137);
      const expected = results.map((r) => r.id);
      expect(seen).toEqual(direction === 'asc' ? expected : [...expected].reverse());
    }
  });

  it('filters by kind, tag, source, pin and trust', async () => {
    await t.cli.call('memory.remember', {
      content: 'TODO: renew the TLS certificate',
      tags: ['ops', 'tls'],
      pinned: true,
    });
    await t
      .agent('cursor')
      .call('memory.remember', { content: 'The API uses cursor pagination', tags: ['api'] });
    await t
      .agent('claude-code')
      .call('memory.remember', { content: 'Tests run with vitest', tags: ['ops'] });
    expect((await t.cli.call('memory.list', { kinds: ['prospective'] })).total).toBe(1);
    expect((await t.cli.call('memory.list', { tags: ['ops'] })).total).toBe(2);
    expect((await t.cli.call('memory.list', { tags: ['ops', 'tls'] })).total).toBe(1);
    expect((await t.cli.call('memory.list', { source: 'agent:' })).total).toBe(2);
    expect((await t.cli.call('memory.list', { source: 'agent:cursor' })).total).toBe(1);
    expect((await t.cli.call('memory.list', { source: 'user' })).total).toBe(1);
    expect((await t.cli.call('memory.list', { pinned: true })).items[0]?.title).toBe(
      'TODO: renew the TLS certificate',
    );
    expect((await t.cli.call('memory.list', { trust: 'quarantined' })).total).toBe(0);
  });

  it('orders by update time on request', async () => {
    const a = await t.cli.call('memory.remember', { content: 'First written memory' });
    t.advance(1000);
    await t.cli.call('memory.remember', { content: 'Second written memory' });
    t.advance(1000);
    await t.cli.call('memory.update', { id: a.id, pinned: true });
    expect((await t.cli.call('memory.list', { order: 'updated' })).items[0]?.id).toBe(a.id);
    expect((await t.cli.call('memory.list', { order: 'created' })).items[0]?.id).not.toBe(a.id);
  });

  it('rejects a forged cursor', async () => {
    const err = await t.cli
      .call('memory.list', { cursor: 'bm90LWEtY3Vyc29y' })
      .catch((e: LociError) => e);
    expect((err as LociError).code).toBe('invalid-args');
  });
});

describe('stats.get and stores', () => {
  it('counts memories by state and kind', async () => {
    const a = await t.cli.call('memory.remember', { content: 'TODO: write the release notes' });
    const b = await t.cli.call('memory.remember', {
      content: 'The release branch is release/2026',
    });
    await t.cli.call('memory.remember', { content: `secret ghp_${'a1B'.repeat(12)}` });
    await t.cli.call('link.create', { from: a.id, to: b.id });
    await t.cli.call('memory.forget', { id: b.id });
    const s = await t.cli.call('stats.get', {});
    expect(s.memories).toMatchObject({ live: 2, deleted: 1, quarantined: 1, pinned: 0 });
    expect(s.memories.by_kind.prospective).toBe(1);
    expect(s.links).toBe(1);
    expect(s.audit_entries).toBe(5);
    expect(s.vectors).toEqual({ model: 'hash-384-v1', semantic: 'off', embedded: 2, pending: 0 });
    expect(s.database.schema_version).toBe(LATEST_SCHEMA_VERSION);
  });

  it('keeps stores apart and refuses unknown ones', async () => {
    await t.cli.call('store.create', { name: 'work' });
    await t.cli.call('memory.remember', { store: 'work', content: 'Only in the work store' });
    expect((await t.cli.call('stats.get', { store: 'work' })).memories.live).toBe(1);
    expect((await t.cli.call('stats.get', {})).memories.live).toBe(0);
    const err = await t.cli.call('memory.list', { store: 'play' }).catch((e: LociError) => e);
    expect((err as LociError).code).toBe('store-not-found');
    expect((err as LociError).message).toMatch(/No store named "play".*loci stores create play/);
    expect((await t.cli.call('store.list', {})).stores.map((s) => s.name)).toEqual([
      'default',
      'work',
    ]);
  });
});
