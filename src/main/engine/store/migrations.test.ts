import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/engine';
import { LociError } from '../../../shared/errors';
import { openDatabase } from './database';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate, schemaVersion } from './migrations';

const dirs: string[] = [];
const fresh = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const tables = (db: Database.Database) =>
  (
    db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table') ORDER BY name`).all() as {
      name: string;
    }[]
  ).map((r) => r.name);

describe('migrate', () => {
  it('builds the whole schema on an empty database without a backup', async () => {
    const dir = fresh();
    const db = openDatabase(join(dir, 'loci.db'));
    const report = await migrate(db, { backupPath: () => join(dir, 'backup.db') });
    expect(report).toMatchObject({ from: 0, to: LATEST_SCHEMA_VERSION, backup: null });
    expect(report.applied).toHaveLength(MIGRATIONS.length);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    const names = tables(db);
    for (const t of [
      'memory',
      'memory_version',
      'memory_tag',
      'access',
      'memory_state',
      'link',
      'memory_fts',
      'memory_embedding',
      'store_setting',
      'procedure_outcome',
      'audit',
      'review_item',
      'dream_report',
      'schema_version',
    ]) {
      expect(names).toContain(t);
    }
    expect(existsSync(join(dir, 'backup.db'))).toBe(false);
    // Running again is a no-op.
    expect((await migrate(db, { backupPath: () => join(dir, 'backup2.db') })).applied).toEqual([]);
    db.close();
  });

  it('upgrades a populated version-1 store: data kept, indexes rebuilt, a backup taken first', async () => {
    const dir = fresh();
    const file = join(dir, 'loci.db');
    const old = openDatabase(file);
    await migrate(old, { backupPath: () => join(dir, 'unused.db'), target: 1 });
    expect(schemaVersion(old)).toBe(1);
    const insert = old.prepare(
      `INSERT INTO memory (id, title, content, kind, source, created_at, updated_at, content_hash)
       VALUES (?, ?, ?, 'semantic', 'user', ?, ?, ?)`,
    );
    insert.run(
      '01HZZZZZZZZZZZZZZZZZZZZZZ1',
      'Deploys',
      'We deploy billing with the makeDeploy helper.',
      1,
      1,
      'h1',
    );
    insert.run(
      '01HZZZZZZZZZZZZZZZZZZZZZZ2',
      'Replication',
      'Orders use logical replication.',
      2,
      2,
      'h2',
    );
    old.prepare(`INSERT INTO memory_tag (rid, tag) VALUES (1, 'ops')`).run();
    old.close();

    const db = openDatabase(file);
    const backup = join(dir, 'backups', 'pre-migration.db');
    const report = await migrate(db, { backupPath: () => backup });
    expect(report).toMatchObject({ from: 1, to: LATEST_SCHEMA_VERSION, backup });
    // The rows survived and the new indexes cover them.
    expect((db.prepare('SELECT COUNT(*) AS n FROM memory').get() as { n: number }).n).toBe(2);
    const hit = db
      .prepare(`SELECT rowid FROM memory_fts WHERE memory_fts MATCH '"make deploy"'`)
      .all();
    expect(hit).toEqual([{ rowid: 1 }]);
    expect(db.prepare(`SELECT rowid FROM memory_fts WHERE memory_fts MATCH 'ops'`).all()).toEqual([
      { rowid: 1 },
    ]);
    expect((db.prepare('SELECT COUNT(*) AS n FROM memory_state').get() as { n: number }).n).toBe(2);
    db.close();
    // The backup is a complete, openable copy of the version-1 store.
    const copy = new Database(backup, { readonly: true });
    expect(
      (copy.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number }).v,
    ).toBe(1);
    expect((copy.prepare('SELECT COUNT(*) AS n FROM memory').get() as { n: number }).n).toBe(2);
    copy.close();
  });

  it('refuses a store written by a newer Loci and changes nothing', async () => {
    const dir = fresh();
    const db = openDatabase(join(dir, 'loci.db'));
    await migrate(db, { backupPath: () => join(dir, 'b.db') });
    db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(
      LATEST_SCHEMA_VERSION + 1,
      'future',
      0,
    );
    await expect(migrate(db, { backupPath: () => join(dir, 'b2.db') })).rejects.toThrow(LociError);
    await expect(migrate(db, { backupPath: () => join(dir, 'b2.db') })).rejects.toThrow(
      /newer Loci/,
    );
    db.close();
  });

  it('rolls a failing migration back completely', async () => {
    const dir = fresh();
    const db = openDatabase(join(dir, 'loci.db'));
    const broken = {
      version: 1,
      name: 'broken',
      up: (d: Database.Database) => d.exec('CREATE TABLE a (x); CREATE TABLE a (x);'),
    };
    const saved = MIGRATIONS.splice(0, MIGRATIONS.length, broken);
    try {
      await expect(migrate(db, { backupPath: () => join(dir, 'b.db') })).rejects.toThrow();
      expect(tables(db)).not.toContain('a');
      expect(schemaVersion(db)).toBe(0);
    } finally {
      MIGRATIONS.splice(0, MIGRATIONS.length, ...saved);
      db.close();
    }
  });
});
