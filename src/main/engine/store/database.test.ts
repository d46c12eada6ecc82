import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/engine';
import { compareVersions, CorruptDatabaseError, moveAside, openDatabase } from './database';

const dirs: string[] = [];
const fresh = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('opens with WAL, synchronous=FULL, foreign keys, a busy timeout and sqlite-vec', () => {
    const db = openDatabase(join(fresh(), 'x.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect((db.prepare('SELECT vec_version() AS v').get() as { v: string }).v).toMatch(/^v0\./);
    db.close();
  });

  it('can run with synchronous=NORMAL when configured', () => {
    const db = openDatabase(join(fresh(), 'x.db'), { synchronous: 'normal' });
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    db.close();
  });

  it('reports a file that is not a database as damaged', () => {
    const file = join(fresh(), 'x.db');
    writeFileSync(
      file,
      'this is not a database, just text that is long enough to have a header '.repeat(100),
    );
    expect(() => openDatabase(file)).toThrow(CorruptDatabaseError);
  });

  it('reports a database with damaged pages as damaged', () => {
    const file = join(fresh(), 'x.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (x TEXT); CREATE INDEX t_x ON t(x);');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(`row ${i} ${'x'.repeat(50)}`);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    // Overwrite the middle of the file (past the header) with garbage.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(8192, 0xab), 0, 8192, 4096 * 5);
    closeSync(fd);
    expect(() => openDatabase(file)).toThrow(CorruptDatabaseError);
  });
});

describe('moveAside', () => {
  it('renames the database and its WAL files with a timestamp, deleting nothing', () => {
    const dir = fresh();
    const file = join(dir, 'loci.db');
    for (const suffix of ['', '-wal', '-shm']) writeFileSync(file + suffix, `content${suffix}`);
    const target = moveAside(file, new Date('2026-03-01T09:30:00.123Z'));
    expect(target).toBe(`${file}.corrupt-2026-03-01T09-30-00-123Z`);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual([
      'loci.db.corrupt-2026-03-01T09-30-00-123Z',
      'loci.db.corrupt-2026-03-01T09-30-00-123Z-shm',
      'loci.db.corrupt-2026-03-01T09-30-00-123Z-wal',
    ]);
  });
});

describe('compareVersions', () => {
  it('orders dotted versions numerically', () => {
    expect(compareVersions('3.53.2', '3.51.3')).toBeGreaterThan(0);
    expect(compareVersions('3.51.2', '3.51.3')).toBeLessThan(0);
    expect(compareVersions('3.51.3', '3.51.3')).toBe(0);
    expect(compareVersions('3.9.0', '3.10.0')).toBeLessThan(0);
  });
});
