// Checks of the store's SQLite database: versions, pragmas, integrity, schema, the
// sqlite-vec extension, the FTS index in step with the memories, orphan links, and the
// sizes of the database and its write-ahead log.
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compareVersions, MIN_SQLITE_VERSION } from '../store/database';
import { ftsRebuild } from '../store/ftsIndex';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, schemaVersion } from '../store/migrations';
import { bytes, finding, ok, type CheckDefinition } from './types';

function betterSqliteVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require('better-sqlite3-multiple-ciphers/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export const databaseChecks: CheckDefinition[] = [
  {
    id: 'sqlite.version',
    group: 'Database',
    title: 'SQLite and its driver',
    run({ store }) {
      const { v, mc } = store.db
        .prepare('SELECT sqlite_version() AS v, sqlite3mc_version() AS mc')
        .get() as { v: string; mc: string };
      const driver = betterSqliteVersion();
      if (compareVersions(v, MIN_SQLITE_VERSION) < 0) {
        return finding(
          'fail',
          `SQLite ${v} (better-sqlite3-multiple-ciphers ${driver}) is older than ${MIN_SQLITE_VERSION}, which can corrupt WAL databases.`,
          'Reinstall the pinned driver (npm install better-sqlite3-multiple-ciphers@12.11.1).',
        );
      }
      return ok(`SQLite ${v}, better-sqlite3-multiple-ciphers ${driver} (${mc}).`);
    },
  },
  {
    id: 'sqlite.pragmas',
    group: 'Database',
    title: 'Durability settings',
    run({ store }) {
      const get = (p: string) => store.db.pragma(p, { simple: true }) as string | number;
      const journal = String(get('journal_mode')).toLowerCase();
      const sync = Number(get('synchronous'));
      const fk = Number(get('foreign_keys'));
      const busy = Number(get('busy_timeout'));
      const line = `journal_mode=${journal}, synchronous=${['off', 'normal', 'full', 'extra'][sync] ?? sync}, foreign_keys=${fk ? 'on' : 'off'}, busy_timeout=${busy} ms`;
      if (journal !== 'wal' || fk !== 1 || busy <= 0) {
        return finding(
          'fail',
          `${line}: not what Loci needs.`,
          'Restart Loci; if it persists, the data directory may be on a network or read-only disk.',
        );
      }
      if (sync < 2) {
        return finding(
          'warn',
          `${line}: the last transactions before a power cut may be lost.`,
          'Unset LOCI_SYNCHRONOUS (full is the default) unless you chose speed over durability.',
        );
      }
      return ok(`${line}.`);
    },
  },
  {
    id: 'sqlite.integrity',
    group: 'Database',
    title: 'Integrity (quick_check)',
    run({ store }) {
      let problems: string[];
      try {
        const rows = store.db.pragma('quick_check') as { quick_check: string }[];
        problems = rows.map((r) => r.quick_check).filter((l) => l !== 'ok');
      } catch (err) {
        // A badly damaged file makes quick_check itself fail ("disk image is malformed").
        problems = [(err as Error).message];
      }
      if (problems.length > 0) {
        return finding(
          'fail',
          `quick_check found ${problems.length} problem(s): ${problems.slice(0, 2).join('; ')}.`,
          `Stop Loci and restore a backup from ${store.dir}/backups; do not keep writing to this file.`,
        );
      }
      return ok('quick_check: ok.');
    },
  },
  {
    id: 'schema.version',
    group: 'Database',
    title: 'Schema version',
    run({ store }) {
      const v = schemaVersion(store.db);
      const pending = MIGRATIONS.filter((m) => m.version > v);
      if (v > LATEST_SCHEMA_VERSION) {
        return finding(
          'fail',
          `Schema ${v} was written by a newer Loci (this one knows up to ${LATEST_SCHEMA_VERSION}).`,
          'Upgrade Loci.',
        );
      }
      if (pending.length > 0) {
        return finding(
          'warn',
          `Schema ${v}; ${pending.length} migration(s) pending: ${pending.map((m) => m.name).join('; ')}.`,
          'Restart Loci: migrations run (after a backup) when a store opens.',
        );
      }
      return ok(`Schema ${v}, no migration pending.`);
    },
  },
  {
    id: 'sqlite.vec',
    group: 'Database',
    title: 'sqlite-vec extension',
    run({ store }) {
      try {
        const v = (store.db.prepare('SELECT vec_version() AS v').get() as { v: string }).v;
        return ok(`sqlite-vec ${v} loaded.`);
      } catch (err) {
        return finding(
          'fail',
          `sqlite-vec is not loaded (${(err as Error).message}).`,
          'Reinstall Loci’s dependencies (npm install sqlite-vec).',
        );
      }
    },
  },
  {
    id: 'fts.sync',
    group: 'Indexes',
    title: 'Full-text index in step',
    run({ store }) {
      const missing = (
        store.db
          .prepare(
            `SELECT COUNT(*) AS n FROM memory m WHERE m.deleted_at IS NULL
               AND m.rid NOT IN (SELECT rowid FROM memory_fts)`,
          )
          .get() as { n: number }
      ).n;
      const extra = (
        store.db
          .prepare(
            `SELECT COUNT(*) AS n FROM memory_fts
              WHERE rowid NOT IN (SELECT rid FROM memory WHERE deleted_at IS NULL)`,
          )
          .get() as { n: number }
      ).n;
      if (missing + extra > 0) {
        return finding(
          'fail',
          `${missing} memories missing from the full-text index, ${extra} stale rows in it: lexical recall misses or misranks them.`,
          'Rebuild the full-text index from the memories (safe: it is derived data).',
          true,
        );
      }
      const live = (
        store.db.prepare('SELECT COUNT(*) AS n FROM memory WHERE deleted_at IS NULL').get() as {
          n: number;
        }
      ).n;
      return ok(`${live} memories indexed, none missing or stale.`);
    },
    fix({ store }) {
      const n = store.db.transaction(() => ftsRebuild(store.db))();
      return `Rebuilt the full-text index: ${n} memories indexed.`;
    },
  },
  {
    id: 'links.orphans',
    group: 'Indexes',
    title: 'Orphan links',
    run({ store }) {
      const n = (
        store.db
          .prepare(
            `SELECT COUNT(*) AS n FROM link l
              WHERE NOT EXISTS (SELECT 1 FROM memory WHERE rid = l.src)
                 OR NOT EXISTS (SELECT 1 FROM memory WHERE rid = l.dst)`,
          )
          .get() as { n: number }
      ).n;
      if (n > 0) {
        return finding(
          'warn',
          `${n} links point at memories that no longer exist.`,
          'Remove the orphan links (safe: they lead nowhere).',
          true,
        );
      }
      return ok('Every link joins two existing memories.');
    },
    fix({ store }) {
      const n = store.db
        .prepare(
          `DELETE FROM link WHERE NOT EXISTS (SELECT 1 FROM memory WHERE rid = link.src)
              OR NOT EXISTS (SELECT 1 FROM memory WHERE rid = link.dst)`,
        )
        .run().changes;
      return `Removed ${n} orphan links.`;
    },
  },
  {
    id: 'sqlite.wal',
    group: 'Disk',
    title: 'Write-ahead log size',
    run({ store, limits }) {
      const wal = `${store.file}-wal`;
      const size = existsSync(wal) ? statSync(wal).size : 0;
      if (size > limits.walWarnBytes) {
        return finding(
          'warn',
          `The write-ahead log is ${bytes(size)} (more than ${bytes(limits.walWarnBytes)}): a reader may be holding it open.`,
          'Checkpoint the log into the database (safe).',
          true,
        );
      }
      return ok(`The write-ahead log is ${bytes(size)}.`);
    },
    fix({ store }) {
      const [r] = store.db.pragma('wal_checkpoint(TRUNCATE)') as {
        busy: number;
        log: number;
        checkpointed: number;
      }[];
      if (r?.busy) return 'A reader held the log: checkpointed what it could; try again later.';
      return `Checkpointed ${r?.checkpointed ?? 0} pages and truncated the log.`;
    },
  },
  {
    id: 'sqlite.size',
    group: 'Disk',
    title: 'Database size',
    run({ store, limits }) {
      // page_count × page_size: the database as SQLite sees it, including pages still in
      // the write-ahead log (the main file alone lags until a checkpoint).
      const pages = Number(store.db.pragma('page_count', { simple: true }));
      const size = pages * Number(store.db.pragma('page_size', { simple: true }));
      const free = Number(store.db.pragma('freelist_count', { simple: true }));
      const freeShare = pages > 0 ? free / pages : 0;
      const line = `${bytes(size)}, ${Math.round(freeShare * 100)}% free pages`;
      if (size > limits.dbWarnBytes) {
        return finding(
          'warn',
          `The database is ${line}, above ${bytes(limits.dbWarnBytes)}.`,
          'Erase what you no longer need, or split memories into stores; `VACUUM` (Loci stopped) reclaims free pages.',
        );
      }
      return ok(`The database is ${line}.`);
    },
  },
];
