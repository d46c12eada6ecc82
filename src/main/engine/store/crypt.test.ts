import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/engine';
import { applyKey } from './cipher';
import { copyDatabase, reencryptFile } from './crypt';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dump(file: string, key: Buffer | null): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    applyKey(db, key);
    return {
      plain: db.prepare('SELECT rowid, * FROM plain ORDER BY rowid').all(),
      keyed: db.prepare('SELECT rowid, * FROM keyed ORDER BY rowid').all(),
      fts: db.prepare(`SELECT rowid, * FROM fts WHERE fts MATCH 'word' ORDER BY rowid`).all(),
    };
  } finally {
    db.close();
  }
}

describe('copying a database under another key', () => {
  it('keeps every row and its rowid when deletions left gaps, over several chunks', async () => {
    const dir = tempDir('loci-crypt-');
    dirs.push(dir);
    const file = join(dir, 'a.db');
    const db = new Database(file);
    db.exec(`
      CREATE TABLE plain (a INTEGER NOT NULL, b TEXT) STRICT;
      CREATE TABLE keyed (id INTEGER PRIMARY KEY, b TEXT);
      CREATE VIRTUAL TABLE fts USING fts5(body);
    `);
    const insert = db.transaction(() => {
      for (let i = 1; i <= 12_000; i++) {
        db.prepare('INSERT INTO plain (a, b) VALUES (?, ?)').run(i, `row ${i}`);
        db.prepare('INSERT INTO keyed (id, b) VALUES (?, ?)').run(i * 3, `row ${i}`);
        db.prepare('INSERT INTO fts (rowid, body) VALUES (?, ?)').run(i, `word ${i}`);
      }
    });
    insert();
    // Gaps at the start, in the middle, across a chunk boundary (5,000) and at the end.
    db.exec(`DELETE FROM plain WHERE rowid IN (1, 2, 4999, 5000, 5001, 7777, 12000)`);
    db.exec(`DELETE FROM keyed WHERE id % 7 = 0`);
    db.exec(`DELETE FROM fts WHERE rowid % 5 = 0`);
    db.close();
    const before = dump(file, null);
    expect(before.plain).toHaveLength(12_000 - 7);

    const key = randomBytes(32);
    const copy = join(dir, 'b.db');
    const counts = await copyDatabase({ file, key: null }, { file: copy, key });
    expect(counts.plain).toBe(12_000 - 7);
    expect(dump(copy, key)).toEqual(before);

    // And back, in place, to plain.
    await reencryptFile(copy, key, null);
    expect(dump(copy, null)).toEqual(before);
  });
});
