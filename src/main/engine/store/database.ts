// Opens one store's SQLite database the way Loci needs it: WAL, synchronous=FULL,
// foreign keys, a busy timeout, sqlite-vec loaded, then checks that each setting took
// and that the file is sound. It never deletes or overwrites a damaged file: the
// caller moves it aside (see moveAside) and tells the user.
import { existsSync, renameSync } from 'node:fs';
import Database from 'better-sqlite3-multiple-ciphers';
import * as sqliteVec from 'sqlite-vec';
import { LociError } from '../../../shared/errors';
import { applyKey } from './cipher';
import { sqliteBindingOptions, unpackedPath } from './native';
import { registerWriterFunction } from '../sync/writer';

export type Db = Database.Database;

/** 3.51.3 fixes the WAL-reset corruption bug present since 3.7.0. */
export const MIN_SQLITE_VERSION = '3.51.3';

export type SynchronousMode = 'full' | 'normal';

export interface OpenOptions {
  synchronous?: SynchronousMode;
  busyTimeoutMs?: number;
  readonly?: boolean;
  /** The store's key when its file is encrypted (store/keys.ts finds it). */
  key?: Buffer | null;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export class CorruptDatabaseError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
  ) {
    super(`database ${file} is damaged: ${detail}`);
  }
}

const CORRUPTION_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_VTAB']);

export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (CORRUPTION_CODES.has(code) || code.startsWith('SQLITE_CORRUPT'))
  );
}

/**
 * Opens and verifies a database file. Throws CorruptDatabaseError when the file fails
 * quick_check (or is not a database at all), LociError('environment') when SQLite or
 * a pragma is not what Loci requires.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  let db: Db;
  try {
    db = new Database(file, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
      ...sqliteBindingOptions(),
    });
  } catch (err) {
    if (isCorruptionError(err)) throw new CorruptDatabaseError(file, (err as Error).message);
    throw err;
  }
  try {
    applyKey(db, options.key ?? null);
    db.loadExtension(unpackedPath(sqliteVec.getLoadablePath()));
    assertSqliteVersion(db);
    applyPragmas(db, options);
    const check = db.pragma('quick_check') as { quick_check: string }[];
    const problems = check.map((row) => row.quick_check).filter((line) => line !== 'ok');
    if (problems.length > 0) throw new CorruptDatabaseError(file, problems.slice(0, 3).join('; '));
    return db;
  } catch (err) {
    db.close();
    if (isCorruptionError(err)) throw new CorruptDatabaseError(file, (err as Error).message);
    throw err;
  }
}

function assertSqliteVersion(db: Db): void {
  const { version } = db.prepare('SELECT sqlite_version() AS version').get() as { version: string };
  if (compareVersions(version, MIN_SQLITE_VERSION) < 0) {
    throw new LociError(
      'environment',
      `SQLite ${version} is too old: Loci needs ${MIN_SQLITE_VERSION} or newer (earlier versions can corrupt WAL databases). Reinstall the pinned driver (better-sqlite3-multiple-ciphers 12.11.1).`,
      { sqlite_version: version },
    );
  }
  const options = (db.pragma('compile_options') as { compile_options: string }[]).map(
    (r) => r.compile_options,
  );
  if (!options.includes('ENABLE_FTS5')) {
    throw new LociError('environment', 'This SQLite build lacks FTS5, which lexical recall needs.');
  }
}

function applyPragmas(db: Db, options: OpenOptions): void {
  const synchronous = options.synchronous ?? 'full';
  const busy = options.busyTimeoutMs ?? 5000;
  if (!options.readonly) {
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (String(mode).toLowerCase() !== 'wal') {
      throw new LociError(
        'environment',
        `SQLite refused write-ahead logging (journal_mode is ${String(mode)}). Is the data directory on a network or read-only file system? Put LOCI_HOME on a local disk.`,
      );
    }
  }
  db.pragma(`synchronous = ${synchronous.toUpperCase()}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${busy}`);
  db.pragma('temp_store = MEMORY');
  // The replication log's triggers name the writer (sync/writer.ts).
  registerWriterFunction(db);
  // An encrypted page is decrypted each time it enters SQLite's page cache (the OS cache
  // holds only ciphertext, and encryption turns mmap off): a larger cache keeps the hot
  // pages decrypted. It grows with use only, up to 32 MiB.
  if (options.key) db.pragma('cache_size = -32768');
  // Keeps the WAL file from staying large after a burst of writes.
  db.pragma('journal_size_limit = 67108864');
  // PASSIVE checkpoints on commit every ~4 MiB of log; the daemon's maintenance
  // (store/maintenance.ts) truncates the log when idle or past a cap.
  if (!options.readonly) db.pragma('wal_autocheckpoint = 1000');

  const expected: [string, number][] = [
    ['synchronous', synchronous === 'full' ? 2 : 1],
    ['foreign_keys', 1],
    ['busy_timeout', busy],
  ];
  for (const [pragma, want] of expected) {
    const got = Number(db.pragma(pragma, { simple: true }));
    if (got !== want) {
      throw new LociError(
        'environment',
        `SQLite did not accept PRAGMA ${pragma} (wanted ${want}, got ${got}).`,
      );
    }
  }
  const vec = db.prepare('SELECT vec_version() AS v').get() as { v: string } | undefined;
  if (!vec?.v) throw new LociError('environment', 'The sqlite-vec extension did not load.');
}

/**
 * Moves a damaged database (with its -wal and -shm files) aside under a timestamped
 * name, never deleting anything. Returns the new path of the main file.
 */
export function moveAside(file: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const target = `${file}.corrupt-${stamp}`;
  renameSync(file, target);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  }
  return target;
}
