// Devices of one store, each a real engine on its own data directory, exchanging their
// logs through an in-process transport: the merge rules as the person sees them.
import { afterEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import { dumpReplica, MemoryLog } from '../../../../test/helpers/sync';
import { readSyncFile } from './config';

let devices: TestEngine[] = [];
let log: MemoryLog;

afterEach(async () => {
  await Promise.all(devices.map((d) => d.close()));
  devices = [];
});

async function setup(n: number, skewMs: number[] = []): Promise<TestEngine[]> {
  log = new MemoryLog();
  devices = [];
  for (let i = 0; i < n; i++) {
    const t = await openTestEngine({
      sync: {
        intervalMs: 3_600_000,
        transport: (_conn, store, _pw) => log.transport(store, deviceOf(t)),
      },
    });
    if (skewMs[i]) t.clock.now += skewMs[i] as number;
    devices.push(t);
  }
  return devices;
}

const deviceOf = (t: TestEngine) => readSyncFile(t.dir).device.id;
const db = async (t: TestEngine) => (await t.engine.store(undefined)).db;

async function connect(t: TestEngine) {
  return t.cli.call('sync.connect', { url: 'postgres://loci@127.0.0.1:1/hub' });
}

/** Syncs every device until none has anything left to send or apply. */
async function settle(all = devices) {
  for (let round = 0; round < 4; round++) {
    for (const t of all) await t.cli.call('sync.now', {});
  }
}

describe('replication between devices', () => {
  it('brings every memory, version, tag, link and outcome to every device', async () => {
    const [a, b, c] = await setup(3);
    for (const t of [a, b, c]) await connect(t!);
    const one = await a!.cli.call('memory.remember', {
      content: 'Deploys go through the staging cluster first.',
      tags: ['ops'],
    });
    const two = await b!.cli.call('memory.remember', {
      content: 'Run the migrations before the deploy.',
      kind: 'procedural',
    });
    await settle();
    await c!.cli.call('link.create', { from: one.id, to: two.id, type: 'follows' });
    await c!.cli.call('memory.update', {
      id: one.id,
      content: 'Deploys go through the staging cluster, then canary.',
    });
    await a!.cli.call('procedure.recordOutcome', { id: two.id, success: true });
    await settle();
    const dumps = await Promise.all([a, b, c].map(async (t) => dumpReplica(await db(t!))));
    expect(dumps[0]!.memories).toHaveLength(2);
    expect(dumps[0]!.versions).toHaveLength(1);
    expect(dumps[0]!.links).toHaveLength(1);
    expect(dumps[0]!.outcomes).toHaveLength(1);
    expect(dumps[1]).toEqual(dumps[0]);
    expect(dumps[2]).toEqual(dumps[0]);
    const h = await b!.cli.call('memory.history', { id: one.id });
    expect(h.current_version).toBe(2);
    expect(h.versions[0]?.content).toBe('Deploys go through the staging cluster first.');
  });

  it('keeps the later edit of one field and the earlier as a version; edits of different fields both hold', async () => {
    const [a, b] = await setup(2);
    await connect(a!);
    await connect(b!);
    const m = await a!.cli.call('memory.remember', {
      content: 'The cache TTL is 60 seconds.',
      tags: ['cache'],
    });
    await settle();
    // Concurrent: neither has seen the other's edit.
    await a!.cli.call('memory.update', { id: m.id, content: 'The cache TTL is 90 seconds.' });
    b!.advance(1000);
    await b!.cli.call('memory.update', { id: m.id, content: 'The cache TTL is 120 seconds.' });
    await a!.cli.call('memory.tag', { id: m.id, add: ['perf'] });
    await settle();
    for (const t of [a!, b!]) {
      const got = await t.cli.call('memory.get', { id: m.id });
      expect(got.content).toBe('The cache TTL is 120 seconds.');
      expect(got.tags.sort()).toEqual(['cache', 'perf']);
      const h = await t.cli.call('memory.history', { id: m.id });
      expect(h.versions.map((v) => v.content)).toContain('The cache TTL is 90 seconds.');
    }
    expect(dumpReplica(await db(a!))).toEqual(dumpReplica(await db(b!)));
    const status = await b!.cli.call('sync.status', {});
    expect(status.stores[0]?.merges.length ?? 0).toBeGreaterThanOrEqual(0);
  });

  it('forget against edit: both hold; erase against anything: erase wins and nothing comes back', async () => {
    const [a, b] = await setup(2);
    await connect(a!);
    await connect(b!);
    const f = await a!.cli.call('memory.remember', {
      content: 'The old VPN endpoint is vpn1.example.org.',
    });
    const e = await a!.cli.call('memory.remember', {
      content: 'The build cache lives in /var/cache/build.',
    });
    await settle();
    await a!.cli.call('memory.forget', { id: f.id });
    await b!.cli.call('memory.update', {
      id: f.id,
      content: 'The old VPN endpoint was vpn1.example.org.',
    });
    await a!.cli.call('memory.erase', { id: e.id });
    b!.advance(3_600_000); // a later clock does not save an edit from an erase
    await b!.cli.call('memory.update', {
      id: e.id,
      content: 'The build cache lives in /srv/cache.',
    });
    await settle();
    for (const t of [a!, b!]) {
      const got = await t.cli.call('memory.get', { id: f.id, include_deleted: true });
      expect(got.deleted_at).not.toBeNull();
      expect(got.content).toBe('The old VPN endpoint was vpn1.example.org.');
      await expect(
        t.cli.call('memory.get', { id: e.id, include_deleted: true }),
      ).rejects.toMatchObject({ code: 'not-found' });
    }
    // The tombstone carries no content, and the log keeps none of the erased memory.
    const held = JSON.stringify(log.ops);
    expect(held).not.toContain('/var/cache/build');
    expect(held).not.toContain('/srv/cache');
    expect(dumpReplica(await db(a!))).toEqual(dumpReplica(await db(b!)));
  });

  it('never lets a private or quarantined memory into the log; a promoted one joins it', async () => {
    const [a, b] = await setup(2);
    await connect(a!);
    await connect(b!);
    await a!.agent('cursor').call('memory.remember', {
      content: 'My personal note about the reorg.',
      visibility: 'private',
    });
    const q = await a!.agent('cursor').call('memory.remember', {
      content: `The release bot uses ghp_${'Q9x'.repeat(12)} for pushes.`,
    });
    expect(q.quarantined).toBe(true);
    const s = await a!.cli.call('memory.remember', {
      content: 'Shared: the on-call rota is in PagerDuty.',
    });
    await settle();
    const held = JSON.stringify(log.ops);
    expect(held).not.toContain('reorg');
    expect(held).not.toContain('ghp_Q9x');
    expect(held).toContain('PagerDuty');
    // Made private after it was shared: withdrawn from the other device and from the log.
    await a!.cli.call('memory.update', { id: s.id, visibility: 'private' });
    await settle();
    await expect(b!.cli.call('memory.get', { id: s.id })).rejects.toMatchObject({
      code: 'not-found',
    });
    expect(JSON.stringify(log.ops)).not.toContain('PagerDuty');
    expect((await a!.cli.call('memory.get', { id: s.id })).content).toContain('PagerDuty');
    // Shared again: it comes back, whole, with its history.
    await a!.cli.call('memory.update', { id: s.id, visibility: 'shared' });
    await settle();
    expect((await b!.cli.call('memory.get', { id: s.id })).content).toContain('PagerDuty');
    expect(dumpReplica(await db(a!))).toEqual(dumpReplica(await db(b!)));
    // Promoted by the person: it joins the log, and the other device.
    await a!.cli.call('memory.promote', { id: q.id });
    await settle();
    expect((await b!.cli.call('memory.get', { id: q.id })).content).toContain('ghp_Q9x');
  });

  it('applies a replayed or duplicated batch once, and resumes after the hub went away mid-batch', async () => {
    const [a, b] = await setup(2);
    await connect(a!);
    await connect(b!);
    for (let i = 0; i < 30; i++)
      await a!.cli.call('memory.remember', { content: `Fact number ${i} about the build.` });
    log.failPushes = 1;
    await expect(a!.cli.call('sync.now', {})).rejects.toMatchObject({ code: 'unavailable' });
    const failing = await a!.cli.call('sync.status', {});
    expect(failing.stores[0]).toMatchObject({ state: 'error' });
    expect(failing.stores[0]?.error?.fix).toMatch(/retries/);
    expect(failing.stores[0]?.pending).toBeGreaterThan(0);
    await settle();
    // Duplicate every operation in the log: applying them again changes nothing.
    log.ops.push(...log.ops.map((o) => structuredClone(o)));
    const before = dumpReplica(await db(b!));
    const bDb = await db(b!);
    const auditBefore = (
      bDb.prepare(`SELECT COUNT(*) AS n FROM audit WHERE action = 'sync.apply'`).get() as {
        n: number;
      }
    ).n;
    await b!.cli.call('sync.leave', {});
    await connect(b!);
    await settle();
    expect(dumpReplica(bDb === (await db(b!)) ? bDb : await db(b!))).toEqual(before);
    expect(before.memories).toHaveLength(30);
    expect(auditBefore).toBeGreaterThanOrEqual(30);
    // The audit chain recorded each applied remote operation with its origin.
    const row = bDb.prepare(`SELECT data FROM audit WHERE action = 'sync.apply' LIMIT 1`).get() as {
      data: string;
    };
    expect(JSON.parse(row.data)).toMatchObject({
      origin: 'memory://default',
      device: deviceOf(a!),
    });
  });

  it('orders by clock when a device clock is hours ahead, and a later edit after seeing it still wins', async () => {
    const [a, b] = await setup(2, [3 * 3_600_000]);
    await connect(a!);
    await connect(b!);
    const m = await a!.cli.call('memory.remember', {
      content: 'The release train leaves on Tuesdays.',
    });
    await settle();
    await b!.cli.call('memory.update', {
      id: m.id,
      content: 'The release train leaves on Wednesdays.',
    });
    await settle();
    expect((await a!.cli.call('memory.get', { id: m.id })).content).toContain('Wednesdays');
    const status = await b!.cli.call('sync.status', {});
    expect(status.stores[0]?.clock_ahead_ms).toBeGreaterThan(2 * 3_600_000);
    expect(dumpReplica(await db(a!))).toEqual(dumpReplica(await db(b!)));
  });

  it('joins two devices that already hold different memories into their union', async () => {
    const [a, b] = await setup(2);
    await a!.cli.call('memory.remember', { content: 'Laptop: the printer is on the third floor.' });
    const edited = await a!.cli.call('memory.remember', { content: 'Laptop: lunch is at noon.' });
    await a!.cli.call('memory.update', {
      id: edited.id,
      content: 'Laptop: lunch is at half past twelve.',
    });
    await b!.cli.call('memory.remember', { content: 'Desktop: the VPN needs a hardware key.' });
    await connect(a!);
    await connect(b!);
    await settle();
    const da = dumpReplica(await db(a!));
    expect(da.memories).toHaveLength(3);
    // The version made before joining travelled with the memory.
    expect(da.versions).toHaveLength(1);
    expect(dumpReplica(await db(b!))).toEqual(da);
  });
});
