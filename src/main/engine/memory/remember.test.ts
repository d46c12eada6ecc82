import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import type { LociError } from '../../../shared/errors';

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

describe('memory.remember', () => {
  it('stores a memory with derived title, inferred kind and appraisal', async () => {
    const r = await t.cli.call('memory.remember', {
      content: '## Billing deploys\nWe deploy billing from the ops repo; staging first.',
      tags: [' ops ', 'billing', 'ops'],
    });
    expect(r).toMatchObject({ duplicate: false, quarantined: false });
    expect(r.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    const m = await t.cli.call('memory.get', { id: r.id });
    expect(m).toMatchObject({
      title: 'Billing deploys',
      kind: 'semantic',
      tags: ['billing', 'ops'],
      source: 'user',
      trust: 'trusted',
      visibility: 'shared',
      version: 1,
      pinned: false,
      layer: 'working',
    });
    expect(m.salience).toBeGreaterThan(0);
    expect(m.access.count).toBe(1);
    expect(m.fsrs.reps).toBe(1);
    expect(m.retrievability).toBeCloseTo(1, 5);
  });

  it('returns the existing id for exact duplicates, hidden characters included', async () => {
    const a = await t.cli.call('memory.remember', {
      content: 'The staging database is called orders_stg.',
    });
    const b = await t.cli.call('memory.remember', {
      content: '  The staging\u200B database is called orders_stg.\n',
    });
    expect(b).toEqual({ id: a.id, duplicate: true, quarantined: false });
    expect((await t.cli.call('stats.get', {})).memories.live).toBe(1);
  });

  it('uses the given title, kind, pin and validity', async () => {
    const r = await t.agent('cursor').call('memory.remember', {
      content: 'Alice leads the platform team.',
      title: 'Platform lead',
      kind: 'semantic',
      pinned: true,
      valid_from: '2026-01-01T00:00:00Z',
      valid_to: '2026-12-31T00:00:00Z',
      evidence: [{ quote: 'Alice is our lead now', class: 'USER' }],
    });
    const m = await t.cli.call('memory.get', { id: r.id });
    expect(m).toMatchObject({
      title: 'Platform lead',
      pinned: true,
      source: 'agent:cursor',
      valid_from: '2026-01-01T00:00:00.000Z',
      valid_to: '2026-12-31T00:00:00.000Z',
      evidence: [{ quote: 'Alice is our lead now', class: 'USER' }],
    });
  });

  it('accepts a one-character memory', async () => {
    const one = await t.cli.call('memory.remember', { content: 'y' });
    expect((await t.cli.call('memory.get', { id: one.id })).content).toBe('y');
    const yes = await t.cli.call('memory.remember', { content: 'Mel: Yes!' });
    expect(yes.duplicate).toBe(false);
  });

  it('rejects empty content, content past 64 KiB and unknown fields, naming the problem', async () => {
    const empty = await failure(t.cli.call('memory.remember', { content: ' \u200B ' }));
    expect(empty?.code).toBe('invalid-args');
    expect(empty?.message).toMatch(/content is empty: give at least one visible character/);
    const long = await failure(t.cli.call('memory.remember', { content: 'x'.repeat(65537) }));
    expect(long?.message).toMatch(/maximum is 65536 bytes/);
    const extra = await failure(
      t.cli.call('memory.remember', { content: 'long enough text', colour: 'red' } as never),
    );
    expect(extra?.code).toBe('invalid-args');
    expect(extra?.message).toMatch(/unknown field "colour"/);
    const order = await failure(
      t.cli.call('memory.remember', {
        content: 'long enough text',
        valid_from: '2026-02-01T00:00:00Z',
        valid_to: '2026-01-01T00:00:00Z',
      }),
    );
    expect(order?.message).toMatch(/valid_from must not be later than valid_to/);
    expect((await t.cli.call('stats.get', {})).memories.live).toBe(0);
  });

  it('keeps private memories to their owner', async () => {
    const cursor = t.agent('cursor');
    const zed = t.agent('zed');
    const r = await cursor.call('memory.remember', {
      content: 'My scratch note about the parser',
      visibility: 'private',
    });
    expect((await cursor.call('memory.get', { id: r.id })).owner).toBe('mcp:cursor');
    expect((await failure(zed.call('memory.get', { id: r.id })))?.code).toBe('not-found');
    expect((await zed.call('memory.recall', { query: 'scratch parser' })).results).toHaveLength(0);
    expect((await cursor.call('memory.recall', { query: 'scratch parser' })).results).toHaveLength(
      1,
    );
    // The person sees everything.
    expect((await t.cli.call('memory.get', { id: r.id })).visibility).toBe('private');
    // Another agent writing the same text gets its own memory: the private one does not leak.
    expect(
      (await zed.call('memory.remember', { content: 'My scratch note about the parser' }))
        .duplicate,
    ).toBe(false);
  });
});

describe('memory.rememberMany', () => {
  it('writes a batch in one transaction, folding duplicates inside it', async () => {
    const { results } = await t.cli.call('memory.rememberMany', {
      items: [
        { content: 'First fact in the batch' },
        { content: 'Second fact in the batch' },
        { content: 'First fact in the batch' },
      ],
    });
    expect(results.map((r) => r.duplicate)).toEqual([false, false, true]);
    expect(results[2]?.id).toBe(results[0]?.id);
  });

  it('writes nothing when one item is invalid, and says which', async () => {
    const err = await failure(
      t.cli.call('memory.rememberMany', {
        items: [{ content: 'A perfectly fine memory' }, { content: '  ' }],
      }),
    );
    expect(err?.code).toBe('invalid-args');
    expect(err?.message).toMatch(/^item 1: content is empty/);
    expect((await t.cli.call('stats.get', {})).memories.live).toBe(0);
  });
});

describe('quarantine', () => {
  const secret = `ghp_${'Q9x'.repeat(12)}`;

  it('keeps credential-looking memories from agents until a person promotes them', async () => {
    const agent = t.agent('cursor');
    const r = await agent.call('memory.remember', {
      content: `The release bot uses ${secret} for pushes`,
    });
    expect(r.quarantined).toBe(true);
    expect((await agent.call('memory.recall', { query: 'release bot pushes' })).results).toEqual(
      [],
    );
    expect((await failure(agent.call('memory.get', { id: r.id })))?.code).toBe('not-found');
    expect((await agent.call('memory.list', { trust: 'any' })).items).toEqual([]);
    // The person sees it, lists it and can search it on purpose.
    const m = await t.cli.call('memory.get', { id: r.id });
    expect(m.quarantine_reasons).toContain('github-token');
    expect((await t.cli.call('memory.list', { trust: 'quarantined' })).total).toBe(1);
    expect((await t.cli.call('memory.recall', { query: 'release bot pushes' })).results).toEqual(
      [],
    );
    expect(
      (
        await t.cli.call('memory.recall', {
          query: 'release bot pushes',
          include_quarantined: true,
        })
      ).results[0]?.quarantined,
    ).toBe(true);
    // An agent cannot promote; a person can.
    expect((await failure(agent.call('memory.promote', { id: r.id })))?.code).toBe('forbidden');
    expect((await t.cli.call('memory.promote', { id: r.id })).change).toBe('promoted');
    expect(
      (await agent.call('memory.recall', { query: 'release bot pushes' })).results,
    ).toHaveLength(1);
  });

  it('never writes the secret into the audit chain', async () => {
    await t.cli.call('memory.remember', {
      content: `deploy token ${secret}`,
      title: `token ${secret}`,
    });
    const store = await t.engine.store(undefined);
    const audit = JSON.stringify(store.db.prepare('SELECT * FROM audit').all());
    expect(audit).not.toContain(secret.slice(4));
    expect(audit).toContain('github-token');
  });

  it('quarantines a memory when an update brings a credential in', async () => {
    const r = await t.cli.call('memory.remember', { content: 'The release bot pushes tags' });
    await t.cli.call('memory.update', {
      id: r.id,
      content: `The release bot pushes tags with ${secret}`,
    });
    expect((await t.cli.call('memory.get', { id: r.id })).trust).toBe('quarantined');
  });
});
