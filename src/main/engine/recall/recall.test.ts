import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const remember = (content: string, extra: Record<string, unknown> = {}) =>
  t.cli.call('memory.remember', { content, ...extra }).then((r) => r.id);

describe('lexical recall', () => {
  it('ranks memories with every query term above those with some', async () => {
    const partial = await remember('We deploy to staging every Friday afternoon.');
    const full = await remember('Deploy to the staging cluster with the blue-green pipeline.');
    const other = await remember('Lunch orders go through the office channel.');
    const r = await t.cli.call('memory.recall', { query: 'deploy staging pipeline' });
    expect(r.how).toBe('hybrid');
    expect(r.semantic).toBe('off');
    expect(r.degraded[0]).toMatch(/^semantic: off/);
    expect(r.abstained).toBe(false);
    expect(r.results.map((h) => h.id)).toEqual([full, partial]);
    expect(r.results.map((h) => h.id)).not.toContain(other);
    expect(r.results[0]?.why).toMatch(/matched all 3 query terms/);
    expect(r.results[1]?.why).toMatch(/matched 2 of 3 query terms/);
    expect(r.results[0]!.score).toBeGreaterThan(r.results[1]!.score);
  });

  it('puts the memory that quotes the query word for word first', async () => {
    // Every memory has every word; only one has them in this order.
    const quoting = await remember(
      'Notes from Tuesday: the cache warms after deploy and the queue drains slowly.',
    );
    const others = [];
    for (let i = 0; i < 12; i++)
      others.push(
        await remember(
          `Item ${i}: deploy the queue, then after the cache drains the warms slowly note ${'x'.repeat(i)} cache cache queue queue deploy.`,
        ),
      );
    const r = await t.cli.call('memory.recall', {
      query: 'cache warms after deploy',
      format: 'verbose',
      explain: true,
    });
    expect(r.results[0]?.id).toBe(quoting);
    const lexical = r.trace?.stages.find((s) => s.name === 'lexical');
    expect(lexical?.items[0]?.note).toBe('the exact phrase');
    expect(others).toContain(r.results[1]?.id);
  });

  it('returns the match of a two-word query when only one of its words is stored', async () => {
    const id = await remember('Postgres backups run nightly.');
    const r = await t.cli.call('memory.recall', { query: 'postgres replication' });
    expect(r.abstained).toBe(false);
    expect(r.results.map((h) => h.id)).toEqual([id]);
    expect(r.results[0]!.why).toMatch(/matched 1 of 2 query terms/);
    const code = await remember(
      'def retry(fn, n=3):\n    for _ in range(n):\n        try: return fn()',
    );
    const found = await t.cli.call('memory.recall', { query: 'retry function' });
    expect(found.results.map((h) => h.id)).toContain(code);
  });

  it('ranks memories holding more of the query, and the rarer words, first', async () => {
    // "deploy" is in every memory, "canary" in two, "rollback" in one.
    const both = await remember('A canary deploy needs a rollback plan written down first.');
    const canary = await remember('The canary deploy runs on five percent of the traffic.');
    await remember('Every deploy is announced in the team channel.');
    await remember('The deploy window closes at five on Fridays.');
    const r = await t.cli.call('memory.recall', {
      query: 'canary deploy rollback',
      format: 'verbose',
    });
    expect(r.results.slice(0, 2).map((h) => h.id)).toEqual([both, canary]);
    expect(r.results[0]!.breakdown!.coverage).toBe(1);
    const partial = r.results[1]!.breakdown!.coverage;
    const common = r.results[2]!.breakdown!.coverage;
    expect(partial).toBeGreaterThan(common);
    expect(partial).toBeLessThan(1);
  });

  it('finds identifiers by their parts and by their exact spelling', async () => {
    const id = await remember(
      'Call fetchUserProfile from src/api/users.ts; it reads max_retries from config.',
    );
    for (const q of [
      'fetchUserProfile',
      'user profile',
      'max_retries',
      'max retries',
      'src/api/users.ts',
      'users.ts',
    ]) {
      expect((await t.cli.call('memory.recall', { query: q })).results[0]?.id, q).toBe(id);
    }
  });

  it('filters by kind, tags, validity time and quarantine', async () => {
    const todo = await remember('TODO: migrate the billing cron to the scheduler', {
      tags: ['billing'],
    });
    const fact = await remember('The billing cron runs at 02:00 UTC', {
      tags: ['billing', 'cron'],
    });
    const old = await remember('The billing cron ran on the old host', {
      valid_from: '2025-01-01T00:00:00Z',
      valid_to: '2025-12-31T00:00:00Z',
    });
    expect(
      (
        await t.cli.call('memory.recall', { query: 'billing cron', kinds: ['prospective'] })
      ).results.map((h) => h.id),
    ).toEqual([todo]);
    expect(
      (await t.cli.call('memory.recall', { query: 'billing cron', tags: ['cron'] })).results.map(
        (h) => h.id,
      ),
    ).toEqual([fact]);
    const asOf2025 = await t.cli.call('memory.recall', {
      query: 'billing cron',
      as_of: '2025-06-01T00:00:00Z',
    });
    expect(asOf2025.results.map((h) => h.id).sort()).toEqual([todo, fact, old].sort());
    const asOf2026 = await t.cli.call('memory.recall', {
      query: 'billing cron',
      as_of: '2026-06-01T00:00:00Z',
    });
    expect(asOf2026.results.map((h) => h.id)).not.toContain(old);
    const all = await t.cli.call('memory.recall', { query: 'billing cron' });
    expect(all.results.find((h) => h.id === old)?.why).toMatch(/valid until 2025-12-31/);
  });

  it('truncates in compact format and gives everything with the breakdown in verbose', async () => {
    const long = `${'The incident review found that the queue consumer stalled. '.repeat(20)}End.`;
    await remember(long);
    const compact = await t.cli.call('memory.recall', { query: 'queue consumer stalled' });
    expect(compact.results[0]?.truncated).toBe(true);
    expect(compact.results[0]!.content.length).toBeLessThan(400);
    expect(compact.results[0]?.breakdown).toBeUndefined();
    const verbose = await t.cli.call('memory.recall', {
      query: 'queue consumer stalled',
      format: 'verbose',
    });
    expect(verbose.results[0]?.content).toBe(long);
    expect(verbose.results[0]?.breakdown).toMatchObject({ matched_terms: 3, query_terms: 3 });
  });

  it('honours max_tokens, saying how many results it left out', async () => {
    for (let i = 0; i < 12; i++) {
      await remember(
        `Runbook step ${i}: restart the ingest worker and check the ingest queue depth on dashboard ${i}.`,
      );
    }
    const all = await t.cli.call('memory.recall', { query: 'ingest worker', limit: 12 });
    expect(all.results).toHaveLength(12);
    const tiny = await t.cli.call('memory.recall', {
      query: 'ingest worker',
      limit: 12,
      max_tokens: 40,
    });
    expect(tiny).toMatchObject({ results: [], omitted: 12, abstained: false });
    for (const max of [150, 400, 1000]) {
      const r = await t.cli.call('memory.recall', {
        query: 'ingest worker',
        limit: 12,
        max_tokens: max,
      });
      expect(r.tokens.used).toBeLessThanOrEqual(max);
      expect(r.tokens.max).toBe(max);
      expect(r.results.length + r.omitted).toBe(12);
      expect(r.results.length).toBeGreaterThan(0);
      if (r.omitted > 0) expect(r.degraded.join(' ')).toMatch(/left out to stay within max_tokens/);
    }
  });

  it('abstains honestly on a query with no searchable words', async () => {
    await remember('Anything at all in the store');
    const r = await t.cli.call('memory.recall', { query: '?!…' });
    expect(r).toMatchObject({ abstained: true, results: [] });
    expect(r.degraded).toContain('the query has no searchable words');
  });
});

describe('rehearsal', () => {
  it('counts each recall as a use: an access and an FSRS review', async () => {
    const id = await remember('The on-call rotation changes on Mondays.');
    t.advance(3 * 86_400_000);
    const before = await t.cli.call('memory.get', { id });
    await t.cli.call('memory.recall', { query: 'on-call rotation' });
    await t.engine.rehearsals.flush();
    const after = await t.cli.call('memory.get', { id });
    expect(after.access.count).toBe(before.access.count + 1);
    expect(after.fsrs.reps).toBe(before.fsrs.reps + 1);
    expect(after.fsrs.stability).toBeGreaterThan(before.fsrs.stability);
    expect(after.activation!).toBeGreaterThan(before.activation!);
    // Browsing without rehearsal leaves it alone.
    await t.cli.call('memory.recall', { query: 'on-call rotation', rehearse: false });
    await t.engine.rehearsals.flush();
    expect((await t.cli.call('memory.get', { id })).access.count).toBe(after.access.count);
  });

  it('keeps the newest 50 accesses and the total count', async () => {
    const id = await remember('The coffee machine is on the third floor.');
    for (let i = 0; i < 60; i++) {
      t.advance(60_000);
      await t.cli.call('memory.recall', { query: 'coffee machine' });
      await t.engine.rehearsals.flush();
    }
    const m = await t.cli.call('memory.get', { id });
    expect(m.access.count).toBe(61);
    expect(m.access.recent).toHaveLength(50);
    expect(m.access.recent[0]).toBe(new Date(t.clock.now).toISOString());
  });
});
