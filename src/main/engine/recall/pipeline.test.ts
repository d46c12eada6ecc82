import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import { QUERY_EMBED_MAX } from '../semantic';
import { stmt } from '../store/statements';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const remember = (content: string, extra: Record<string, unknown> = {}) =>
  t.cli.call('memory.remember', { content, ...extra }).then((r) => r.id);

describe('the recall pipeline', () => {
  it('answers a question that names a memory on the fast path', async () => {
    const id = await remember(
      'Billing deploy checklist: run the migrations, then deploy from the ops repo.',
      { title: 'Billing deploy checklist' },
    );
    await remember('Catalog deploy notes: the catalog deploys itself on merge.', {
      title: 'Catalog deploy notes',
    });
    const one = await t.cli.call('memory.recall', {
      query: 'billing deploy checklist',
      format: 'verbose',
      limit: 1,
    });
    expect(one.how).toBe('fastpath');
    expect(one.results.map((h) => h.id)).toEqual([id]);
    expect(one.results[0]!.why).toMatch(/^named by the query/);
    expect(one.confidence.level).toBe('high');
    // Asked for more, the named memory leads and the query's words find the rest, still
    // without the vector branch (no query embedding on the fast path).
    const more = await t.cli.call('memory.recall', {
      query: 'billing deploy checklist',
      explain: true,
    });
    expect(more.how).toBe('fastpath');
    expect(more.results[0]!.id).toBe(id);
    expect(more.results).toHaveLength(2);
    expect(more.trace!.stages.find((s) => s.name === 'vector')!.detail).toMatchObject({
      used: false,
    });
  });

  it('returns the stage-by-stage trace with explain', async () => {
    await remember('The orders API keeps 40 database connections open.');
    const r = await t.cli.call('memory.recall', {
      query: 'orders database connections',
      explain: true,
    });
    expect(r.trace?.stages.map((s) => s.name)).toEqual([
      'recognise',
      'lexical',
      'vector',
      'fusion',
      'spreading',
      'ranking',
      'abstention',
      'diversity',
      'budget',
    ]);
    expect(r.trace?.terms).toEqual(['orders', 'database', 'connections']);
    const lexical = r.trace!.stages[1]!;
    expect(lexical.items[0]!.title).toBe('The orders API keeps 40 database connections open.');
    expect(r.timings.total_ms).toBeGreaterThan(0);
  });

  it('abstains when nothing stored is about the question, and shows the near misses in verbose mode', async () => {
    await remember('The billing service sends invoices on the first of the month.');
    const r = await t.cli.call('memory.recall', {
      query: 'weather forecast for the weekend',
      format: 'verbose',
      explain: true,
    });
    expect(r.abstained).toBe(true);
    expect(r.results).toEqual([]);
    expect(r.confidence.level).toBe('low');
    expect(r.confidence.basis).toMatch(
      /0 % of the query's weight in words \(100 % of it in words no memory holds\)/,
    );
    const abstention = r.trace!.stages.find((s) => s.name === 'abstention')!;
    expect(abstention.detail).toMatchObject({ abstained: true, best_coverage: 0, absent: 1 });
    // One word of four in common is a lead, not nothing: returned, marked low.
    const weak = await t.cli.call('memory.recall', {
      query: 'billing weather forecast tomorrow',
      format: 'verbose',
    });
    expect(weak.abstained).toBe(false);
    expect(weak.confidence.level).toBe('low');
    expect(weak.results[0]!.why).toMatch(/^matched 1 of 4 query terms/);
  });

  it('returns a weak but on-topic answer ranked and marked low, not an abstention', async () => {
    const id = await remember('The billing service sends invoices on the first of the month.');
    await remember('The catalog service rebuilds its search index every night.');
    const r = await t.cli.call('memory.recall', { query: 'when are billing invoices sent out' });
    expect(r.abstained).toBe(false);
    expect(r.results[0]!.id).toBe(id);
    expect(r.results[0]!.confidence).toBeGreaterThan(r.results[1]?.confidence ?? 0);
    expect(['high', 'medium', 'low']).toContain(r.confidence.level);
  });

  it('hides superseded memories unless history or a past time is asked for', async () => {
    const old = await remember('The staging database is postgres 14.', {
      valid_to: '2026-02-01T00:00:00Z',
    });
    const current = await remember('The staging database is postgres 16 now.', {
      valid_from: '2026-02-01T00:00:00Z',
    });
    await t.cli.call('link.create', { from: current, to: old, type: 'supersedes' });
    const now = await t.cli.call('memory.recall', { query: 'staging database postgres' });
    expect(now.results.map((h) => h.id)).toEqual([current]);
    // …and says what it left out, also when only the old wording matches.
    expect(now.hidden_versions).toBe(1);
    const oldWords = await t.cli.call('memory.recall', { query: 'postgres 14' });
    expect(oldWords.results.map((h) => h.id)).not.toContain(old);
    expect(oldWords.hidden_versions).toBe(1);
    const history = await t.cli.call('memory.recall', {
      query: 'staging database postgres',
      history: true,
    });
    expect(history.results.map((h) => h.id).sort()).toEqual([old, current].sort());
    expect(history.hidden_versions).toBeUndefined();
    const past = await t.cli.call('memory.recall', {
      query: 'staging database postgres',
      as_of: '2026-01-15T00:00:00Z',
    });
    expect(past.results.map((h) => h.id)).toEqual([old]);
  });

  it('surfaces a memory linked to a match through spreading activation', async () => {
    const match = await remember('The ledger writer batches journal entries every five seconds.');
    const linked = await remember('Priya owns that component and reviews its changes.');
    await t.cli.call('link.create', { from: linked, to: match, type: 'related', weight: 1 });
    const r = await t.cli.call('memory.recall', {
      query: 'ledger writer journal batches',
      format: 'verbose',
    });
    expect(r.results.map((h) => h.id)).toEqual([match, linked]);
    expect(r.results[1]!.why).toBe('linked to other results');
    expect(r.results[1]!.breakdown!.spread).toBeCloseTo(0.6, 5);
  });

  it('strengthens the links between memories recalled together', async () => {
    const a = await remember('The search indexer consumes the catalog events topic.');
    const b = await remember('The search indexer writes to the products index in elastic.');
    await t.cli.call('link.create', { from: a, to: b, weight: 0.5 });
    await t.cli.call('memory.recall', { query: 'search indexer' });
    await t.engine.rehearsals.flush();
    const link = (await t.cli.call('memory.get', { id: a })).links.outgoing[0]!;
    expect(link.weight).toBeCloseTo(0.55, 10);
    expect(link.traversals).toBe(1);
  });

  // A backlog the engine did not make itself: vectors lost while it was closed (as after a
  // crash mid-backfill). Opened again, it counts what is missing and fills it in.
  async function withLostVectors(embedWrites: 'background' | 'await'): Promise<TestEngine> {
    await remember('The notifier sends refund emails.');
    const dir = t.dir;
    await t.engine.close();
    const again = await openTestEngine({ dataDir: dir, embedWrites });
    stmt((await again.engine.store(undefined)).db, 'DELETE FROM memory_embedding').run();
    t = again;
    return again;
  }

  it('embeds a small backlog before searching, in the daemon too (read your writes)', async () => {
    const bg = await withLostVectors('background');
    const r = await bg.cli.call('memory.recall', { query: 'refund emails', explain: true });
    expect(r.degraded.join(' ')).not.toMatch(/not embedded yet/);
    expect(r.how).toBe('hybrid');
    expect(r.trace!.stages.find((s) => s.name === 'vector')!.items.length).toBe(1);
    expect((await bg.cli.call('stats.get', {})).vectors).toMatchObject({ embedded: 1, pending: 0 });
  });

  it('says when a large backlog is still waiting for vectors', async () => {
    const items = Array.from({ length: QUERY_EMBED_MAX + 20 }, (_, i) => ({
      content: `Refund batch ${i} was emailed to the finance team.`,
    }));
    await t.cli.call('memory.rememberMany', { items });
    const dir = t.dir;
    await t.engine.close();
    const bg = await openTestEngine({ dataDir: dir, embedWrites: 'background' });
    stmt((await bg.engine.store(undefined)).db, 'DELETE FROM memory_embedding').run();
    t = bg;
    const r = await bg.cli.call('memory.recall', { query: 'refund batch finance' });
    expect(r.degraded.join(' ')).toMatch(/\d+ memories are not embedded yet/);
    // The background backfill it started fills the gap.
    await bg.engine.semantic.idle();
    expect((await bg.cli.call('stats.get', {})).vectors).toMatchObject({ pending: 0 });
  });

  it('embeds a few waiting memories first when nothing runs after the call (the CLI)', async () => {
    const cli = await withLostVectors('await');
    const r = await cli.cli.call('memory.recall', { query: 'refund emails' });
    expect(r.degraded.join(' ')).not.toMatch(/not embedded yet/);
    expect((await cli.cli.call('stats.get', {})).vectors).toMatchObject({
      embedded: 1,
      pending: 0,
    });
  });
});

describe('calibration', () => {
  it('sets the abstention bar from the store and recall uses it', async () => {
    const topics = [
      'billing',
      'orders',
      'catalog',
      'search',
      'ledger',
      'notifier',
      'gateway',
      'inventory',
    ];
    const items = topics.flatMap((topic, i) => [
      {
        content: `The ${topic} service runs on port ${8000 + i} and is deployed with the ${topic} helm chart.`,
      },
      {
        content: `Alerts for ${topic} page the on-call engineer when p95 latency stays above ${200 + i * 10} ms.`,
      },
      {
        content: `The ${topic} team reviews schema changes on Thursdays before the release train.`,
      },
    ]);
    await t.cli.call('memory.rememberMany', { items });
    const c = await t.cli.call('recall.calibrate', { sample: 24 });
    expect(c).toMatchObject({
      store: 'default',
      model: 'hash-384-v1',
      answerable: 24,
      memories: 24,
    });
    expect(c.unanswerable).toBeGreaterThanOrEqual(10);
    expect(c.threshold).toBeGreaterThan(0);
    expect(c.balanced_accuracy).toBeGreaterThan(0.5);
    const r = await t.cli.call('memory.recall', {
      query: 'billing helm chart port',
      explain: true,
    });
    const abstention = r.trace!.stages.find((s) => s.name === 'abstention')!;
    expect(abstention.detail).toMatchObject({
      threshold_source: 'calibrated',
      threshold: c.threshold,
    });
  });

  it('refuses a store too small to calibrate', async () => {
    await remember('Just one memory in this store.');
    await expect(t.cli.call('recall.calibrate', {})).rejects.toThrow(/needs at least 10/);
  });
});
