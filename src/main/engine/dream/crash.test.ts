// A crash in the middle of a dream leaves a consistent store: each phase commits (with
// its part of the report and its audit entry) or not at all. Proven twice: a throw
// injected inside a phase's transaction, and a child process killed (SIGKILL) inside
// one; then the database's integrity, its foreign keys, the audit chain and the
// invariants are checked.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestEngine, tempDir, type TestEngine } from '../../../../test/helpers/engine';
import type { OpenStore } from '../store/registry';

const DAY = 86_400_000;
let t: TestEngine | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

/** Old memories with links and arousal: decay, affect and merge all have work. */
async function seed(engine: TestEngine): Promise<void> {
  const { results } = await engine.cli.call('memory.rememberMany', {
    items: [
      { content: 'The staging cluster runs three worker nodes in eu-west' },
      { content: 'The staging cluster runs three worker nodes in eu-west region' },
      { content: 'Friday deploys are frozen after the big outage' },
      { content: 'On-call rotates weekly on Mondays at nine' },
    ],
  });
  const ids = results.map((r) => r.id);
  await engine.cli.call('link.createMany', {
    links: [
      { from: ids[0]!, to: ids[2]!, weight: 0.9 },
      { from: ids[2]!, to: ids[3]!, weight: 0.9 },
    ],
  });
  const store = await engine.engine.store(undefined);
  store.db.prepare('UPDATE memory SET arousal = 0.9').run();
}

function snapshot(store: OpenStore) {
  return {
    links: store.db
      .prepare('SELECT src, dst, type, weight FROM link ORDER BY src, dst, type')
      .all(),
    memories: store.db
      .prepare('SELECT id, salience, arousal, deleted_at, version FROM memory ORDER BY rid')
      .all(),
    reviews: store.db.prepare('SELECT COUNT(*) AS n FROM review_item').get(),
  };
}

async function checkConsistent(engine: TestEngine): Promise<void> {
  const store = await engine.engine.store(undefined);
  expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(store.db.pragma('foreign_key_check')).toEqual([]);
  const verify = await engine.cli.call('audit.verify', {});
  expect(verify.ok).toBe(true);
  // Invariants: the full-text index matches the live memories; no review item points at
  // a cycle that does not exist.
  const live = store.db.prepare('SELECT COUNT(*) AS n FROM memory WHERE deleted_at IS NULL').get();
  const indexed = store.db.prepare('SELECT COUNT(*) AS n FROM memory_fts').get();
  expect(indexed).toEqual(live);
  expect(
    store.db
      .prepare(
        'SELECT COUNT(*) AS n FROM review_item WHERE cycle NOT IN (SELECT id FROM dream_report)',
      )
      .get(),
  ).toEqual({ n: 0 });
  const doctor = await engine.cli.call('doctor.run', {});
  expect(doctor.checks.filter((c) => c.status === 'fail')).toEqual([]);
}

describe('a crash in the middle of a dream', () => {
  it('a throw inside a phase rolls that phase back; the phases before it stay', async () => {
    const dir = tempDir('loci-dream-crash-');
    t = await openTestEngine({
      dataDir: dir,
      dream: {
        insidePhase: (phase) => {
          if (phase === 'decay') throw new Error('injected failure inside the decay transaction');
        },
      },
    });
    await seed(t);
    t.advance(200 * DAY);
    const store = await t.engine.store(undefined);
    const before = snapshot(store);
    const r = await t.cli.call('dream.run', {});
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/injected failure/);
    expect(r.phases.map((p) => [p.phase, p.status])).toEqual([
      ['replay', 'done'],
      ['cluster', 'done'],
      ['schema', 'done'],
      ['affect', 'done'],
      ['decay', 'failed'],
    ]);
    const after = snapshot(store);
    // affect committed (arousal cooled); decay did not (link weights as they were).
    expect(after.links).toEqual(before.links);
    expect((after.memories as { arousal: number }[]).every((m) => m.arousal < 0.9)).toBe(true);
    expect(
      store.db.prepare(`SELECT action FROM audit WHERE actor = 'dream' ORDER BY seq`).all(),
    ).toEqual([{ action: 'dream.cluster' }, { action: 'dream.affect' }]);
    await checkConsistent(t);
  });

  it('a process killed inside a phase leaves the committed phases and an interrupted report', async () => {
    const dir = tempDir('loci-dream-kill-');
    const build = await openTestEngine({ dataDir: dir });
    await seed(build);
    const before = snapshot(await build.engine.store(undefined));
    await build.engine.close();

    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '../../../../test/helpers/dreamCrashChild.ts'),
        dir,
        'merge',
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.signal, child.stderr).toBe('SIGKILL');

    t = await openTestEngine({ dataDir: dir });
    const store = await t.engine.store(undefined);
    const list = await t.cli.call('dream.list', {});
    const cycle = list.cycles[0]!;
    expect(cycle.status).toBe('interrupted');
    expect(cycle.phases).toEqual([
      'replay',
      'cluster',
      'schema',
      'affect',
      'decay',
      'recombine',
      'contradict',
    ]);
    const after = snapshot(store);
    // decay committed (links faded), merge did not (no proposal, nothing merged).
    expect(after.links).not.toEqual(before.links);
    expect(after.reviews).toEqual({ n: 0 });
    expect(
      (after.memories as { deleted_at: number | null }[]).every((m) => m.deleted_at === null),
    ).toBe(true);
    await checkConsistent(t);
    // The next cycle runs normally and makes the merge proposal the killed one did not.
    const next = await t.cli.call('dream.run', { phases: ['merge'] });
    expect(next.phases[0]!.proposals).toBe(1);
  });
});
