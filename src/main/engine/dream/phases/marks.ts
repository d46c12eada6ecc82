// Per-store watermarks of the dream phases (in store_setting), so a phase looks only at
// what happened since it last applied.
import type { Db } from '../../store/database';
import { stmt } from '../../store/statements';

export function getWatermark(db: Db, name: string): number {
  const row = stmt(db, 'SELECT value FROM store_setting WHERE key = ?').get(`dream.${name}`) as
    { value: string } | undefined;
  return row ? (JSON.parse(row.value) as number) : 0;
}

export function setWatermark(db: Db, name: string, value: number, now: number): void {
  stmt(
    db,
    `INSERT INTO store_setting (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(`dream.${name}`, JSON.stringify(value), now);
}

export function getJson<T>(db: Db, name: string): T | null {
  const row = stmt(db, 'SELECT value FROM store_setting WHERE key = ?').get(`dream.${name}`) as
    { value: string } | undefined;
  return row ? (JSON.parse(row.value) as T) : null;
}

export function setJson(db: Db, name: string, value: unknown, now: number): void {
  stmt(
    db,
    `INSERT INTO store_setting (key, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  ).run(`dream.${name}`, JSON.stringify(value), now);
}
