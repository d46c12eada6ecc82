// Where the last verification of a store's chain is remembered: its anchor (the head it
// saw) and its verdict, in the store's folder beside (not inside) the database, so that a
// later verify notices a cut-off tail even when the user kept no anchor of their own.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Anchor, BrokenEntry } from './verify';

export const ANCHOR_FILE = 'audit-anchor.json';

export interface LastVerify {
  /** The anchor of the last verification that passed (the one later runs check against). */
  anchor: Anchor | null;
  /** The last verification, passed or not. */
  last: {
    at: string;
    ok: boolean;
    checked: number;
    first_broken: BrokenEntry | null;
  } | null;
}

export function anchorPath(storeDir: string): string {
  return join(storeDir, ANCHOR_FILE);
}

export function readLastVerify(storeDir: string): LastVerify {
  const file = anchorPath(storeDir);
  if (!existsSync(file)) return { anchor: null, last: null };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LastVerify>;
    return { anchor: parsed.anchor ?? null, last: parsed.last ?? null };
  } catch {
    // A damaged record only loses the memory of the last run; the chain itself is intact.
    return { anchor: null, last: null };
  }
}

export function writeLastVerify(storeDir: string, record: LastVerify): void {
  const file = anchorPath(storeDir);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(record, null, 2), { mode: 0o600 });
  renameSync(tmp, file);
}
