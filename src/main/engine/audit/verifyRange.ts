// The hot loop of audit verification, shared by the main thread and the verify worker:
// walks entries (from, to] in seq order and returns the first position where anything
// is off (a gap, an unknown key, a broken link or HMAC). Why it is off is worked out
// afterwards, once, by verify.ts; this loop only has to be fast. Reads only.
import { createHmac } from 'node:crypto';
import type { Database } from 'better-sqlite3-multiple-ciphers';
import { entryPayloadWithData } from './chain';

export type RawRow = [
  seq: number,
  at: number,
  actor: string,
  action: string,
  target: string | null,
  data: string,
  prev_hash: string,
  hash: string,
  key_id: string,
];

export const COLUMNS = 'seq, at, actor, action, target, data, prev_hash, hash, key_id';

export function payloadOf(r: RawRow, seq = r[0]): string {
  return entryPayloadWithData(
    { seq, at: r[1], actor: r[2], action: r[3], target: r[4], prev_hash: r[6] },
    r[5],
  );
}

/**
 * HMAC-SHA256 under one key. Measured on Node 20 (scripts/bench/audit.ts and a micro
 * benchmark): a fresh `createHmac` per entry (~2.5 µs) is about twice as fast as
 * hashing the key's pads once and `Hash.copy()`-ing them per entry (~5 µs), so the
 * plain form is used.
 */
export class KeyedMac {
  constructor(private readonly key: Buffer) {}

  hex(text: string): string {
    return createHmac('sha256', this.key).update(text, 'utf8').digest('hex');
  }
}

export interface RangeSpec {
  /** Entries after this seq… */
  from: number;
  /** …up to and including this one. */
  to: number;
  /** The hash of entry `from` (the genesis hash when from is 0). */
  prevHash: string;
  pageSize: number;
}

export interface RangeResult {
  /** Entries that passed before the problem (all those read when none). */
  checked: number;
  /** The first position (seq) where something is off, or null. */
  problemAt: number | null;
  /** The last entry that passed (the range's start when none did). */
  lastSeq: number;
  lastHash: string;
  /** No entry of the range is left to read. */
  done: boolean;
}

/**
 * Checks entries after `spec.from` up to `spec.to`, at most `maxRows` of them (then
 * `done` is false and the caller continues from `lastSeq`).
 */
export function checkRange(
  db: Database,
  keys: ReadonlyMap<string, Buffer>,
  spec: RangeSpec,
  options: { maxRows?: number; onPage?: (checked: number) => void } = {},
): RangeResult {
  const page = db
    .prepare(`SELECT ${COLUMNS} FROM audit WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?`)
    .raw();
  const macs = new Map<string, KeyedMac>();
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  let prev = spec.prevHash;
  let last = spec.from;
  let checked = 0;
  const stop = (problemAt: number | null, done: boolean): RangeResult => ({
    checked,
    problemAt,
    lastSeq: last,
    lastHash: prev,
    done,
  });
  for (;;) {
    const limit = Math.min(spec.pageSize, maxRows - checked);
    if (limit <= 0) return stop(null, false);
    const rows = page.all(last, spec.to, limit) as RawRow[];
    if (rows.length === 0) return stop(null, true);
    for (const r of rows) {
      if (r[0] !== last + 1) return stop(last + 1, false);
      let mac = macs.get(r[8]);
      if (!mac) {
        const key = keys.get(r[8]);
        if (!key) return stop(r[0], false);
        mac = new KeyedMac(key);
        macs.set(r[8], mac);
      }
      if (r[6] !== prev || mac.hex(payloadOf(r)) !== r[7]) return stop(r[0], false);
      prev = r[7];
      last = r[0];
      checked++;
    }
    options.onPage?.(checked);
  }
}
