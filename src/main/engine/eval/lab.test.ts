import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import { mergeRecallConfig } from './lab';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

async function seed() {
  const { results } = await t.cli.call('memory.rememberMany', {
    items: [
      { content: 'The deploy pipeline runs on GitHub Actions with a manual approval step.' },
      { content: 'Database migrations are reviewed by two people before they merge.' },
      { content: 'The staging deploy happens every night at two in the morning.' },
      { content: 'Coffee machine on the third floor is broken again.' },
    ],
  });
  return results.map((r) => r.id);
}

describe('quality lab through the API', () => {
  it('marks recalls, merges marks on the same query, runs and keeps the trend', async () => {
    const [pipeline, migrations, staging, coffee] = (await seed()) as [
      string,
      string,
      string,
      string,
    ];
    const first = await t.cli.call('eval.mark', {
      query: 'how do we deploy',
      missed: [pipeline, staging],
      call_id: 7,
    });
    expect(first.expected.map((m) => m.id)).toEqual([pipeline, staging]);
    expect(first.call_id).toBe(7);
    // "this one was wrong" on the same query: merged into the same case; a later mark wins.
    const merged = await t.cli.call('eval.mark', {
      query: 'how do we deploy',
      wrong: [staging, coffee],
    });
    expect(merged.id).toBe(first.id);
    expect(merged.expected.map((m) => m.id)).toEqual([pipeline]);
    expect(merged.wrong.map((m) => m.id)).toEqual([staging, coffee]);
    await t.cli.call('eval.mark', { query: 'who reviews migrations', missed: [migrations] });
    expect((await t.cli.call('eval.cases', {})).cases).toHaveLength(2);

    const store = await t.engine.store(undefined);
    const accesses = () =>
      (store.db.prepare('SELECT COUNT(*) AS n FROM access').get() as { n: number }).n;
    const accessesBefore = accesses();
    const run = await t.cli.call('eval.run', {});
    expect(run.run.id).not.toBeNull();
    expect(run.run.cases).toBe(2);
    expect(run.run.label).toBe('store configuration');
    expect(run.outcomes).toHaveLength(2);
    const s = run.run.summary;
    expect(s.recall10.n).toBe(2);
    expect(s.wrong10.n).toBe(1);
    for (const e of [s.recall10, s.mrr, s.ndcg10, s.wrong10]) {
      expect(e.low).toBeLessThanOrEqual(e.mean);
      expect(e.high).toBeGreaterThanOrEqual(e.mean);
    }
    // The migrations memory is the only lexical match for its query: found first.
    const migrationsOutcome = run.outcomes.find((o) => o.case_id !== first.id);
    expect(migrationsOutcome?.rr).toBe(1);

    t.advance(60_000);
    const compared = await t.cli.call('eval.run', {
      config: { use_vectors: false },
      against: { use_vectors: true, weights: { relevance: 1, activation: 0 } },
    });
    expect(compared.run.label).toBe('vectors off');
    expect(compared.against?.label).toBe('vectors on; weights relevance 1, activation 0');
    expect(compared.difference?.ndcg10.n).toBe(2);
    const runs = (await t.cli.call('eval.runs', {})).runs;
    expect(runs.map((r) => r.label)).toEqual([
      'store configuration',
      'vectors off',
      'vectors on; weights relevance 1, activation 0',
    ]);
    expect(Date.parse(runs[1]!.at) - Date.parse(runs[0]!.at)).toBe(60_000);

    // A look without a trace is not kept.
    await t.cli.call('eval.run', { save: false });
    expect((await t.cli.call('eval.runs', {})).runs).toHaveLength(3);

    // Measuring never rehearses: the runs wrote no access rows (an ordinary recall of the
    // same query does, which shows the count would see it).
    await new Promise((r) => setTimeout(r, 30));
    expect(accesses()).toBe(accessesBefore);
    t.advance(3_600_000);
    await t.cli.call('memory.recall', { query: 'who reviews migrations' });
    await new Promise((r) => setTimeout(r, 30));
    expect(accesses()).toBeGreaterThan(accessesBefore);
  });

  it('skips cases whose memories are gone and says which are gone', async () => {
    const [pipeline, migrations] = (await seed()) as [string, string];
    await t.cli.call('eval.mark', { query: 'deploy pipeline', missed: [pipeline] });
    await t.cli.call('eval.mark', { query: 'migrations', missed: [migrations] });
    await t.cli.call('memory.forget', { id: pipeline });
    const cases = (await t.cli.call('eval.cases', {})).cases;
    expect(cases[0]!.expected[0]).toMatchObject({ id: pipeline, gone: true });
    const run = await t.cli.call('eval.run', { save: false });
    expect(run.run.cases).toBe(1);
    expect(run.run.summary.skipped).toBe(1);
  });

  it('removes a case', async () => {
    const [pipeline] = (await seed()) as [string];
    const c = await t.cli.call('eval.mark', { query: 'deploy', missed: [pipeline] });
    await expect(t.cli.call('eval.remove', { id: c.id })).resolves.toMatchObject({ removed: true });
    expect((await t.cli.call('eval.cases', {})).cases).toEqual([]);
    await expect(t.cli.call('eval.remove', { id: c.id })).rejects.toMatchObject({
      code: 'not-found',
    });
  });

  it('refuses bad input with a clear error', async () => {
    const [pipeline] = (await seed()) as [string];
    await expect(t.cli.call('eval.mark', { query: 'deploy' })).rejects.toMatchObject({
      code: 'invalid-args',
      message: expect.stringContaining('mark at least one memory'),
    });
    await expect(
      t.cli.call('eval.mark', { query: 'deploy', missed: [pipeline], wrong: [pipeline] }),
    ).rejects.toMatchObject({ message: expect.stringContaining('both missed and wrong') });
    await expect(
      t.cli.call('eval.mark', { query: 'deploy', missed: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'] }),
    ).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringContaining('01ARZ3NDEKTSV4RRFFQ69G5FAV'),
    });
    await expect(t.cli.call('eval.run', {})).rejects.toMatchObject({
      code: 'invalid-args',
      message: expect.stringContaining('no eval cases yet'),
    });
    await expect(
      t.cli.call('eval.run', { config: { weights: { relevance: 2 } } } as never),
    ).rejects.toMatchObject({ code: 'invalid-args' });
    // Agents cannot mark or run: the quality lab is the person's.
    await expect(
      t.agent('cursor').call('eval.mark', { query: 'deploy', missed: [pipeline] }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('merges a run configuration over the store ranking', () => {
    const base = t.engine.config.recall;
    const merged = mergeRecallConfig(base, { use_vectors: false, weights: { relevance: 1 } });
    expect(merged.use_vectors).toBe(false);
    expect(merged.use_recognizer).toBe(base.use_recognizer);
    expect(merged.weights).toEqual({ ...base.weights, relevance: 1 });
  });
});
