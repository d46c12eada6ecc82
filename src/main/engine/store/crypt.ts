// Copies a store's database under another key: plain → encrypted (`loci encrypt`),
// encrypted → plain (`loci decrypt`), one key → another (`loci rekey`), and the same for
// each backup. The copy is written beside the file under a temporary name, checked
// (quick_check, every table's row count), made durable, and only then renamed over the
// original: a crash leaves the old file or the new one, never half of either.
//
// The copy goes table by table through an ATTACHed source (as SQLCipher's
// sqlcipher_export does): tables and virtual tables first, then the rows (the virtual
// tables' shadow tables included, so FTS5 and sqlite-vec come over as they are, not
// rebuilt), then indexes, triggers and views, so no trigger fires on the copied rows.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import * as sqliteVec from 'sqlite-vec';
import { LociError } from '../../../shared/errors';
import { applyKey } from './cipher';
import { sqliteBindingOptions, unpackedPath } from './native';

export interface CopyProgress {
  /** Rows copied so far, and in all. */
  done: number;
  total: number;
  table: string;
}

interface SchemaRow {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  sql: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Rows per INSERT … SELECT, so progress is reported while a big table copies. */
const CHUNK = 5000;

function fsyncFile(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* some file systems refuse to open a folder; the rename is still atomic */
  }
}

/** Removes a database file with its -wal, -shm and -journal. */
export function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}

/**
 * Writes `target` as a copy of `source` encrypted with `targetKey` (null: plain).
 * The source must not be written meanwhile (the store is closed, or it is a backup).
 * Returns the row counts copied, by table.
 */
export async function copyDatabase(
  source: { file: string; key: Buffer | null },
  target: { file: string; key: Buffer | null },
  onProgress: (p: CopyProgress) => void = () => undefined,
): Promise<Record<string, number>> {
  removeDatabaseFiles(target.file);
  const out = new Database(target.file, sqliteBindingOptions());
  try {
    applyKey(out, target.key);
    // Shadow tables (FTS5's, sqlite-vec's) are written as rows here, which SQLite's
    // defensive mode forbids; this connection only ever copies, then is closed.
    out.unsafeMode(true);
    out.loadExtension(unpackedPath(sqliteVec.getLoadablePath()));
    try {
      out.prepare('ATTACH DATABASE ? AS src KEY ?').run(source.file, source.key ?? '');
      out.prepare('SELECT count(*) FROM src.sqlite_schema').get();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_NOTADB') {
        throw new LociError(
          'wrong-key',
          `${source.file} does not open with the key given (it is encrypted with another, or damaged).`,
          { path: source.file },
        );
      }
      throw err;
    }
    const pageSize = Number(out.pragma('src.page_size', { simple: true }));
    // Schema-qualified: an unqualified journal_mode would switch the source's too.
    out.pragma(`main.page_size = ${pageSize}`);
    out.pragma('main.journal_mode = DELETE');
    out.pragma('main.synchronous = OFF');
    const rows = out
      .prepare(
        `SELECT type, name, sql FROM src.sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`,
      )
      .all() as SchemaRow[];
    const tables = rows.filter((r) => r.type === 'table');
    const virtual = tables.filter((r) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(r.sql));
    const ordinary = tables.filter((r) => !virtual.includes(r));
    const exists = out.prepare(
      `SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = ?`,
    );
    const counts: Record<string, number> = {};
    const countOf = (schema: string, t: string) =>
      (out.prepare(`SELECT count(*) AS n FROM ${schema}.${quote(t)}`).get() as { n: number }).n;
    const hasSequence =
      out.prepare(`SELECT 1 FROM src.sqlite_schema WHERE name = 'sqlite_sequence'`).get() !==
      undefined;

    // One transaction, with the event loop free between chunks (the source is closed to
    // writers, so nothing changes under the copy while it waits).
    out.exec('BEGIN');
    {
      // Virtual tables first: they make their own shadow tables, which are then filled.
      for (const t of virtual) out.exec(t.sql);
      const shadow = new Set(ordinary.filter((t) => exists.get(t.name)).map((t) => t.name));
      for (const t of ordinary) if (!shadow.has(t.name)) out.exec(t.sql);
      let total = 0;
      for (const t of ordinary) total += counts[t.name] = countOf('src', t.name);
      let done = 0;
      for (const t of ordinary) {
        const name = quote(t.name);
        if (shadow.has(t.name)) out.exec(`DELETE FROM main.${name}`);
        const withoutRowid = /\bWITHOUT\s+ROWID\b/i.test(t.sql);
        if (withoutRowid) {
          out.exec(`INSERT INTO main.${name} SELECT * FROM src.${name}`);
          done += counts[t.name] ?? 0;
          onProgress({ done, total, table: t.name });
          continue;
        }
        // By rowid in chunks: a table of millions of rows still reports as it goes. The
        // rowid is copied too: `SELECT *` leaves it out of a table without an INTEGER
        // PRIMARY KEY, and the copy would number its rows afresh, closing the gaps that
        // deletions left (and then the next chunk, read past the copy's own last rowid,
        // would copy rows twice).
        const columns = (
          out.prepare(`SELECT name FROM pragma_table_info(?, 'src')`).all(t.name) as {
            name: string;
          }[]
        ).map((c) => quote(c.name));
        const list = ['rowid', ...columns].join(', ');
        const chunk = out.prepare(
          `INSERT INTO main.${name} (${list}) SELECT ${list} FROM src.${name} WHERE rowid > ? ORDER BY rowid LIMIT ${CHUNK}`,
        );
        const last = out.prepare(`SELECT max(rowid) AS r FROM main.${name}`);
        let after: number | bigint = -(2 ** 53);
        for (;;) {
          const r = chunk.run(after);
          if (r.changes === 0) break;
          done += r.changes;
          after = (last.get() as { r: number | bigint }).r;
          onProgress({ done, total, table: t.name });
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      // (A table dropped by a migration can leave the source a sqlite_sequence that no
      // AUTOINCREMENT table of the copy needs.)
      if (hasSequence && exists.get('sqlite_sequence')) {
        out.exec('DELETE FROM main.sqlite_sequence');
        out.exec('INSERT INTO main.sqlite_sequence SELECT * FROM src.sqlite_sequence');
      }
      for (const type of ['index', 'trigger', 'view'] as const) {
        for (const r of rows) if (r.type === type) out.exec(r.sql);
      }
      out.pragma(`main.user_version = ${Number(out.pragma('src.user_version', { simple: true }))}`);
      out.pragma(
        `main.application_id = ${Number(out.pragma('src.application_id', { simple: true }))}`,
      );
    }
    out.exec('COMMIT');

    // The copy is checked before it may replace anything.
    const check = (out.pragma('main.quick_check') as { quick_check: string }[])
      .map((r) => r.quick_check)
      .filter((r) => r !== 'ok');
    if (check.length > 0) throw new Error(`the copy fails quick_check: ${check.join('; ')}`);
    for (const t of ordinary) {
      const got = countOf('main', t.name);
      const want = counts[t.name] ?? 0;
      if (got !== want) throw new Error(`table ${t.name} has ${got} rows in the copy, not ${want}`);
    }
    out.exec('DETACH DATABASE src');
    return counts;
  } catch (err) {
    out.close();
    removeDatabaseFiles(target.file);
    throw err;
  } finally {
    if (out.open) out.close();
  }
}

/**
 * Puts `copy` in place of `file` in one rename. The original's -wal and -shm go first
 * (the caller closed every connection, so they hold nothing the file lacks).
 */
export function swapInto(copy: string, file: string): void {
  fsyncFile(copy);
  for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
  renameSync(copy, file);
  fsyncDir(dirname(file));
}

/** Copies and swaps in one step: the file is re-encrypted in place (atomically). */
export async function reencryptFile(
  file: string,
  from: Buffer | null,
  to: Buffer | null,
  onProgress?: (p: CopyProgress) => void,
): Promise<void> {
  if (!existsSync(file)) throw new LociError('not-found', `No database file at ${file}.`);
  const copy = `${file}.rekeying`;
  await copyDatabase({ file, key: from }, { file: copy, key: to }, onProgress);
  swapInto(copy, file);
}
