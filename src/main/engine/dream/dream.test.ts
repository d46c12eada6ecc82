// Every dream phase on a hand-built store: what it proposes in a dry run, what it
// changes when applied (and audits as `dream`), and that a second dry run right after
// proposes nothing new. Time moves with the test engine's clock.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestEngine, tempDir, type TestEngine } from '../../../../test/helpers/engine';
import type { DreamPhaseName, DreamReport } from '../../../shared/api';
import type { LociError } from '../../../shared/errors';
import type { OpenStore } from '../store/registry';

const DAY = 86_400_000;
let t: TestEngine;

async function open(dream: Record<string, unknown> = {}): Promise<OpenStore> {
  const dir = tempDir('loci-dream-');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ dream }));
  t = await openTestEngine({ dataDir: dir });
  return t.engine.store(undefined);
}

afterEach(async () => {
  await t?.close();
});

const run = (phases: DreamPhaseName[], dry_run = false) =>
  t.cli.call('dream.run', { phases, dry_run });

const phase = (r: DreamReport, name: DreamPhaseName) => r.phases.find((p) => p.phase === name)!;

async function remember(...contents: string[]): Promise<string[]> {
  const { results } = await t.cli.call('memory.rememberMany', {
    items: contents.map((content) => ({ content })),
  });
  return results.map((r) => r.id);
}

function rid(store: OpenStore, id: string): number {
  return (store.db.prepare('SELECT rid FROM memory WHERE id = ?').get(id) as { rid: number }).rid;
}

function dreamAudit(store: OpenStore): { actor: string; action: string }[] {
  return store.db
    .prepare(`SELECT actor, action FROM audit WHERE action LIKE 'dream.%' ORDER BY seq`)
    .all() as { actor: string; action: string }[];
}

describe('replay', () => {
  it('links memories used together twice, once', async () => {
    const store = await open();
    const [a, b, c] = await remember(
      'The build cache lives in /var/cache/ci',
      'Cache misses double the build time',
      'Lunch is at noon on Fridays',
    );
    t.advance(DAY);
    const at1 = t.clock.now;
    const at2 = at1 + 60_000;
    t.advance(2 * 60_000);
    const add = store.db.prepare('INSERT INTO access (rid, at) VALUES (?, ?)');
    for (const at of [at1, at2]) {
      add.run(rid(store, a!), at);
      add.run(rid(store, b!), at);
    }
    add.run(rid(store, c!), at1);
    const dry = await run(['replay'], true);
    expect(phase(dry, 'replay').changes).toEqual([
      expect.objectContaining({ kind: 'link', target: `${a}->${b}`, before: null }),
    ]);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM link').get()).toEqual({ n: 0 });

    const applied = await run(['replay']);
    expect(phase(applied, 'replay').changes_total).toBe(1);
    const view = await t.cli.call('memory.get', { id: a! });
    expect(view.links.outgoing).toEqual([expect.objectContaining({ to: b, type: 'related' })]);
    expect(dreamAudit(store)).toEqual([{ actor: 'dream', action: 'dream.replay' }]);

    const again = await run(['replay'], true);
    expect(phase(again, 'replay').changes_total).toBe(0);
  });
});

describe('cluster and schema', () => {
  it('proposes a summary for a cluster stable since an earlier cycle, through the inbox', async () => {
    const store = await open();
    const g1 = await remember(
      'Postgres backups run nightly with pg_dump to the backup bucket',
      'Postgres restore drills happen monthly from the backup bucket',
      'The backup bucket keeps Postgres dumps for 30 days',
    );
    const g2 = await remember(
      'The frontend uses React with Vite for builds',
      'Vite dev server proxies the API in the frontend',
      'React components in the frontend use CSS modules',
    );
    const links = [g1, g2].flatMap((g) => [
      { from: g[0]!, to: g[1]!, weight: 0.8 },
      { from: g[1]!, to: g[2]!, weight: 0.8 },
      { from: g[0]!, to: g[2]!, weight: 0.8 },
    ]);
    await t.cli.call('link.createMany', { links });

    const first = await run(['cluster', 'schema']);
    expect(phase(first, 'cluster').changes).toHaveLength(2);
    expect(phase(first, 'schema').proposals).toBe(0); // not stable yet: just found
    t.advance(DAY);
    const second = await run(['cluster', 'schema']);
    expect(phase(second, 'cluster').changes_total).toBe(0);
    expect(phase(second, 'schema').proposals).toBe(2);
    expect(phase(second, 'schema').notes.join(' ')).toMatch(/No language model is configured/);

    const inbox = await t.cli.call('review.list', {});
    expect(inbox.counts).toEqual({ pending: 2, accepted: 0, rejected: 0 });
    const item = inbox.items.find((i) => (i.proposal.members as string[]).includes(g1[0]!))!;
    expect(item.kind).toBe('schema');
    expect(item.evidence.map((e) => e.id).sort()).toEqual([...g1].sort());
    expect(item.proposal.content).toMatch(/3 related memories about .*backup/);
    // Nothing was written as a memory yet.
    expect((await t.cli.call('stats.get', {})).memories.by_kind.schematic).toBe(0);

    t.advance(DAY);
    const third = await run(['cluster', 'schema'], true);
    expect(phase(third, 'cluster').changes_total).toBe(0);
    expect(phase(third, 'schema').proposals).toBe(0);

    const decided = await t.cli.call('review.accept', { ids: [item.id] });
    const [schemaId] = decided.results[0]!.result_ids;
    const memory = await t.cli.call('memory.get', { id: schemaId! });
    expect(memory).toMatchObject({ kind: 'schematic', source: 'dream', trust: 'trusted' });
    expect(memory.links.outgoing.map((l) => [l.to, l.type]).sort()).toEqual(
      [...g1].sort().map((id) => [id, 'derived_from']),
    );
    const actions = store.db
      .prepare(`SELECT actor, action FROM audit WHERE action LIKE 'review.%' ORDER BY seq`)
      .all();
    expect(actions).toEqual([
      { actor: 'dream', action: 'review.propose' },
      { actor: 'dream', action: 'review.propose' },
      { actor: 'cli', action: 'review.accept' },
    ]);
    // The accepted schema does not reshape its cluster: no new proposal next time.
    t.advance(DAY);
    const fourth = await run(['cluster', 'schema'], true);
    expect(phase(fourth, 'cluster').changes_total).toBe(0);
    expect(phase(fourth, 'schema').proposals).toBe(0);
  });
});

describe('affect', () => {
  it('cools arousal by its half-life, never a pinned memory, and only once per elapsed time', async () => {
    const store = await open({ arousal_half_life_days: 30 });
    const [hot, pinned] = await remember(
      'The outage on Friday was terrifying',
      'Pinned outage notes',
    );
    await t.cli.call('memory.update', { id: pinned!, pinned: true });
    store.db.prepare('UPDATE memory SET arousal = 0.8').run();
    t.advance(30 * DAY);
    const dry = await run(['affect'], true);
    expect(phase(dry, 'affect').changes).toEqual([
      { kind: 'arousal', target: hot, before: 0.8, after: 0.4 },
    ]);
    await run(['affect']);
    const arousal = (id: string) => t.cli.call('memory.get', { id }).then((m) => m.arousal);
    expect(await arousal(hot!)).toBe(0.4);
    expect(await arousal(pinned!)).toBe(0.8);
    expect(phase(await run(['affect'], true), 'affect').changes_total).toBe(0);
    t.advance(30 * DAY);
    await run(['affect']);
    expect(await arousal(hot!)).toBe(0.2);
  });
});

describe('decay and prune', () => {
  it('fades unused links and memories, forgets long-unused ones softly, never pinned ones', async () => {
    const store = await open({ fade_half_life_days: 90, prune_after_days: 365 });
    const [a, b, keep] = await remember(
      'An old note about the legacy FTP server',
      'The FTP server password rotation schedule',
      'Pinned: the production database host',
    );
    await t.cli.call('memory.update', { id: keep!, pinned: true });
    await t.cli.call('link.create', { from: a!, to: b!, weight: 0.8 });
    await t.cli.call('link.create', { from: a!, to: keep!, weight: 0.8 });
    t.advance(90 * DAY);
    const first = await run(['decay']);
    const changes = phase(first, 'decay').changes;
    expect(changes).toContainEqual(
      expect.objectContaining({
        kind: 'link.weight',
        target: `${a}->${b}`,
        before: 0.8,
        after: 0.4,
      }),
    );
    expect(changes.some((c) => c.target.includes(keep!))).toBe(false);
    expect(
      changes
        .filter((c) => c.kind === 'salience')
        .map((c) => c.target)
        .sort(),
    ).toEqual([a!, b!].sort());
    expect(phase(await run(['decay'], true), 'decay').changes_total).toBe(0);

    t.advance(400 * DAY);
    const later = await run(['decay']);
    const forgotten = phase(later, 'decay')
      .changes.filter((c) => c.kind === 'forget')
      .map((c) => c.target)
      .sort();
    expect(forgotten).toEqual([a!, b!].sort());
    const listed = await t.cli.call('memory.list', { deleted: 'only' });
    expect(listed.items.map((m) => m.id).sort()).toEqual([a!, b!].sort());
    await t.cli.call('memory.restore', { id: a! }); // soft: it comes back
    expect((await t.cli.call('memory.get', { id: keep! })).deleted_at).toBeNull();
    expect(
      store.db
        .prepare(`SELECT actor FROM audit WHERE action = 'memory.forget' AND target = ?`)
        .get(b!),
    ).toEqual({ actor: 'dream' });
  });
});

describe('recombine', () => {
  it('proposes links between similar, unlinked memories, bounded per cycle', async () => {
    await open({ max_new_links: 1, recombine_similarity: 0.3 });
    await remember(
      'Kafka consumers in the billing service commit offsets after each batch',
      'Billing service Kafka consumers retry failed batches three times',
      'Kafka consumers commit offsets after each batch in the search indexer',
      'Completely unrelated gardening advice about tomatoes',
    );
    const dry = await run(['recombine'], true);
    expect(phase(dry, 'recombine').proposals).toBe(1);
    await run(['recombine']);
    const { items } = await t.cli.call('review.list', { kind: 'link' });
    expect(items).toHaveLength(1);
    expect(items[0]!.proposal).toMatchObject({ type: 'related' });
    expect(items[0]!.evidence).toHaveLength(2);
    await t.cli.call('review.accept', { ids: [items[0]!.id] });
    const from = items[0]!.proposal.from as string;
    expect((await t.cli.call('memory.get', { id: from })).links.outgoing).toHaveLength(1);
  });
});

describe('merge', () => {
  it('proposes near-duplicates as one; accepting keeps the old text as a version and the old title as an alias', async () => {
    const store = await open();
    const [keep, drop] = await remember(
      'Deploy billing from the ops repo: staging first, then production after smoke tests pass',
      'Deploy billing from the ops repo: staging first, then production after smoke tests pass\nPage on-call.',
    );
    const [runbook] = await remember('The billing runbook lists every alert and its owner');
    await t.cli.call('link.create', { from: drop!, to: runbook!, type: 'supports', weight: 0.7 });
    const dry = await run(['merge'], true);
    expect(phase(dry, 'merge').proposals).toBe(1);
    await run(['merge']);
    expect(phase(await run(['merge'], true), 'merge').proposals).toBe(0);
    const { items } = await t.cli.call('review.list', {});
    const item = items[0]!;
    expect(item).toMatchObject({ kind: 'merge', state: 'pending' });
    expect(item.proposal).toMatchObject({ keep, drop });
    expect(item.diff).toContain('+ Page on-call.');
    // Until a person decides, both memories are untouched.
    const { title: dropTitle, deleted_at } = await t.cli.call('memory.get', { id: drop! });
    expect(deleted_at).toBeNull();

    await t.cli.call('review.accept', {
      ids: [item.id],
      edit: { title: 'Deploying billing', content: `${item.proposal.content as string}\nEdited.` },
    });
    const kept = await t.cli.call('memory.get', { id: keep! });
    expect(kept.title).toBe('Deploying billing');
    expect(kept.content).toMatch(/Page on-call\.\nEdited\.$/);
    // The merged-away memory's link moved to the kept one; its supersedes link is hidden.
    expect(kept.links.outgoing.map((l) => [l.to, l.type, l.weight])).toEqual([
      [runbook, 'supports', 0.7],
    ]);
    const history = await t.cli.call('memory.history', { id: keep! });
    expect(history.versions[0]!.content).toBe(
      'Deploy billing from the ops repo: staging first, then production after smoke tests pass',
    );
    // The earlier titles stay as aliases (here both memories had the same derived one).
    expect(kept.aliases).toEqual([dropTitle]);
    expect(
      (await t.cli.call('memory.get', { id: drop!, include_deleted: true })).deleted_at,
    ).not.toBeNull();
    const supersedes = store.db
      .prepare(`SELECT type FROM link WHERE src = ? AND dst = ?`)
      .get(rid(store, keep!), rid(store, drop!));
    expect(supersedes).toEqual({ type: 'supersedes' });
  });

  it('auto-accepts merges when configured, audited as the dream', async () => {
    const store = await open({ auto_accept: { merge: true } });
    const [, drop] = await remember(
      'The VPN certificate is rotated with make vpn-rotate every ninety days',
      'The VPN certificate is rotated with make vpn-rotate every ninety days by ops',
    );
    await run(['merge']);
    expect((await t.cli.call('review.list', { state: 'accepted' })).items).toHaveLength(1);
    expect(
      (await t.cli.call('memory.get', { id: drop!, include_deleted: true })).deleted_at,
    ).not.toBeNull();
    const actors = store.db
      .prepare(
        `SELECT DISTINCT actor FROM audit WHERE action IN ('review.accept', 'memory.update', 'memory.forget')`,
      )
      .all();
    expect(actors).toEqual([{ actor: 'dream' }]);
  });
});

describe('skill competition', () => {
  it('makes the best procedure of a niche its champion, listed first; the loser fades and stays', async () => {
    await open();
    const [good, bad] = (
      await t.cli.call('memory.rememberMany', {
        items: [
          {
            content: 'Deploy: run make release and watch the canary dashboard',
            kind: 'procedural',
          },
          {
            content: 'Deploy deploy deploy: run make release deploy, then deploy again by hand',
            kind: 'procedural',
          },
        ],
      })
    ).results.map((r) => r.id);
    for (let i = 0; i < 6; i++) {
      await t.cli.call('procedure.recordOutcome', { id: good!, success: true, niche: 'prod' });
      await t.cli.call('procedure.recordOutcome', { id: bad!, success: i === 0, niche: 'prod' });
    }
    const salience = (id: string) => t.cli.call('memory.get', { id }).then((m) => m.salience);
    const before = await salience(bad!);
    const r = await run(['compete']);
    const changes = phase(r, 'compete').changes;
    expect(changes).toContainEqual(
      expect.objectContaining({
        kind: 'standing',
        target: good,
        after: expect.objectContaining({ champion: true }),
      }),
    );
    expect(changes).toContainEqual(expect.objectContaining({ kind: 'salience', target: bad }));
    expect(phase(r, 'compete').notes.join(' ')).toMatch(/no language model is configured/);
    expect(await salience(bad!)).toBeCloseTo(before * 0.8, 4);
    expect((await t.cli.call('memory.get', { id: bad! })).deleted_at).toBeNull();

    const found = await t.cli.call('procedure.find', { query: 'deploy', niche: 'prod' });
    expect(found.results[0]).toMatchObject({ id: good, champion: true });
    expect(found.results.find((p) => p.id === bad)).toMatchObject({ champion: false });
    expect(phase(await run(['compete'], true), 'compete').changes_total).toBe(0);
  });
});

describe('retention', () => {
  it('keeps the newest versions per memory and never a memory itself', async () => {
    await open({ keep_versions: 3 });
    const [id] = await remember('Version zero of a frequently edited note');
    for (let i = 1; i <= 6; i++)
      await t.cli.call('memory.update', {
        id: id!,
        content: `Version ${i} of a frequently edited note`,
      });
    const dry = await run(['retention'], true);
    expect(phase(dry, 'retention').changes).toEqual([
      expect.objectContaining({ target: 'versions', before: 3 }),
    ]);
    await run(['retention']);
    const h = await t.cli.call('memory.history', { id: id! });
    expect(h.versions.map((v) => v.version)).toEqual([6, 5, 4]);
    expect(phase(await run(['retention'], true), 'retention').changes_total).toBe(0);
  });
});

describe('cycles', () => {
  it('runs every phase in order, reports each, lists and gets the cycle', async () => {
    await open();
    await remember('A first memory for a whole cycle', 'A second memory for a whole cycle');
    const r = await t.cli.call('dream.run', {});
    expect(r.status).toBe('done');
    expect(r.phases.map((p) => p.phase)).toEqual([
      'replay',
      'cluster',
      'schema',
      'affect',
      'decay',
      'recombine',
      'contradict',
      'merge',
      'compete',
      'retention',
    ]);
    for (const p of r.phases) expect(p.duration_ms).toBeGreaterThanOrEqual(0);
    const list = await t.cli.call('dream.list', {});
    expect(list.cycles[0]).toMatchObject({
      id: r.id,
      status: 'done',
      dry_run: false,
      trigger: 'manual',
      actor: 'cli',
    });
    expect(list.schedule.llm).toEqual({ configured: false, model: null });
    expect(await t.cli.call('dream.get', { id: r.id })).toEqual(r);
  });

  it('refuses bad decisions clearly and changes nothing', async () => {
    await open();
    await remember(
      'Staging restarts every Sunday at two in the morning for patches',
      'Staging restarts every Sunday at two in the morning for patches and upgrades',
    );
    await run(['merge']);
    const { items } = await t.cli.call('review.list', {});
    const id = items[0]!.id;
    await expect(
      t.cli.call('review.accept', { ids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'] }),
    ).rejects.toMatchObject({
      code: 'not-found',
    });
    await expect(
      t.cli.call('review.accept', { ids: [id, id], edit: { title: 'x' } }),
    ).rejects.toMatchObject({ code: 'invalid-args' });
    const doctor = await t.cli.call('doctor.run', {});
    expect(doctor.checks.find((c) => c.id === 'memory.quarantine')).toMatchObject({
      status: 'warn',
      finding: expect.stringContaining('1 review items wait'),
      fix: expect.stringContaining('loci review'),
    });
    await t.cli.call('review.reject', { ids: [id], reason: 'they differ on purpose' });
    const err = (await t.cli
      .call('review.accept', { ids: [id] })
      .catch((e: unknown) => e)) as LociError;
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/already rejected by cli/);
    expect((await t.cli.call('review.list', { state: 'rejected' })).items[0]!.reason).toBe(
      'they differ on purpose',
    );
    // A rejected proposal is not made again.
    expect(phase(await run(['merge'], true), 'merge').proposals).toBe(0);
  });

  it('can be cancelled, keeping what committed', async () => {
    await open();
    await remember('One memory to dream about', 'Another memory to dream about');
    const id = '01JDREAMCANCE1TEST00000000';
    let cancelled: Promise<unknown> | null = null;
    const off = t.engine.events.on('dream.progressed', (p) => {
      if (p.step === 'phase-done' && !cancelled) cancelled = t.cli.call('dream.cancel', { id });
    });
    const r = await t.cli.call('dream.run', { id });
    off();
    expect(await cancelled).toEqual({ id, cancelled: true });
    expect(r.status).toBe('cancelled');
    expect(r.phases.map((p) => [p.phase, p.status])).toEqual([['replay', 'done']]);
    expect(await t.cli.call('dream.cancel', {})).toEqual({ id: null, cancelled: false });
  });

  it('one cycle per store at a time', async () => {
    await open();
    let second: Promise<unknown> | null = null;
    const off = t.engine.events.on('dream.progressed', (p) => {
      if (p.step === 'started' && !second) second = t.cli.call('dream.run', {});
    });
    await t.cli.call('dream.run', {});
    off();
    await expect(second).rejects.toMatchObject({ code: 'conflict' });
  });

  it('dreams on its own after idle time, at most once per interval', async () => {
    await open({ idle_minutes: 10, interval_hours: 24 });
    await remember('Something to consolidate while idle');
    expect(await t.engine.dreams.tick(['default'])).toBeNull(); // not idle yet
    t.advance(11 * 60_000);
    const r = await t.engine.dreams.tick(['default']);
    expect(r).toMatchObject({ trigger: 'idle', actor: 'dream', status: 'done' });
    t.advance(11 * 60_000);
    expect(await t.engine.dreams.tick(['default'])).toBeNull(); // within the interval
    t.advance(25 * 3_600_000);
    await remember('A write just now: not idle any more');
    expect(await t.engine.dreams.tick(['default'])).toBeNull();
    t.advance(11 * 60_000);
    expect(await t.engine.dreams.tick(['default'])).not.toBeNull();
  });
});
