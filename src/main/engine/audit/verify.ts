// Verifies a store's audit chain end to end: every entry's HMAC under its own key, every
// link to the entry before, no gap in the sequence, and (given an anchor) no lost tail.
// A fast pass finds the first position where anything is off (long chains: half of it in
// a worker thread), then that one position is diagnosed. This thread reads in pages and
// yields between them, so other calls wait at most about 30 ms; nothing is written.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { AuditAnchor, AuditBreakReason } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { Db } from '../store/database';
import { GENESIS_HASH } from './chain';
import { keyOf } from '../store/cipher';
import type { AuditKeyring } from './keyring';
import { startRangeWorker } from './verifyHost';
import { checkRange, COLUMNS, KeyedMac, payloadOf, type RawRow } from './verifyRange';

export { KeyedMac } from './verifyRange';

/**
 * payload-changed: the content no longer matches its HMAC (the hash was left as it was);
 * removed: an entry is missing (a gap, or the chain skips one); reordered: authentic but
 * at another position; wrong-key: the hash was recomputed without the store's key;
 * key-missing: signed with a key the key file lacks; truncated: the tail is gone (seen
 * against an anchor); anchor-mismatch: the anchored entry was replaced.
 */
export type BreakReason = AuditBreakReason;

export interface BrokenEntry {
  seq: number;
  reason: BreakReason;
  /** One sentence for a person. */
  detail: string;
}

/** The head of a verified chain, signed so that a forged anchor is recognised. */
export type Anchor = AuditAnchor;

export interface VerifyOutcome {
  ok: boolean;
  checked: number;
  total: number;
  head: { seq: number; hash: string };
  first_broken: BrokenEntry | null;
  duration_ms: number;
}

export interface VerifyOptions {
  anchor?: Anchor | null;
  /** Rows read per page (and between progress reports). */
  pageSize?: number;
  onProgress?: (checked: number, total: number) => void;
  /**
   * Chains of at least this many entries are split in two: the second half is checked
   * by a worker thread while this thread checks the first (default 200,000).
   */
  parallelMin?: number;
}

export function chainHead(db: Db): { seq: number; hash: string; total: number } {
  const head = db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as
    { seq: number; hash: string } | undefined;
  const total = (db.prepare('SELECT COUNT(*) AS n FROM audit').get() as { n: number }).n;
  return { seq: head?.seq ?? 0, hash: head?.hash ?? GENESIS_HASH, total };
}

function anchorText(seq: number, hash: string): string {
  return `loci-anchor:1:${seq}:${hash}`;
}

export function makeAnchor(
  keyring: AuditKeyring,
  store: string,
  head: { seq: number; hash: string },
  now: number,
): Anchor {
  const key_id = keyring.currentId;
  return {
    v: 1,
    store,
    seq: head.seq,
    hash: head.hash,
    key_id,
    at: new Date(now).toISOString(),
    mac: createHmac('sha256', keyring.key(key_id))
      .update(anchorText(head.seq, head.hash))
      .digest('hex'),
  };
}

/** The anchor in one line, to paste into a note or a password manager. */
export function anchorToString(a: Anchor): string {
  return `loci-anchor:1:${a.store}:${a.seq}:${a.hash}:${a.key_id}:${a.mac}:${a.at}`;
}

/** Reads an anchor given as its one-line form or as JSON; throws on anything else. */
export function parseAnchor(text: string): Anchor {
  const trimmed = text.trim();
  const bad = (why: string) =>
    new LociError(
      'invalid-args',
      `That is not a Loci audit anchor (${why}). An anchor looks like loci-anchor:1:<store>:<seq>:<hash>:<key>:<mac>:<time>, or is the JSON \`loci audit verify --json\` prints under "anchor".`,
    );
  let a: Partial<Anchor>;
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as Partial<Anchor> & { anchor?: Partial<Anchor> };
      a = parsed.anchor && typeof parsed.anchor === 'object' ? parsed.anchor : parsed;
    } catch {
      throw bad('the JSON does not parse');
    }
  } else {
    const parts = trimmed.split(':');
    if (parts.length < 8 || parts[0] !== 'loci-anchor' || parts[1] !== '1') {
      throw bad('it does not start with loci-anchor:1');
    }
    a = {
      v: 1,
      store: parts[2],
      seq: Number(parts[3]),
      hash: parts[4],
      key_id: parts[5],
      mac: parts[6],
      at: parts.slice(7).join(':'),
    };
  }
  if (a.v !== 1) throw bad('unknown version');
  if (typeof a.seq !== 'number' || !Number.isInteger(a.seq) || a.seq < 0) throw bad('bad seq');
  if (typeof a.hash !== 'string' || !/^[0-9a-f]{64}$/.test(a.hash)) throw bad('bad hash');
  if (typeof a.mac !== 'string' || !/^[0-9a-f]{64}$/.test(a.mac)) throw bad('bad signature');
  if (typeof a.key_id !== 'string' || a.key_id === '') throw bad('no key id');
  if (typeof a.store !== 'string') throw bad('no store');
  return {
    v: 1,
    store: a.store,
    seq: a.seq,
    hash: a.hash,
    key_id: a.key_id,
    at: typeof a.at === 'string' ? a.at : '',
    mac: a.mac,
  };
}

/** Throws unless the anchor was signed with one of this store's keys. */
export function checkAnchorSignature(keyring: AuditKeyring, anchor: Anchor): void {
  if (!keyring.has(anchor.key_id)) {
    throw new LociError(
      'invalid-args',
      `The anchor was signed with key ${anchor.key_id}, which this store's key file does not hold: it belongs to another store, or the key file was replaced.`,
    );
  }
  const want = createHmac('sha256', keyring.key(anchor.key_id))
    .update(anchorText(anchor.seq, anchor.hash))
    .digest();
  const got = Buffer.from(anchor.mac, 'hex');
  if (got.length !== want.length || !timingSafeEqual(got, want)) {
    throw new LociError(
      'invalid-args',
      'The anchor’s signature does not match: it was edited, or made for another store.',
    );
  }
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export async function verifyChain(
  db: Db,
  keyring: AuditKeyring,
  options: VerifyOptions = {},
): Promise<VerifyOutcome> {
  const started = performance.now();
  const pageSize = options.pageSize ?? 5_000;
  const { seq: headSeq, hash: headHash, total } = chainHead(db);
  const anchor = options.anchor ?? null;
  if (anchor) checkAnchorSignature(keyring, anchor);
  const keys = new Map(keyring.ids().map((id) => [id, keyring.key(id)] as const));

  // Long chains: a worker checks the entries after the split while this thread checks
  // those up to it; the worker starts from the split entry's stored hash, which this
  // thread verifies, so together they check every link exactly as one pass would.
  let split: { seq: number; hash: string } | null = null;
  if (total >= (options.parallelMin ?? 200_000) && !db.memory && headSeq > 1) {
    split =
      (db
        .prepare('SELECT seq, hash FROM audit WHERE seq <= ? ORDER BY seq DESC LIMIT 1')
        .get(Math.floor(headSeq / 2)) as { seq: number; hash: string } | undefined) ?? null;
  }
  let mainChecked = 0;
  let workerChecked = 0;
  const report = () => options.onProgress?.(mainChecked + workerChecked, total);
  const worker = split
    ? startRangeWorker(
        db.name,
        keyOf(db),
        keys,
        { from: split.seq, to: headSeq, prevHash: split.hash, pageSize },
        (checked) => {
          workerChecked = checked;
          report();
        },
      )
    : null;

  /** Checks (from, to] in pages on this thread, yielding between them. */
  const runHere = async (
    from: number,
    to: number,
    prevHash: string,
    count: (n: number) => void,
  ) => {
    let done = 0;
    for (;;) {
      const r = checkRange(db, keys, { from, to, prevHash, pageSize }, { maxRows: pageSize });
      done += r.checked;
      if (r.checked > 0) {
        count(done);
        report();
      }
      if (r.problemAt !== null || r.done) return r.problemAt;
      from = r.lastSeq;
      prevHash = r.lastHash;
      // Let other calls run between pages.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  let problemAt: number | null;
  try {
    problemAt = await runHere(0, split ? split.seq : headSeq, GENESIS_HASH, (n) => {
      mainChecked = n;
    });
    if (problemAt === null && split) {
      const fromWorker = worker ? await worker.result : null;
      problemAt =
        fromWorker !== null
          ? fromWorker.problemAt
          : // The worker could not run (or failed): the second half is checked here.
            await runHere(split.seq, headSeq, split.hash, (n) => {
              workerChecked = n;
            });
    }
  } finally {
    worker?.stop();
  }

  let broken = problemAt === null ? null : diagnose(db, keyring, keys, problemAt);
  if (anchor) {
    // The anchored entry must still be there, unchanged (checked in seq order: a break
    // before it is reported first).
    const mismatch = (): BrokenEntry | null => {
      if (anchor.seq > headSeq) {
        return {
          seq: headSeq + 1,
          reason: 'truncated',
          detail: `The chain ends at entry ${headSeq}, but the anchor of ${anchor.at} saw entry ${anchor.seq}: ${anchor.seq - headSeq} entries at the end were cut off.`,
        };
      }
      if (anchor.seq === 0) return null;
      const row = db.prepare('SELECT hash FROM audit WHERE seq = ?').get(anchor.seq) as
        { hash: string } | undefined;
      if (row && row.hash === anchor.hash) return null;
      return {
        seq: anchor.seq,
        reason: 'anchor-mismatch',
        detail: `Entry ${anchor.seq} is not the entry the anchor of ${anchor.at} recorded: the chain was rebuilt since (by someone holding the key).`,
      };
    };
    if (!broken || anchor.seq < broken.seq) broken = mismatch() ?? broken;
  }
  const checked = broken
    ? (db.prepare('SELECT COUNT(*) AS n FROM audit WHERE seq < ?').get(broken.seq) as { n: number })
        .n
    : total;
  options.onProgress?.(checked, total);
  return {
    ok: broken === null,
    checked,
    total,
    head: { seq: headSeq, hash: headHash },
    first_broken: broken,
    duration_ms: Math.round(performance.now() - started),
  };
}

/** Why the chain breaks at `position` (the first place the fast pass found wrong). */
function diagnose(
  db: Db,
  keyring: AuditKeyring,
  keys: ReadonlyMap<string, Buffer>,
  position: number,
): BrokenEntry {
  const prevHash =
    position === 1
      ? GENESIS_HASH
      : ((
          db.prepare('SELECT hash FROM audit WHERE seq = ?').get(position - 1) as
            { hash: string } | undefined
        )?.hash ?? GENESIS_HASH);
  const r = db
    .prepare(`SELECT ${COLUMNS} FROM audit WHERE seq >= ? ORDER BY seq LIMIT 1`)
    .raw()
    .get(position) as RawRow | undefined;
  if (!r || r[0] !== position) {
    const next = r?.[0];
    return {
      seq: position,
      reason: 'removed',
      detail:
        next === undefined || next - position === 1
          ? `Entry ${position} is missing.`
          : `Entries ${position}–${next - 1} are missing.`,
    };
  }
  const key = keys.get(r[8]);
  if (key && r[6] !== prevHash && new KeyedMac(key).hex(payloadOf(r)) === r[7]) {
    // Authentic, but the entry before it is not the one it was written after.
    return {
      seq: position - 1,
      reason: 'removed',
      detail: `The entry before ${position} is not the one ${position} was written after: an entry was replaced or removed.`,
    };
  }
  return classify(db, keyring, keys, r, position);
}

function classify(
  db: Db,
  keyring: AuditKeyring,
  keys: ReadonlyMap<string, Buffer>,
  r: RawRow,
  position: number,
): BrokenEntry {
  const macFor = (id: string) => {
    const key = keys.get(id);
    return key ? new KeyedMac(key) : null;
  };
  const mac = macFor(r[8]);
  if (!mac) {
    return {
      seq: position,
      reason: 'key-missing',
      detail: `Entry ${position} was signed with key ${r[8]}, which the key file no longer holds; it and the entries before the key was lost cannot be checked.`,
    };
  }
  // Authentic at another position? Then it was moved (or the entries before it removed
  // and the rest renumbered).
  const candidates = new Set<number>();
  for (let d = 1; d <= 64; d++) {
    candidates.add(position + d);
    if (position - d >= 1) candidates.add(position - d);
  }
  const pred = db.prepare('SELECT seq FROM audit WHERE hash = ?').get(r[6]) as
    { seq: number } | undefined;
  if (pred) candidates.add(pred.seq + 1);
  if (r[6] === GENESIS_HASH) candidates.add(1);
  for (const s of candidates) {
    if (s !== position && mac.hex(payloadOf(r, s)) === r[7]) {
      if (pred || r[6] === GENESIS_HASH) {
        return {
          seq: position,
          reason: 'reordered',
          detail: `Entry ${position} holds the entry written as number ${s}: entries were moved.`,
        };
      }
      return {
        seq: position,
        reason: 'removed',
        detail: `Entry ${position} holds the entry written as number ${s}, and the entry it followed is gone: entries were removed and the rest renumbered.`,
      };
    }
  }
  const payload = payloadOf(r);
  const otherKey = keyring
    .ids()
    .some((id) => id !== r[8] && new KeyedMac(keyring.key(id)).hex(payload) === r[7]);
  const next = db
    .prepare(`SELECT ${COLUMNS} FROM audit WHERE seq = ?`)
    .raw()
    .get(position + 1) as RawRow | undefined;
  const nextMac = next ? macFor(next[8]) : null;
  const hashRewritten =
    sha256Hex(payload) === r[7] ||
    otherKey ||
    (next !== undefined &&
      (next[6] !== r[7] || (nextMac !== null && nextMac.hex(payloadOf(next)) !== next[7])));
  if (hashRewritten) {
    return {
      seq: position,
      reason: 'wrong-key',
      detail: `Entry ${position}'s hash was recomputed without this store's key: its content was changed and the chain re-hashed to hide it.`,
    };
  }
  return {
    seq: position,
    reason: 'payload-changed',
    detail: `Entry ${position} was changed after it was written (its content no longer matches its signature).`,
  };
}
