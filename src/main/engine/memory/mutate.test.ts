import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import type { LociError } from '../../../shared/errors';
import { trustAfterNewText } from './mutate';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: LociError) => e,
  );
const count = async (sql: string, ...params: unknown[]) =>
  ((await t.engine.store(undefined)).db.prepare(sql).get(...params) as { n: number }).n;

describe('memory.update', () => {
  it('keeps the previous text as a version and re-indexes the new one', async () => {
    const { id } = await t.cli.call('memory.remember', {
      content: 'Deploys run from the jenkins server.',
    });
    t.advance(60_000);
    const r = await t.cli.call('memory.update', {
      id,
      content: 'Deploys run from GitHub Actions now.',
      tags: ['ci'],
    });
    expect(r).toEqual({ id, version: 2, change: 'updated' });
    const h = await t.cli.call('memory.history', { id });
    expect(h.current_version).toBe(2);
    expect(h.versions).toMatchObject([
      { version: 1, content: 'Deploys run from the jenkins server.', actor: 'cli', tags: [] },
    ]);
    expect((await t.cli.call('memory.recall', { query: 'jenkins' })).results).toEqual([]);
    expect((await t.cli.call('memory.recall', { query: 'github actions' })).results[0]?.id).toBe(
      id,
    );
    expect(
      (await t.cli.call('memory.recall', { query: 'deploys', tags: ['ci'] })).results[0]?.id,
    ).toBe(id);
    const m = await t.cli.call('memory.get', { id });
    expect(m.updated_at > m.created_at).toBe(true);
  });

  it('reports unchanged when nothing differs, without a new version', async () => {
    const { id } = await t.cli.call('memory.remember', { content: 'Lint runs on every commit.' });
    expect(
      await t.cli.call('memory.update', { id, content: 'Lint runs on every commit.' }),
    ).toEqual({ id, version: 1, change: 'unchanged' });
    expect(await count('SELECT COUNT(*) AS n FROM audit')).toBe(1);
  });

  it('fails with conflict on a stale expected_version', async () => {
    const { id } = await t.cli.call('memory.remember', {
      content: 'The cache TTL is five minutes.',
    });
    await t.cli.call('memory.update', { id, title: 'Cache TTL' });
    const err = await failure(
      t.cli.call('memory.update', { id, title: 'Cache lifetime', expected_version: 1 }),
    );
    expect(err?.code).toBe('conflict');
    expect(err?.message).toMatch(/at version 2, not 1/);
  });

  it('needs at least one field and a non-empty title', async () => {
    const { id } = await t.cli.call('memory.remember', { content: 'Something worth keeping.' });
    expect((await failure(t.cli.call('memory.update', { id })))?.message).toMatch(
      /nothing to update/,
    );
    expect(
      (await failure(t.cli.call('memory.update', { id, title: ' \u200B ' })))?.message,
    ).toMatch(/title cannot be empty/);
  });

  it('lets an agent change the visibility only of what it wrote', async () => {
    const mine = await t
      .agent('cursor')
      .call('memory.remember', { content: 'Cursor wrote this one.' });
    const theirs = await t.cli.call('memory.remember', { content: 'The person wrote this one.' });
    expect(
      (await t.agent('cursor').call('memory.update', { id: mine.id, visibility: 'private' }))
        .change,
    ).toBe('updated');
    expect(
      (
        await failure(
          t.agent('cursor').call('memory.update', { id: theirs.id, visibility: 'private' }),
        )
      )?.code,
    ).toBe('forbidden');
  });
});

describe('memory.tag', () => {
  it('adds and removes tags', async () => {
    const { id } = await t.cli.call('memory.remember', {
      content: 'Tagged memory text',
      tags: ['a', 'b'],
    });
    expect((await t.cli.call('memory.tag', { id, add: ['c'], remove: ['a'] })).change).toBe(
      'tagged',
    );
    expect((await t.cli.call('memory.get', { id })).tags).toEqual(['b', 'c']);
    expect((await t.cli.call('memory.tag', { id, add: ['c'] })).change).toBe('unchanged');
  });
});

describe('forget, restore and erase', () => {
  it('forgets softly and restores', async () => {
    const { id } = await t.cli.call('memory.remember', {
      content: 'The VPN config lives in ops/vpn.',
    });
    expect((await t.cli.call('memory.forget', { id })).change).toBe('forgotten');
    expect((await t.cli.call('memory.recall', { query: 'vpn config' })).results).toEqual([]);
    expect((await t.cli.call('memory.list', {})).total).toBe(0);
    expect((await t.cli.call('memory.list', { deleted: 'only' })).items[0]?.id).toBe(id);
    expect((await failure(t.cli.call('memory.get', { id })))?.code).toBe('conflict');
    expect(
      (await t.cli.call('memory.get', { id, include_deleted: true })).deleted_at,
    ).not.toBeNull();
    expect((await failure(t.cli.call('memory.update', { id, title: 'x y z' })))?.message).toMatch(
      /restore it first/,
    );
    expect((await t.cli.call('memory.restore', { id })).change).toBe('restored');
    expect((await t.cli.call('memory.recall', { query: 'vpn config' })).results[0]?.id).toBe(id);
    expect((await failure(t.cli.call('memory.restore', { id })))?.code).toBe('conflict');
  });

  it('erases from every table and index and leaves an audit tombstone', async () => {
    const a = await t.cli.call('memory.remember', {
      content: 'Erase me: the old office door code.',
      tags: ['office'],
    });
    const b = await t.cli.call('memory.remember', { content: 'A neighbour memory that stays.' });
    await t.cli.call('memory.update', {
      id: a.id,
      content: 'Erase me: the office door code, updated.',
    });
    await t.cli.call('link.create', { from: a.id, to: b.id, type: 'related' });
    await t.cli.call('memory.recall', { query: 'office door code' });
    await t.engine.rehearsals.flush();
    const store = await t.engine.store(undefined);
    const rid = (
      store.db.prepare('SELECT rid FROM memory WHERE id = ?').get(a.id) as { rid: number }
    ).rid;
    store.db
      .prepare(
        `INSERT OR REPLACE INTO memory_embedding (rid, model, dims, vector, code, embedded_at)
         VALUES (?, 'test-model', 4, ?, ?, 0)`,
      )
      .run(rid, Buffer.from(new Float32Array([0.5, 0.5, 0.5, 0.5]).buffer), Buffer.from([0x0f]));

    expect((await t.cli.call('memory.erase', { id: a.id })).change).toBe('erased');
    for (const table of [
      'memory_tag',
      'memory_version',
      'access',
      'memory_state',
      'memory_embedding',
    ]) {
      expect(await count(`SELECT COUNT(*) AS n FROM ${table} WHERE rid = ?`, rid), table).toBe(0);
    }
    expect(await count('SELECT COUNT(*) AS n FROM memory WHERE rid = ?', rid)).toBe(0);
    expect(await count('SELECT COUNT(*) AS n FROM link WHERE src = ? OR dst = ?', rid, rid)).toBe(
      0,
    );
    expect(
      await count(`SELECT COUNT(*) AS n FROM memory_fts WHERE memory_fts MATCH '"door code"'`),
    ).toBe(0);
    const tomb = store.db.prepare(`SELECT * FROM audit WHERE action = 'memory.erase'`).get() as {
      target: string;
      data: string;
    };
    expect(tomb.target).toBe(a.id);
    expect(tomb.data).not.toMatch(/door/);
    expect(JSON.parse(tomb.data)).toMatchObject({ tombstone: true });
    expect(
      (await failure(t.cli.call('memory.get', { id: a.id, include_deleted: true })))?.code,
    ).toBe('not-found');
    expect((await t.cli.call('memory.get', { id: b.id })).links.incoming).toEqual([]);
  });
});

describe('trustAfterNewText (update, dream merge and refine alike)', () => {
  it('quarantines on new credential rules, adding them to the reasons already there', () => {
    const quarantined = { trust: 'quarantined' as const, quarantine_reasons: '["jwt"]' };
    expect(trustAfterNewText(quarantined, ['github-token'])).toEqual({
      trust: 'quarantined',
      quarantine_reasons: ['github-token', 'jwt'],
    });
    expect(trustAfterNewText(quarantined, [])).toEqual({
      trust: 'quarantined',
      quarantine_reasons: ['jwt'],
    });
    expect(trustAfterNewText({ trust: 'trusted', quarantine_reasons: '[]' }, [])).toEqual({
      trust: 'trusted',
      quarantine_reasons: [],
    });
  });
});
