import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openTestEngine, tempDir, type TestEngine } from '../../../../test/helpers/engine';
import { stmt } from '../store/statements';
import { neighbourQueries } from './find';
import { BURST, IDLE_MS } from './service';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const remember = (content: string, extra: Record<string, unknown> = {}) =>
  t.cli.call('memory.remember', { content, ...extra });

describe('contradictions found on write', () => {
  it('names the memory a single write contradicts, and links the two', async () => {
    const old = await remember('The billing service listens on port 8080.');
    expect(old.conflicts).toBeUndefined();
    const neu = await remember('The billing service listens on port 9090.');
    expect(neu.conflicts).toHaveLength(1);
    const mark = neu.conflicts![0]!;
    expect(mark).toMatchObject({ id: old.id, current: neu.id });

    const list = await t.cli.call('conflict.list', {});
    expect(list.open).toBe(1);
    const c = list.conflicts[0]!;
    expect(c).toMatchObject({
      id: mark.conflict,
      state: 'open',
      relation: 'contradicting',
      current: neu.id,
      detected_by: 'write',
    });
    expect(c.older.id).toBe(old.id);
    expect(c.newer.id).toBe(neu.id);
    expect(c.spans).toEqual([{ kind: 'number', older: '8080', newer: '9090' }]);
    const links = await t.cli.call('graph.neighbors', { id: neu.id, types: ['contradicts'] });
    expect(links.nodes.map((n) => n.id)).toEqual([old.id]);
    // The same pair is not recorded twice, and the audit chain has the finding.
    await t.cli.call('conflict.scan', { since: '2000-01-01T00:00:00Z' });
    expect((await t.cli.call('conflict.list', { state: 'all' })).conflicts).toHaveLength(1);
    const audit = await t.cli.call('audit.list', { action: 'conflict.detect' });
    expect(audit.entries).toHaveLength(1);
  });

  it('leaves compatible and unrelated memories alone', async () => {
    await remember('The billing service listens on port 8080.');
    const more = await remember('The billing service is written in Go.');
    const other = await remember('The search service listens on port 9200.');
    expect(more.conflicts).toBeUndefined();
    expect(other.conflicts).toBeUndefined();
    expect((await t.cli.call('conflict.list', {})).open).toBe(0);
  });

  const FACTS = [
    'The search cluster runs OpenSearch 2.11.',
    'Invoices are sent on the first day of each month.',
    'Aiko is the buddy for new hires in the data team.',
    'The staging environment lives in eu-west-1.',
    'Feature flags are stored in Redis.',
    'The design review happens on Mondays.',
    'Logs are kept for 30 days.',
    'The docs site is hosted on Netlify.',
    'Passwords need at least 12 characters.',
    'The queue workers run with concurrency 4.',
    'Deploys to production are forbidden on Fridays.',
    'The mobile app supports iOS 16 and later.',
  ];

  it('finds a batch’s conflicts in the background, just after it is written', async () => {
    await remember('Deploys to production are allowed on Fridays.');
    const batch = await t.cli.call('memory.rememberMany', {
      items: FACTS.map((content) => ({ content })),
    });
    expect(batch.results.every((r) => r.conflicts === undefined)).toBe(true);
    await t.engine.conflicts.idle();
    const list = await t.cli.call('conflict.list', {});
    expect(list.conflicts.map((c) => c.spans)).toEqual([
      [{ kind: 'opposite', older: 'allowed', newer: 'forbidden' }],
    ]);
  });

  it('leaves the check of a batch for when no call is being served', async () => {
    await remember('Deploys to production are allowed on Fridays.');
    t.engine.conflicts.began(); // a long call, still running
    await t.cli.call('memory.rememberMany', { items: FACTS.map((content) => ({ content })) });
    await new Promise((resolve) => setTimeout(resolve, 3 * IDLE_MS));
    expect((await t.cli.call('conflict.list', {})).open).toBe(0);
    t.engine.conflicts.ended();
    await t.engine.conflicts.idle();
    expect((await t.cli.call('conflict.list', {})).open).toBe(1);
  });

  it('compares a batch once its vectors are in, not between the backfill’s batches', async () => {
    await remember('Deploys to production are allowed on Fridays.');
    const filling = vi.spyOn(t.engine.semantic, 'backfilling').mockReturnValue(true);
    await t.cli.call('memory.rememberMany', { items: FACTS.map((content) => ({ content })) });
    await new Promise((resolve) => setTimeout(resolve, 4 * IDLE_MS));
    expect((await t.cli.call('conflict.list', {})).open).toBe(0);
    expect(t.engine.conflicts.working).toBe(true);
    filling.mockRestore();
    // Nobody waits for it (and no call is made meanwhile): the queue goes on by itself
    // once the vectors are in.
    await vi.waitFor(() => expect(t.engine.conflicts.working).toBe(false), {
      timeout: 15_000,
      interval: 20,
    });
    expect((await t.cli.call('conflict.list', {})).open).toBe(1);
  });

  it('in a burst of single writes, compares after the writes pause, and finds the same', async () => {
    await remember('Deploys to production are allowed on Fridays.');
    const answers = [];
    // More than BURST single writes within a second: the later ones answer at once.
    for (let i = 0; i < BURST + 5; i++)
      answers.push(await remember(`Note ${i}: the cache ${i} is warm.`));
    const late = await remember('Deploys to production are forbidden on Fridays.');
    expect(late.conflicts).toBeUndefined();
    expect(answers.slice(0, 5).every((a) => a.conflicts === undefined)).toBe(true);
    await t.engine.conflicts.idle();
    const list = await t.cli.call('conflict.list', {});
    expect(list.conflicts.map((c) => [c.newer.id, c.spans])).toEqual([
      [late.id, [{ kind: 'opposite', older: 'allowed', newer: 'forbidden' }]],
    ]);
  });

  it('looks for neighbours by the rarest words of a fact, not its common ones', async () => {
    // 60 memories share "service" and "team"; "ledger" and "retention" are rare.
    await t.cli.call('memory.rememberMany', {
      items: Array.from({ length: 60 }, (_, i) => ({
        content: `The service ${i} of the team is documented.`,
      })),
    });
    await remember('The ledger retention of the service team is 30 days.');
    const neu = await remember('The ledger retention of the service team is 90 days.');
    expect(neu.conflicts).toHaveLength(1);
    const store = await t.engine.store(undefined);
    const queries = neighbourQueries(store, 'The ledger retention of the service team is 90 days.');
    expect(queries[0]).toBe('"ledger" AND "retention"');
    // Then any of the rare ones, rarest first (in a store this small, the common ones too).
    expect(queries[1]).toMatch(/^"ledger" OR "retention" OR /);
  });

  it('goes through the backlog with conflict.scan, with progress', async () => {
    await t.close();
    const dir = tempDir();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ conflicts: { detect_on_write: false } }),
    );
    t = await openTestEngine({ dataDir: dir });
    await remember('Deploys to production are allowed on Fridays.');
    await t.cli.call('memory.rememberMany', { items: FACTS.map((content) => ({ content })) });
    expect((await t.cli.call('conflict.list', {})).open).toBe(0);
    const progress: number[] = [];
    t.engine.events.on('conflict.progressed', (e) => progress.push(e.done));
    const r = await t.cli.call('conflict.scan', {});
    expect(r).toMatchObject({ examined: 13, found: 1 });
    expect(progress.at(-1)).toBe(13);
    expect((await t.cli.call('conflict.list', {})).conflicts[0]!.detected_by).toBe('scan');
    const audit = await t.cli.call('audit.list', { action: 'conflict.detect' });
    expect(audit.entries.map((e) => e.actor)).toEqual(['cli']);
    // The next scan starts where this one stopped.
    expect(await t.cli.call('conflict.scan', {})).toMatchObject({ examined: 0, found: 0 });
  });

  it('compares a private memory only with what the same readers see', async () => {
    const a = t.agent('alpha');
    const b = t.agent('beta');
    await a.call('memory.remember', {
      content: 'My review style: approve with two comments at most.',
      visibility: 'private',
    });
    const r = await b.call('memory.remember', {
      content: 'My review style: approve with five comments at most.',
      visibility: 'private',
    });
    expect(r.conflicts).toBeUndefined();
  });
});

describe('resolving a conflict', () => {
  async function conflict() {
    const old = await remember('The billing service listens on port 8080.', {
      valid_from: '2025-01-01T00:00:00Z',
    });
    const neu = await remember('The billing service moved to port 8081.', {
      valid_from: '2026-03-01T00:00:00Z',
    });
    const id = neu.conflicts![0]!.conflict;
    return { old: old.id, neu: neu.id, id };
  }

  it('supersedes: the older one closes where the newer begins; recall hides it and says so; undo puts it back', async () => {
    const { old, neu, id } = await conflict();
    const before = await t.cli.call('memory.recall', { query: 'billing service port' });
    const ids = before.results.map((h) => h.id);
    // While open, both are returned, marked, and the current one ranks first.
    expect(ids.indexOf(neu)).toBeLessThan(ids.indexOf(old));
    expect(before.results.find((h) => h.id === old)!.conflicts_with).toEqual([
      { conflict: id, id: neu, title: 'The billing service moved to port 8081.', current: neu },
    ]);

    const r = await t.cli.call('conflict.resolve', {
      ids: [id],
      resolution: 'supersede',
      reason: 'the move happened',
    });
    expect(r.resolved[0]).toMatchObject({
      state: 'superseded',
      current: neu,
      resolution: { kind: 'supersede', winner: neu, at: '2026-03-01T00:00:00.000Z', by: 'cli' },
    });
    const got = await t.cli.call('memory.get', { id: old });
    expect(got.valid_to).toBe('2026-03-01T00:00:00.000Z');
    const after = await t.cli.call('memory.recall', { query: 'billing service port' });
    expect(after.results.map((h) => h.id)).toEqual([neu]);
    expect(after.results[0]!.conflicts_with).toBeUndefined();
    expect(after.hidden_versions).toBe(1);
    const past = await t.cli.call('memory.recall', {
      query: 'billing service port',
      as_of: '2025-06-01T00:00:00Z',
    });
    expect(past.results.map((h) => h.id)).toEqual([old]);

    const h = await t.cli.call('memory.history', { id: old });
    expect(h.current).toBe(false);
    expect(h.superseded_by.map((l) => l.id)).toEqual([neu]);
    expect(h.timeline.map((e) => e.kind)).toEqual(
      expect.arrayContaining([
        'created',
        'valid-from',
        'conflict',
        'resolved',
        'superseded',
        'valid-to',
      ]),
    );
    const now = await t.cli.call('memory.list', { as_of: 'now' });
    expect(now.items.map((m) => m.id)).toEqual([neu]);
    const then = await t.cli.call('memory.list', { as_of: '2025-06-01T00:00:00Z' });
    expect(then.items.map((m) => m.id)).toEqual([old]);

    const reopened = await t.cli.call('conflict.reopen', { id });
    expect(reopened).toMatchObject({ state: 'open', resolution: null });
    expect((await t.cli.call('memory.get', { id: old })).valid_to).toBeNull();
    const again = await t.cli.call('memory.recall', { query: 'billing service port' });
    expect(again.results.map((h) => h.id).sort()).toEqual([old, neu].sort());
    const actions = (await t.cli.call('audit.list', { target: id })).entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['conflict.resolve', 'conflict.reopen']));
  });

  it('scopes: both hold, each tagged with its context; dismisses: the pair is never proposed again', async () => {
    const { old, neu, id } = await conflict();
    await t.cli.call('conflict.resolve', {
      ids: [id],
      resolution: 'scope',
      contexts: { older: 'staging', newer: 'production' },
    });
    expect((await t.cli.call('memory.get', { id: old })).tags).toContain('context:staging');
    expect((await t.cli.call('memory.get', { id: neu })).tags).toContain('context:production');
    const r = await t.cli.call('memory.recall', { query: 'billing service port' });
    expect(r.results.every((h) => h.conflicts_with === undefined)).toBe(true);
    await t.cli.call('conflict.reopen', { id });
    expect((await t.cli.call('memory.get', { id: old })).tags).not.toContain('context:staging');

    await t.cli.call('conflict.resolve', { ids: [id], resolution: 'dismiss' });
    await t.cli.call('conflict.scan', { since: '2000-01-01T00:00:00Z' });
    const all = await t.cli.call('conflict.list', { state: 'all' });
    expect(all.conflicts.map((c) => c.state)).toEqual(['dismissed']);
    const links = await t.cli.call('graph.neighbors', { id: neu, types: ['contradicts'] });
    expect(links.nodes).toEqual([]);
  });

  it('refuses what cannot be decided, with the reason, and changes nothing', async () => {
    const { old, id } = await conflict();
    await expect(
      t.cli.call('conflict.resolve', {
        ids: [id],
        resolution: 'supersede',
        at: '2020-01-01T00:00:00Z',
      }),
    ).rejects.toThrow(/before memory .* began to hold/);
    await expect(
      t.cli.call('conflict.resolve', {
        ids: [id],
        resolution: 'supersede',
        winner: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      }),
    ).rejects.toThrow(/neither memory/);
    await expect(t.cli.call('conflict.reopen', { id })).rejects.toThrow(/no decision to undo/);
    await t.cli.call('conflict.resolve', { ids: [id], resolution: 'dismiss' });
    await expect(
      t.cli.call('conflict.resolve', { ids: [id], resolution: 'supersede' }),
    ).rejects.toThrow(/already decided \(dismissed\)/);
    expect((await t.cli.call('memory.get', { id: old })).valid_to).toBeNull();
  });

  it('lets an agent decide only conflicts it can see both sides of', async () => {
    const { id } = await conflict();
    const agent = t.agent('cursor');
    const seen = await agent.call('conflict.list', {});
    expect(seen.conflicts.map((c) => c.id)).toEqual([id]);
    const r = await agent.call('conflict.resolve', { ids: [id], resolution: 'supersede' });
    expect(r.resolved[0]!.resolution!.by).toBe('mcp:cursor');
    const row = stmt((await t.engine.store(undefined)).db, 'SELECT state FROM conflict').get() as {
      state: string;
    };
    expect(row.state).toBe('superseded');
  });
});

describe('verify', () => {
  it('supports, contradicts (saying what used to hold) and does not know', async () => {
    const { old, neu } = await (async () => {
      const o = await remember('The billing service listens on port 8080.', {
        valid_from: '2025-01-01T00:00:00Z',
      });
      const n = await remember('The billing service moved to port 8081.', {
        valid_from: '2026-03-01T00:00:00Z',
      });
      await t.cli.call('conflict.resolve', {
        ids: [n.conflicts![0]!.conflict],
        resolution: 'supersede',
      });
      return { old: o.id, neu: n.id };
    })();
    await remember('Ana owns the search service.');

    const yes = await t.cli.call('memory.verify', { claim: 'Billing listens on port 8081' });
    expect(yes.verdict).toBe('supported');
    expect(yes.evidence[0]).toMatchObject({ id: neu, stance: 'supports', current: true });

    const no = await t.cli.call('memory.verify', {
      claim: 'The billing service listens on port 8080',
    });
    expect(no.verdict).toBe('contradicted');
    expect(no.evidence.find((e) => e.id === neu)).toMatchObject({
      stance: 'contradicts',
      current: true,
    });
    expect(no.evidence.find((e) => e.id === old)).toMatchObject({
      stance: 'supports',
      current: false,
    });
    expect(no.basis).toMatch(/it was true/);

    const then = await t.cli.call('memory.verify', {
      claim: 'The billing service listens on port 8080',
      as_of: '2025-06-01T00:00:00Z',
    });
    expect(then.verdict).toBe('supported');

    const unknown = await t.cli.call('memory.verify', { claim: 'Ana speaks Portuguese' });
    expect(unknown.verdict).toBe('unknown');
    const nothing = await t.cli.call('memory.verify', { claim: 'The CDN is Fastly' });
    expect(nothing).toMatchObject({ verdict: 'unknown', evidence: [] });
    for (const r of [yes, no, unknown, nothing]) {
      expect(r.confidence).toBeGreaterThan(0);
      expect(r.confidence).toBeLessThan(1);
    }
  });
});
