// One person's devices through a synced folder (what Syncthing, Dropbox or a git pull
// would hand over), each a real engine: convergence, a segment file edited by hand or
// cut short (refused by checksum, reported, the rest applied), a conflicted copy.
import { readdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSyncFile } from '../src/main/engine/sync/config';
import { openTestEngine, tempDir, type TestEngine } from './helpers/engine';
import { dumpReplica } from './helpers/sync';

let devices: TestEngine[] = [];
afterEach(async () => {
  await Promise.all(devices.map((d) => d.close()));
  devices = [];
});

async function pair(folder: string) {
  const a = await openTestEngine({ sync: { intervalMs: 3_600_000 } });
  const b = await openTestEngine({ sync: { intervalMs: 3_600_000 } });
  devices.push(a, b);
  await a.cli.call('sync.connect', { folder });
  await b.cli.call('sync.connect', { folder });
  return [a, b] as const;
}

const segmentsOf = (folder: string, t: TestEngine) => {
  const dir = join(folder, 'loci', 'default', readSyncFile(t.dir).device.id);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.seg'))
    .map((f) => join(dir, f));
};

const dump = async (t: TestEngine) => dumpReplica((await t.engine.store(undefined)).db);

describe('sync through a folder', () => {
  it('brings two devices to the same memories both ways, and lists both devices', async () => {
    const folder = tempDir('loci-folder-');
    const [a, b] = await pair(folder);
    const m = await a.cli.call('memory.remember', {
      content: 'The laptop charger is in the left drawer.',
    });
    await b.cli.call('memory.remember', { content: 'The desktop backs up to the NAS at night.' });
    await a.cli.call('sync.now', {});
    await b.cli.call('sync.now', {});
    await a.cli.call('sync.now', {});
    await b.cli.call('memory.update', { id: m.id, content: 'The laptop charger is in the bag.' });
    await b.cli.call('sync.now', {});
    await a.cli.call('sync.now', {});
    expect((await a.cli.call('memory.get', { id: m.id })).content).toBe(
      'The laptop charger is in the bag.',
    );
    expect(await dump(b)).toEqual(await dump(a));
    const listed = await a.cli.call('sync.devices', {});
    expect(listed.devices.map((d) => d.this_device).sort()).toEqual([false, true]);
  });

  it('refuses a line edited by hand and a segment cut short, reports them, and applies the rest', async () => {
    const folder = tempDir('loci-folder-');
    const [a, b] = await pair(folder);
    for (let i = 0; i < 5; i++)
      await a.cli.call('memory.remember', { content: `Shelf ${i} holds the winter tyres.` });
    await a.cli.call('sync.now', {});
    const [segment] = segmentsOf(folder, a);
    const text = readFileSync(segment!, 'utf8');
    // Someone changes a memory's text in the file: its checksum no longer matches.
    writeFileSync(segment!, text.replace('Shelf 2 holds', 'Shelf 2 HACKED holds'));
    const r = await b.cli.call('sync.now', {});
    expect(r.problems.length).toBeGreaterThan(0);
    expect(r.problems.map((p) => p.message).join(' ')).toMatch(/checksum/i);
    const got = await b.cli.call('memory.list', { limit: 20 });
    expect(got.items.map((i) => i.title).join(' ')).not.toContain('HACKED');
    expect(got.items).toHaveLength(4);
    const status = await b.cli.call('sync.status', {});
    expect(status.stores[0]?.problems[0]?.fix).toBeTruthy();

    // A file cut mid-line (a sync tool still copying): the complete lines apply.
    const c = await openTestEngine({ sync: { intervalMs: 3_600_000 } });
    devices.push(c);
    writeFileSync(segment!, text.slice(0, Math.floor(text.length * 0.6)));
    await c.cli.call('sync.connect', { folder });
    const cut = await c.cli.call('sync.now', {});
    expect(cut.problems.length).toBeGreaterThan(0);
    const partial = (await c.cli.call('memory.list', { limit: 20 })).items.length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(5);
    // The copy finishes: everything arrives, nothing twice.
    writeFileSync(segment!, text);
    await c.cli.call('sync.now', {});
    expect((await c.cli.call('memory.list', { limit: 20 })).items).toHaveLength(5);
  });

  it('reads a conflicted copy made by a sync tool without applying anything twice', async () => {
    const folder = tempDir('loci-folder-');
    const [a, b] = await pair(folder);
    await a.cli.call('memory.remember', { content: 'The garden tap is shut off in November.' });
    await a.cli.call('sync.now', {});
    const [segment] = segmentsOf(folder, a);
    copyFileSync(segment!, segment!.replace(/\.seg$/, ' (conflicted copy 2026-12-01).seg'));
    copyFileSync(segment!, segment!.replace(/\.seg$/, '.sync-conflict-20261201-123456-ABCDEF.seg'));
    const r = await b.cli.call('sync.now', {});
    expect(r.problems).toEqual([]);
    expect((await b.cli.call('memory.list', { limit: 20 })).items).toHaveLength(1);
    expect(await dump(b)).toEqual(await dump(a));
  });
});
