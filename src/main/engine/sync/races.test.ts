// What a review found between a cycle and the writes around it: a local write made while
// a cycle waits on the network, late devices answering each other's erase, outcomes whose
// row ids SQLite reuses, this device's own salience, two cycles of one store at once.
import { afterEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import { dumpReplica, MemoryLog } from '../../../../test/helpers/sync';
import { readSyncFile } from './config';
import type { SyncTransport } from './wire';

let devices: TestEngine[] = [];
let log: MemoryLog;
/** Runs once inside a device's next pull, before the hub answers: a write "meanwhile". */
const meanwhile = new Map<string, () => Promise<void>>();
/** Pulls in flight now, and the most seen at once. */
const pulls = { now: 0, most: 0 };

afterEach(async () => {
  await Promise.all(devices.map((d) => d.close()));
  devices = [];
  meanwhile.clear();
});

const dev = (t: TestEngine) => readSyncFile(t.dir).device.id;

async function setup(n: number, slowPullMs = 0, loops = false): Promise<TestEngine[]> {
  log = new MemoryLog();
  devices = [];
  for (let i = 0; i < n; i++) {
    const t: TestEngine = await openTestEngine({
      sync: {
        intervalMs: 3_600_000,
        transport: (_conn, store): SyncTransport => {
          const inner = log.transport(store, dev(t));
          return {
            ...inner,
            async pull(cursor, limit) {
              const hook = meanwhile.get(dev(t));
              if (hook) {
                meanwhile.delete(dev(t));
                await hook();
              }
              pulls.now++;
              pulls.most = Math.max(pulls.most, pulls.now);
              try {
                if (slowPullMs) await new Promise((r) => setTimeout(r, slowPullMs));
                return await inner.pull(cursor, limit);
              } finally {
                pulls.now--;
              }
            },
          };
        },
      },
    });
    devices.push(t);
    if (loops) t.engine.sync.start();
    await t.cli.call('sync.connect', { url: 'postgres://loci@127.0.0.1:1/hub' });
  }
  return devices;
}

async function settle(rounds = 4) {
  for (let r = 0; r < rounds; r++) for (const t of devices) await t.cli.call('sync.now', {});
}
const db = async (t: TestEngine) => (await t.engine.store(undefined)).db;
const row = async (t: TestEngine, id: string) =>
  (await db(t)).prepare('SELECT content, visibility FROM memory WHERE id = ?').get(id) as
    { content: string; visibility: string } | undefined;

describe('a local write while a cycle waits on the network', () => {
  it('an erase is not undone by the other device’s edit arriving', async () => {
    const [a, b] = await setup(2);
    const m = await a!.cli.call('memory.remember', {
      content: 'The staging password rotates monthly.',
    });
    await settle();
    await a!.cli.call('memory.update', {
      id: m.id,
      content: 'The staging password rotates weekly.',
    });
    await a!.cli.call('sync.now', {});
    meanwhile.set(dev(b!), async () => {
      await b!.cli.call('memory.erase', { id: m.id });
    });
    await b!.cli.call('sync.now', {});
    await settle();
    expect(await row(b!, m.id)).toBeUndefined();
    expect(await row(a!, m.id)).toBeUndefined();
  });

  it('an edit is not lost to another device’s change arriving', async () => {
    const [a, b] = await setup(2);
    const m = await a!.cli.call('memory.remember', {
      content: 'Deploy on Tuesdays.',
      tags: ['ops'],
    });
    await settle();
    await a!.cli.call('memory.tag', { id: m.id, add: ['release'] });
    await a!.cli.call('sync.now', {});
    meanwhile.set(dev(b!), async () => {
      await b!.cli.call('memory.update', {
        id: m.id,
        content: 'Deploy on Thursdays, never Fridays.',
      });
    });
    await b!.cli.call('sync.now', {});
    await settle();
    for (const t of [a!, b!]) {
      const got = await t.cli.call('memory.get', { id: m.id });
      expect(got.content).toBe('Deploy on Thursdays, never Fridays.');
      expect(got.tags.sort()).toEqual(['ops', 'release']);
    }
    expect(dumpReplica(await db(a!))).toEqual(dumpReplica(await db(b!)));
  });

  it('a memory withdrawn elsewhere is not erased on its owner by a stale change', async () => {
    const [a, b] = await setup(2);
    const m = await a!.cli.call('memory.remember', { content: 'Team lunch is on Fridays.' });
    await settle();
    await a!.cli.call('memory.update', { id: m.id, visibility: 'private' });
    await a!.cli.call('sync.now', {});
    meanwhile.set(dev(b!), async () => {
      await b!.cli.call('memory.tag', { id: m.id, add: ['food'] });
    });
    await b!.cli.call('sync.now', {});
    await settle();
    expect(await row(a!, m.id)).toMatchObject({ visibility: 'private' });
    expect(await row(b!, m.id)).toBeUndefined();
    expect(dumpReplica(await db(a!)).tombstones).toEqual([]);
  });
});

describe('the log stays quiet and complete', () => {
  it('two late devices answer an erase once each, not each other forever', async () => {
    const [a, b, d] = await setup(3);
    const m = await a!.cli.call('memory.remember', { content: 'The old runbook.' });
    await settle(3);
    await a!.cli.call('memory.erase', { id: m.id });
    await a!.cli.call('sync.now', {});
    b!.advance(1000);
    d!.advance(1000);
    await b!.cli.call('memory.tag', { id: m.id, add: ['b'] });
    await d!.cli.call('memory.tag', { id: m.id, add: ['d'] });
    const stones = () => log.ops.filter((o) => o.x && o.e === `m:${m.id}`).length;
    await settle(4);
    const after = stones();
    await settle(4);
    expect(stones()).toBe(after);
    expect(after).toBeLessThanOrEqual(3);
    expect(log.ops.some((o) => !o.x && o.r.includes(m.id))).toBe(false);
  });

  it('outcomes recorded after an erase (SQLite reuses the row id) still travel, both ways', async () => {
    const [a, b] = await setup(2);
    const p = await a!.cli.call('memory.remember', {
      content: 'To deploy: build, test, ship.',
      kind: 'procedural',
    });
    await a!.cli.call('procedure.recordOutcome', { id: p.id, success: true });
    await settle();
    await a!.cli.call('memory.erase', { id: p.id });
    await settle();
    const q = await a!.cli.call('memory.remember', {
      content: 'To roll back: revert, redeploy.',
      kind: 'procedural',
    });
    await settle();
    await b!.cli.call('procedure.recordOutcome', { id: q.id, success: false });
    await a!.cli.call('procedure.recordOutcome', { id: q.id, success: true });
    await settle();
    const outcomes = async (t: TestEngine) =>
      (await db(t)).prepare('SELECT success FROM procedure_outcome ORDER BY success').all();
    expect(await outcomes(a!)).toEqual([{ success: 0 }, { success: 1 }]);
    expect(await outcomes(b!)).toEqual(await outcomes(a!));
  });

  it('another device’s change leaves this device’s own salience alone', async () => {
    const [a, b] = await setup(2);
    const m = await a!.cli.call('memory.remember', { content: 'Backups run at midnight.' });
    await settle();
    (await db(b!)).prepare('UPDATE memory SET salience = 0.05 WHERE id = ?').run(m.id);
    await a!.cli.call('memory.tag', { id: m.id, add: ['ops'] });
    await settle();
    const s = (await db(b!)).prepare('SELECT salience FROM memory WHERE id = ?').get(m.id) as {
      salience: number;
    };
    expect(s.salience).toBe(0.05);
  });

  it('runs one cycle of a store at a time, whoever asks', async () => {
    const [t] = await setup(1, 100, true);
    await new Promise((r) => setTimeout(r, 300));
    const m = await t!.cli.call('memory.remember', { content: 'x y z' });
    pulls.most = 0;
    const first = t!.cli.call('sync.now', {});
    await new Promise((r) => setTimeout(r, 20));
    await t!.cli.call('memory.update', { id: m.id, content: 'A change during the cycle.' });
    const second = t!.cli.call('sync.now', {});
    await Promise.all([first, second]);
    await new Promise((r) => setTimeout(r, 300));
    expect(pulls.most).toBe(1);
    expect(log.ops.some((o) => JSON.stringify(o.b).includes('A change during the cycle.'))).toBe(
      true,
    );
  });
});
