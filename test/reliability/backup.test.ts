// Backups, restore and damaged databases (issue 10, items 2 and 3): an online backup taken
// while writes go on is sound and self-consistent; `loci restore` refuses while an owner
// runs and otherwise swaps the file, keeping the one it replaced; scheduled backups keep
// the newest N; the WAL policy truncates an idle log; flipped bytes, a truncated file and
// a mismatched WAL are detected at start, moved aside (never deleted) and recoverable from
// the CLI with `loci backup restore` or `loci stores reset`.
import {
  closeSync,
  copyFileSync,
  existsSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/main/daemon';
import { createHandlers } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import { Maintenance } from '../../src/main/engine/store/maintenance';
import { cli } from '../helpers/cli';
import { openTestEngine, tempDir } from '../helpers/engine';

const dirs: string[] = [];
const fresh = (p: string) => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const dbFile = (home: string, store = 'default') => join(home, 'stores', store, 'loci.db');

async function seed(home: string, n: number, label = 'first'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await cli(home, [
      'remember',
      label === 'first'
        ? `Seeded fact number ${i}: the build cache lives on disk ${i}.`
        : `A later addition, ${label} ${i}: the on-call rota changes every ${i + 2} weeks.`,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    ids.push(JSON.parse(r.stdout).id);
  }
  return ids;
}

describe('backup and restore', () => {
  it('takes an online backup while writes go on; the copy is sound and its audit chain verifies', async () => {
    const t = await openTestEngine({ dataDir: fresh('loci-bk-') });
    try {
      for (let i = 0; i < 200; i++)
        await t.cli.call('memory.remember', {
          content: `Warm-up note ${i} about the deploy queue.`,
        });
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          await t.cli.call('memory.remember', {
            content: `Concurrent note ${written++} on the cache.`,
          });
          await new Promise((r) => setImmediate(r));
        }
      })();
      const b = await t.cli.call('store.backup', {});
      writing = false;
      await writer;
      expect(written).toBeGreaterThan(0);
      expect(existsSync(b.path)).toBe(true);
      expect(b.kind).toBe('manual');
      const list = await t.cli.call('store.backups', {});
      expect(list.backups.map((x) => x.path)).toContain(b.path);
      // The copy: integrity ok, and its memories and audit entries agree (one entry per write).
      const copy = new Database(b.path, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const mem = (copy.prepare('SELECT count(*) AS n FROM memory').get() as { n: number }).n;
      const creates = (
        copy.prepare(`SELECT count(*) AS n FROM audit WHERE action = 'memory.create'`).get() as {
          n: number;
        }
      ).n;
      copy.close();
      expect(mem).toBeGreaterThanOrEqual(200);
      expect(creates).toBe(mem);
      // Restored into its own data directory with the same audit key, the chain verifies.
      for (const to of ['relative/copy.db', '/tmp/nul\u0000.db'])
        await expect(t.cli.call('store.backup', { to })).rejects.toMatchObject({
          code: 'invalid-args',
          message: expect.stringMatching(/must be an absolute file path/),
        });
      expect(existsSync(`${b.path}-wal`) || existsSync(`${b.path}-shm`)).toBe(false);
      await expect(t.cli.call('store.backup', { to: b.path })).rejects.toMatchObject({
        code: 'invalid-args',
        message: expect.stringMatching(/already exists/),
      });
    } finally {
      await t.close();
    }
  });

  it('loci backup restore refuses while the daemon runs, then swaps atomically and keeps the replaced file', async () => {
    const home = fresh('loci-restore-');
    const before = await seed(home, 3);
    const backup = await cli(home, ['backup', '--json']);
    expect(backup.code, backup.stderr).toBe(0);
    const { path } = JSON.parse(backup.stdout) as { path: string };
    const after = await seed(home, 2, 'later');

    const daemon = await startDaemon({ dataDir: home, port: 0, env: {} });
    try {
      const refused = await cli(home, ['backup', 'restore', path]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/Loci is running .*Stop it/);
    } finally {
      await daemon.close();
    }
    const bad = await cli(home, ['backup', 'restore', join(home, 'nope.db')]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/No backup file/);

    const r = await cli(home, ['backup', 'restore', path, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { previous_moved_to: string };
    expect(existsSync(result.previous_moved_to)).toBe(true);
    const list = JSON.parse((await cli(home, ['list', '--json'])).stdout) as {
      items: { id: string }[];
    };
    const ids = list.items.map((m) => m.id).sort();
    expect(ids).toEqual([...before].sort());
    for (const id of after) expect(ids).not.toContain(id);
    const verify = await cli(home, ['audit', 'verify', '--json']);
    expect(JSON.parse(verify.stdout).ok).toBe(true);
  });

  it('keeps the newest N scheduled backups and truncates an idle WAL', async () => {
    const t = await openTestEngine({ dataDir: fresh('loci-sched-') });
    try {
      await t.cli.call('memory.remember', { content: 'Scheduled backups keep the newest ones.' });
      const m = new Maintenance({
        dataDir: t.dir,
        stores: () => t.engine.openStores(),
        now: () => t.clock.now,
        backupEveryHours: 24,
        backupKeep: 3,
      });
      for (let day = 0; day < 5; day++) {
        await m.tick();
        await m.tick(); // a second pass the same day takes no second backup
        t.advance(25 * 3600_000);
      }
      const scheduled = (await t.cli.call('store.backups', {})).backups.filter(
        (b) => b.kind === 'scheduled',
      );
      expect(scheduled).toHaveLength(3);
      expect(scheduled[0]?.created_at).toBe(new Date(t.clock.now - 25 * 3600_000).toISOString());

      for (let i = 0; i < 300; i++)
        await t.cli.call('memory.remember', { content: `WAL growth note ${i} with some words.` });
      const wal = `${dbFile(t.dir)}-wal`;
      expect(statSync(wal).size).toBeGreaterThan(0);
      await m.tick(); // sees the size
      await m.tick(); // unchanged since: idle, truncate
      expect(statSync(wal).size).toBe(0);
      expect(m.checkpoints).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});

describe('a damaged database', () => {
  /** Makes a store with some memories and a backup, closed, and returns its paths. */
  async function prepared() {
    const home = fresh('loci-corrupt-');
    const ids = await seed(home, 30);
    const backup = JSON.parse((await cli(home, ['backup', '--json'])).stdout) as { path: string };
    return { home, ids, backup: backup.path, file: dbFile(home) };
  }

  const damages: [string, (file: string, home: string) => void][] = [
    [
      'flipped bytes in a table page',
      (file) => {
        const size = statSync(file).size;
        const fd = openSync(file, 'r+');
        // Every page after the schema: overwrite its middle with junk.
        for (let page = 2; page * 4096 < size; page++)
          writeSync(fd, Buffer.alloc(512, 0xa5), 0, 512, page * 4096 + 1024);
        closeSync(fd);
      },
    ],
    ['a truncated file', (file) => truncateSync(file, 4096 + 100)],
    [
      'a header that is not SQLite',
      (file) => {
        const fd = openSync(file, 'r+');
        writeSync(fd, Buffer.from('definitely not sqlite'), 0, 21, 0);
        closeSync(fd);
      },
    ],
  ];

  for (const [what, damage] of damages) {
    it(`detects ${what} at start, moves it aside, and recovers with loci backup restore`, async () => {
      const { home, ids, backup, file } = await prepared();
      damage(file, home);
      const damaged = readFileSync(file);
      const r = await cli(home, ['list']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/failed its integrity check.*nothing was deleted/);
      expect(r.stderr).toMatch(/loci stores reset default/);
      // The message (the CLI prints it; the observatory's error panel shows it) names the backup.
      expect(r.stderr).toContain(`loci backup restore ${backup}`);
      const aside = readdirSync(join(home, 'stores', 'default')).filter((f) =>
        f.startsWith('loci.db.corrupt-'),
      );
      expect(aside.length).toBeGreaterThan(0);
      // The damaged bytes are kept exactly.
      expect(readFileSync(join(home, 'stores', 'default', aside[0] as string))).toEqual(damaged);
      // Until the user decides, the store stays closed (no silent empty store).
      expect((await cli(home, ['list'])).stderr).toMatch(/failed its integrity check/);

      const restored = await cli(home, ['backup', 'restore', backup]);
      expect(restored.code, restored.stderr).toBe(0);
      const list = JSON.parse((await cli(home, ['list', '--json', '-n', '100'])).stdout) as {
        items: { id: string }[];
      };
      expect(list.items.map((m) => m.id).sort()).toEqual([...ids].sort());
    });
  }

  it('starts a store empty with loci stores reset, keeping the damaged file', async () => {
    const { home, file } = await prepared();
    truncateSync(file, 5000);
    expect((await cli(home, ['list'])).code).not.toBe(0);
    const reset = await cli(home, ['stores', 'reset', 'default']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toMatch(/starts empty/);
    const list = await cli(home, ['list', '--json']);
    expect(JSON.parse(list.stdout).items).toEqual([]);
    expect(readdirSync(join(home, 'stores', 'default')).some((f) => f.includes('corrupt-'))).toBe(
      true,
    );
  });

  it('a mismatched WAL (from another copy) is detected, or ignored by SQLite, never silently mixed in', async () => {
    const { home, file } = await prepared();
    // A WAL written against a different database of the same shape.
    const other = fresh('loci-other-');
    await seed(other, 5);
    const engine = await Engine.open({ dataDir: other, owner: 'test', env: {} });
    const s = await engine.store(undefined);
    s.db.pragma('wal_autocheckpoint = 0');
    s.db.exec(`UPDATE memory SET title = 'FOREIGN WAL' `);
    copyFileSync(`${dbFile(other)}-wal`, `${file}-wal`);
    await engine.close();
    const r = await cli(home, ['list', '--json', '-n', '100']);
    if (r.code === 0) {
      // SQLite rejected the log (its salt does not match): the store is the one we wrote.
      const titles = (JSON.parse(r.stdout) as { items: { title: string }[] }).items.map(
        (m) => m.title,
      );
      expect(titles).toHaveLength(30);
      expect(titles).not.toContain('FOREIGN WAL');
      const db = new Database(file, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } else {
      expect(r.stderr).toMatch(/failed its integrity check.*nothing was deleted/);
    }
  });

  it('a missing WAL loses only uncheckpointed commits, never consistency, and the kept audit anchor notices', async () => {
    const { home, file } = await prepared();
    const engine = await Engine.open({ dataDir: home, owner: 'test', env: {} });
    const s = await engine.store(undefined);
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    s.db.pragma('wal_autocheckpoint = 0');
    const mainOnly = readFileSync(file); // holds the 30 memories; the next commits go to the log
    for (let i = 0; i < 5; i++)
      await createHandlers(engine).dispatch(
        'memory.remember',
        { content: `Only in the log ${i}: lost with it.` },
        { actor: { kind: 'cli', transport: 'in-process' } },
      );
    // The verification keeps its anchor (the head, 5 entries past the main file) beside the database.
    expect((await engine.audit.verify({})).ok).toBe(true);
    await engine.close();
    // The log is lost (deleted by hand, a sync tool, a bad restore): the main file as it was.
    writeFileSync(file, mainOnly);
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    const r = await cli(home, ['list', '--json', '-n', '100']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).items).toHaveLength(30);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    const verify = await cli(home, ['audit', 'verify', '--json']);
    const v = JSON.parse(verify.stdout) as { ok: boolean; first_broken: { reason: string } | null };
    expect(v.ok).toBe(false);
    expect(v.first_broken?.reason).toBeTruthy();
  });
});
