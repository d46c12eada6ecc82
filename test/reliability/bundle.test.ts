// Export and import of a store as a portable JSON bundle (issue 10, item 3): export →
// import into a new store → export gives the same memories (forgotten ones as
// tombstones), tags, versions, FSRS states and links; the imported store is searchable
// and its audit chain records the import; a bundle that would lose data, a malformed one
// or a non-empty target store is refused with the reason and nothing written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreBundle } from '../../src/shared/api';
import { cli } from '../helpers/cli';
import { openTestEngine, tempDir, type TestEngine } from '../helpers/engine';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const content = (b: StoreBundle) => {
  const { exported_at: _e, store: _s, ...rest } = b;
  return rest;
};

async function populate(): Promise<string[]> {
  const ids: string[] = [];
  for (const text of [
    'Deploys go out on Tuesdays after the standup.',
    'The staging database listens on port 5433.',
    'Prefer pnpm over npm in this repository.',
    'The on-call phone is in the drawer.',
  ])
    ids.push((await t.cli.call('memory.remember', { content: text, tags: ['ops'] })).id);
  // A turn of a conversation: when it was said, by whom, in which session.
  const turn = await t.cli.call('memory.remember', {
    content: 'Aiko: pnpm it is, I will own the migration',
    session: 'core-2026-01-08',
    speaker: 'Aiko',
    occurred_at: '2026-01-08T10:02:00Z',
  });
  ids.push(turn.id);
  const [a, b, c, d] = ids as [string, string, string, string];
  await t.cli.call('memory.update', {
    id: b,
    content: 'The staging database listens on port 5434.',
  });
  await t.cli.call('link.create', { from: a, to: b, type: 'related' });
  await t.cli.call('link.create', { from: b, to: c, type: 'supports', weight: 0.8 });
  await t.cli.call('memory.forget', { id: d });
  await t.cli.call('memory.recall', { query: 'staging database port' });
  await new Promise((r) => setTimeout(r, 30)); // rehearsal writes FSRS state
  return ids;
}

describe('store bundles', () => {
  it('round-trips exactly through a new store, searchable and audited', async () => {
    const ids = await populate();
    const first = (await t.cli.call('store.export', {})) as StoreBundle;
    expect(first.memories).toHaveLength(5);
    expect(first.memories.find((m) => m.id === ids[4])).toMatchObject({
      session: 'core-2026-01-08',
      speaker: 'Aiko',
      occurred_at: Date.parse('2026-01-08T10:02:00Z'),
    });
    expect(first.memories.filter((m) => m.deleted_at !== null)).toHaveLength(1);
    expect(first.versions.length).toBeGreaterThan(0);
    expect(first.links).toHaveLength(2);
    expect(first.states.length).toBeGreaterThan(0);

    await t.cli.call('store.create', { name: 'copy' });
    const r = await t.cli.call('store.import', { store: 'copy', bundle: first as never });
    expect(r).toMatchObject({ store: 'copy', memories: 5, links: 2 });
    expect(await t.cli.call('memory.get', { store: 'copy', id: ids[4]! })).toMatchObject({
      session: 'core-2026-01-08',
      speaker: 'Aiko',
      occurred_at: '2026-01-08T10:02:00.000Z',
    });
    const second = (await t.cli.call('store.export', { store: 'copy' })) as StoreBundle;
    expect(content(second)).toEqual(content(first));

    const hits = await t.cli.call('memory.recall', {
      store: 'copy',
      query: 'staging database port',
    });
    expect(hits.results[0]?.id).toBe(ids[1]);
    const gone = await t.cli.call('memory.recall', {
      store: 'copy',
      query: 'on-call phone drawer',
    });
    expect(gone.results.map((h) => h.id)).not.toContain(ids[3]);
    const verify = await t.cli.call('audit.verify', { store: 'copy' });
    expect(verify.ok).toBe(true);
    const audit = await t.cli.call('audit.list', { store: 'copy' });
    expect(audit.entries.map((e) => e.action)).toEqual(['store.import']);
  });

  it('refuses a non-empty store, a malformed bundle and one that would lose a column', async () => {
    await populate();
    const bundle = (await t.cli.call('store.export', {})) as StoreBundle;
    await expect(t.cli.call('store.import', { bundle: bundle as never })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/already holds 5 memories.*new store/),
    });
    await t.cli.call('store.create', { name: 'target' });
    const cases: [unknown, RegExp][] = [
      [{ format: 'zip' }, /"format" is "zip"/],
      [{ ...bundle, version: 9 }, /bundle version 9/],
      [{ ...bundle, links: 'no' }, /"links" is not a list/],
      [{ ...bundle, memories: [...bundle.memories, bundle.memories[0]] }, /appears twice/],
      [
        { ...bundle, memories: bundle.memories.map((m) => ({ ...m, colour: 'red' })) },
        /"colour", which this store does not have.*would drop it/,
      ],
      [
        { ...bundle, links: [{ ...bundle.links[0], dst_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' }] },
        /names memory 01ARZ3NDEKTSV4RRFFQ69G5FAV, which the bundle does not hold/,
      ],
    ];
    for (const [b, message] of cases) {
      await expect(
        t.cli.call('store.import', { store: 'target', bundle: b as never }),
      ).rejects.toMatchObject({ code: 'invalid-args', message: expect.stringMatching(message) });
      // All or nothing: the refused import left nothing behind.
      expect((await t.cli.call('store.export', { store: 'target' })).memories).toEqual([]);
    }
    await expect(
      t.agent('cursor').call('store.import', { store: 'target', bundle: bundle as never }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('loci export and loci import carry a store between data directories', async () => {
    const home = tempDir('loci-bundle-cli-');
    for (const text of ['First exported note about caches.', 'Second exported note about queues.'])
      expect((await cli(home, ['remember', text])).code).toBe(0);
    const out = join(home, 'bundle.json');
    const ex = await cli(home, ['export', '--out', out]);
    expect(ex.code, ex.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).memories).toHaveLength(2);
    const other = tempDir('loci-bundle-cli-other-');
    const im = await cli(other, ['import', out]);
    expect(im.code, im.stderr).toBe(0);
    expect(im.stdout).toMatch(/Imported into store "default": 2 memories/);
    const bad = await cli(other, ['import', join(home, 'missing.json')]);
    expect(bad.stderr).toMatch(/Cannot read .* as JSON/);
  });
});
