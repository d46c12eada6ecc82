// Backups of one store's database: taken with SQLite's online backup API (consistent
// while writes go on), checked with quick_check before they count, listed, pruned (only
// the scheduled ones, keeping the newest N), and restored by an atomic swap while no
// process owns the data directory. The file being replaced is moved aside, never deleted.
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { LociError } from '../../../shared/errors';
import { applyKey, fileHeader, keyOf } from './cipher';
import { reencryptFile } from './crypt';
import type { Db } from './database';
import { sqliteBindingOptions } from './native';
import { CORRUPT_MARKER_FILE, STORE_FILE, storeDir } from './paths';

export interface BackupInfo {
  path: string;
  bytes: number;
  created_at: string;
  /** `scheduled` backups are pruned to the newest N; `manual` and `pre-migration` are kept. */
  kind: 'manual' | 'scheduled' | 'pre-migration';
}

export function backupsDir(dataDir: string, store: string): string {
  return join(storeDir(dataDir, store), 'backups');
}

const stamp = (at: number) => new Date(at).toISOString().replace(/[:.]/g, '-');

function kindOf(file: string): BackupInfo['kind'] {
  if (file.startsWith('scheduled-')) return 'scheduled';
  if (file.startsWith('pre-migration-')) return 'pre-migration';
  return 'manual';
}

/**
 * Opens a file read-only (under `key` when it is encrypted) and runs quick_check;
 * throws a LociError naming the problem.
 */
export function checkBackupFile(file: string, key: Buffer | null = null): void {
  if (!existsSync(file)) throw new LociError('not-found', `No backup file at ${file}.`);
  const header = fileHeader(file);
  if (header === 'opaque' && !key) {
    throw new LociError(
      'key-required',
      `${file} is encrypted (or is not a database), and this store has no key to open it.`,
      { path: file },
    );
  }
  let db: Db | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...sqliteBindingOptions() });
    applyKey(db, header === 'opaque' ? key : null);
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    const bad = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
    if (bad.length > 0) throw new Error(bad.slice(0, 3).join('; '));
    const tables = db
      .prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name IN ('memory', 'audit')`)
      .get() as { n: number };
    if (tables.n !== 2) throw new Error('it has no memory and audit tables');
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_NOTADB' && header === 'opaque') {
      throw new LociError(
        'wrong-key',
        `${file} does not open with this store's key: it is encrypted under another key, or it is not a database.`,
        { path: file },
      );
    }
    throw new LociError(
      'invalid-args',
      `${file} is not a sound Loci database: ${(err as Error).message}`,
      { path: file },
    );
  } finally {
    db?.close();
  }
}

/**
 * Copies the open database to `to` (default: the store's backups folder) with the online
 * backup API, through a temporary name so a half-written copy never looks like a backup.
 */
export async function backupDatabase(
  db: Db,
  options: {
    dataDir: string;
    store: string;
    to?: string;
    kind?: 'manual' | 'scheduled';
    now: number;
  },
): Promise<BackupInfo> {
  const kind = options.kind ?? 'manual';
  if (options.to !== undefined && (!isAbsolute(options.to) || options.to.includes('\0'))) {
    throw new LociError(
      'invalid-args',
      `"to" must be an absolute file path (got ${JSON.stringify(options.to.slice(0, 200))}).`,
    );
  }
  const target = options.to
    ? resolve(options.to)
    : join(
        backupsDir(options.dataDir, options.store),
        `${kind === 'scheduled' ? 'scheduled' : 'backup'}-${stamp(options.now)}.db`,
      );
  if (existsSync(target)) {
    throw new LociError('invalid-args', `${target} already exists; choose another file name.`, {
      path: target,
    });
  }
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const key = keyOf(db);
  try {
    // An encrypted store's copy is made by VACUUM INTO, which writes it under the same
    // key (the online backup API cannot copy between pages of different layouts).
    if (key) db.prepare('VACUUM INTO ?').run(partial);
    else await db.backup(partial);
    // A self-contained file: no -wal or -shm beside it (the store sets WAL again on open).
    const copy = new Database(partial, sqliteBindingOptions());
    try {
      applyKey(copy, key);
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    const fd = openSync(partial, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    checkBackupFile(partial, key);
    renameSync(partial, target);
  } catch (err) {
    rmSync(partial, { force: true });
    if (err instanceof LociError) throw err;
    throw new LociError('internal', `The backup to ${target} failed: ${(err as Error).message}`, {
      path: target,
    });
  }
  return {
    path: target,
    bytes: statSync(target).size,
    created_at: new Date(options.now).toISOString(),
    kind,
  };
}

/** Backups in the store's folder, newest first. */
export function listBackups(dataDir: string, store: string): BackupInfo[] {
  const dir = backupsDir(dataDir, store);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.db'))
    .map((f) => {
      const s = statSync(join(dir, f));
      // The time in the name (the engine's clock when it was taken), else the file's.
      const m = /(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)-(\d{3})Z\.db$/.exec(f);
      return {
        path: join(dir, f),
        bytes: s.size,
        created_at: m ? `${m[1]}:${m[2]}:${m[3]}.${m[4]}Z` : s.mtime.toISOString(),
        kind: kindOf(f),
      };
    })
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.path.localeCompare(a.path));
}

/** Removes scheduled backups past the newest `keep`; returns the removed paths. */
export function pruneScheduled(dataDir: string, store: string, keep: number): string[] {
  const old = listBackups(dataDir, store)
    .filter((b) => b.kind === 'scheduled')
    .slice(Math.max(0, keep));
  for (const b of old) rmSync(b.path, { force: true });
  return old.map((b) => b.path);
}

export interface RestoreResult {
  store: string;
  restored_from: string;
  /** Where the database that was replaced now lives (null when there was none). */
  previous_moved_to: string | null;
}

/**
 * Puts a backup in place of the store's database. The caller holds the data directory's
 * lock (so no process has the store open). The backup is checked, copied next to the
 * database and renamed over it in one step; the old file (with its -wal and -shm) is
 * moved aside first, and the store's "damaged" marker is cleared.
 */
export async function restoreDatabase(
  dataDir: string,
  store: string,
  from: string,
  now: number,
  /** An encrypted store's keys (current first): the backup opens with one, and is put in under the first. */
  keys: readonly Buffer[] = [],
): Promise<RestoreResult> {
  const source = resolve(from);
  const plain = fileHeader(source) !== 'opaque';
  let opens: Buffer | null = null;
  if (!plain) {
    let last: unknown = new LociError(
      'key-required',
      `${source} is encrypted, and store "${store}" has no key to open it.`,
      { path: source },
    );
    for (const key of keys) {
      try {
        checkBackupFile(source, key);
        opens = key;
        break;
      } catch (err) {
        last = err;
      }
    }
    if (!opens) throw last;
  } else checkBackupFile(source);
  const dir = storeDir(dataDir, store);
  const file = join(dir, STORE_FILE);
  const incoming = `${file}.restoring`;
  const want = keys[0] ?? null;
  if (opens === want) copyFileSync(source, incoming);
  // A plain backup of an encrypted store (or one under its older key) goes in under its key.
  else {
    rmSync(incoming, { force: true });
    copyFileSync(source, incoming);
    await reencryptFile(incoming, opens, want);
  }
  const fd = openSync(incoming, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  let movedTo: string | null = null;
  if (existsSync(file)) {
    movedTo = `${file}.before-restore-${stamp(now)}`;
    renameSync(file, movedTo);
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
    }
  }
  renameSync(incoming, file);
  const marker = join(dir, CORRUPT_MARKER_FILE);
  if (existsSync(marker)) renameSync(marker, `${marker}.cleared-${now}`);
  return { store, restored_from: source, previous_moved_to: movedTo };
}

export const describeBackup = (b: BackupInfo) =>
  `${basename(b.path)}  ${(b.bytes / 1024).toFixed(0)} KiB  ${b.created_at}  (${b.kind})`;
