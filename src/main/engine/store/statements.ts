// A per-connection cache of prepared statements keyed by their SQL, so hot paths
// prepare each statement once without every module keeping its own cache.
import type Database from 'better-sqlite3-multiple-ciphers';
import type { Db } from './database';

type Statement = Database.Statement<unknown[], unknown>;

const caches = new WeakMap<Db, Map<string, Statement>>();

export function stmt(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let s = cache.get(sql);
  if (!s) {
    s = db.prepare<unknown[], unknown>(sql);
    cache.set(sql, s);
  }
  return s;
}

/** Forgets the connection's prepared statements (they are prepared again on next use). */
export function clearStatements(db: Db): void {
  caches.delete(db);
}
