// The append-only audit chain: one row per mutation, each carrying the hash of the one
// before it and an HMAC over its canonical JSON (RFC 8785) under a key kept outside the
// database. Rows hold keyed hashes of what changed, never the text itself, so an erased
// memory leaves a tombstone that cannot be used to confirm a guess of its content.
import { createHmac } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { DreamPhaseName } from '../../../shared/api';
import type { Db } from '../store/database';
import type { AuditKeyring } from './keyring';

export const GENESIS_HASH = '0'.repeat(64);

/**
 * The triggers that make the audit table append-only. Anyone with write access to the
 * file can drop them; the store's start-up puts them back (and says so in the chain),
 * and the doctor checks them.
 */
export const AUDIT_TRIGGERS: Record<string, string> = {
  audit_no_delete: `CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
    BEGIN SELECT RAISE(ABORT, 'audit rows are append-only'); END;`,
  audit_no_update: `CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
    BEGIN SELECT RAISE(ABORT, 'audit rows are append-only'); END;`,
};

/** The append-only triggers missing from this database, sorted by name. */
export function missingAuditTriggers(db: Db): string[] {
  const present = new Set(
    (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit'")
        .all() as { name: string }[]
    ).map((r) => r.name),
  );
  return Object.keys(AUDIT_TRIGGERS)
    .filter((name) => !present.has(name))
    .sort();
}

/**
 * Re-creates missing append-only triggers and records that in the chain, in one
 * transaction. Returns the names restored (none: nothing was written).
 */
export function restoreAuditTriggers(
  db: Db,
  chain: AuditChain,
  actor: string,
  at: number,
): string[] {
  const missing = missingAuditTriggers(db);
  if (missing.length === 0) return [];
  db.transaction(() => {
    for (const name of missing) db.exec(AUDIT_TRIGGERS[name] as string);
    chain.append(
      {
        actor,
        action: 'audit.triggers_restored',
        target: null,
        data: {
          restored: missing,
          reason:
            'the append-only triggers were missing from the database: someone changed the file outside Loci',
        },
      },
      at,
    );
  })();
  return missing;
}

export type AuditAction =
  | 'memory.create'
  | 'memory.update'
  | 'memory.forget'
  | 'memory.restore'
  | 'memory.erase'
  | 'memory.promote'
  | 'memory.redact'
  | 'memory.reveal'
  | 'link.create'
  | 'link.update'
  | 'link.remove'
  | 'procedure.outcome'
  | 'store.create'
  | 'store.rename'
  | 'store.import'
  | 'store.encrypt'
  | 'store.decrypt'
  | 'store.rekey'
  | 'store.unlock'
  | 'access.denied'
  | 'audit.key_created'
  | 'audit.key_rotated'
  | 'audit.triggers_restored'
  | 'ingest.batch'
  | 'ingest.undo'
  | 'ingest.redo'
  | `dream.${DreamPhaseName}`
  | 'dream.cycle'
  | 'review.propose'
  | 'review.accept'
  | 'review.reject'
  | 'transcript.import'
  | 'journal.sampled'
  | 'journal.distilled'
  | 'conflict.detect'
  | 'conflict.resolve'
  | 'conflict.reopen'
  | 'sync.connect'
  | 'sync.leave'
  | 'sync.apply';

export interface AuditEntryInput {
  actor: string;
  action: AuditAction;
  target: string | null;
  data: Record<string, unknown>;
}

/**
 * An entry whose data is already written in canonical JSON (RFC 8785): the exact bytes
 * canonicalJson(data) gives, which its writer guarantees (a batch of writes makes
 * thousands, and canonicalising each object again costs more than writing it directly).
 */
export interface CanonicalAuditEntry extends Omit<AuditEntryInput, 'data'> {
  dataJson: string;
}

export interface AuditRow {
  seq: number;
  at: number;
  actor: string;
  action: string;
  target: string | null;
  data: string;
  prev_hash: string;
  hash: string;
  key_id: string;
}

export function canonicalJson(value: unknown): string {
  const out = canonicalize(value);
  if (out === undefined) throw new Error('value cannot be canonicalised');
  return out;
}

/**
 * The exact bytes an entry's HMAC covers: the canonical JSON (RFC 8785) of
 * { v: 1, seq, at, actor, action, target, data, prev }. Changing this breaks every
 * existing chain.
 */
export function entryPayload(
  row: Omit<AuditRow, 'hash' | 'key_id' | 'data'> & { data: unknown },
): string {
  return entryPayloadWithData(row, canonicalJson(row.data));
}

/**
 * The same bytes, from data already in canonical JSON (the write path has it anyway):
 * the keys written in canonical order, each value as RFC 8785 writes it (strings and
 * integers exactly as JSON.stringify does).
 */
export function entryPayloadWithData(
  row: Omit<AuditRow, 'hash' | 'key_id' | 'data'>,
  dataJson: string,
): string {
  const j = JSON.stringify;
  return `{"action":${j(row.action)},"actor":${j(row.actor)},"at":${j(row.at)},"data":${dataJson},"prev":${j(row.prev_hash)},"seq":${j(row.seq)},"target":${j(row.target)},"v":1}`;
}

export function hmacHex(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

export class AuditChain {
  private readonly head;
  private readonly insert;

  constructor(
    private readonly db: Db,
    private readonly keyring: AuditKeyring,
  ) {
    this.head = db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1');
    this.insert = db.prepare(
      `INSERT INTO audit (seq, at, actor, action, target, data, prev_hash, hash, key_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** A keyed hash of a value (a memory's state, a text), safe to keep after an erase. */
  fingerprint(value: unknown): string {
    return hmacHex(
      this.keyring.currentKey(),
      typeof value === 'string' ? value : canonicalJson(value),
    );
  }

  /**
   * Appends one entry. Call inside the transaction of the mutation it records, so the
   * change and its audit row commit (or roll back) together.
   */
  append(entry: AuditEntryInput, at: number): AuditRow {
    return this.appendAll([entry], at)[0] as AuditRow;
  }

  /**
   * Appends entries in order, all at `at`, reading the chain's head once (a batch of
   * writes records each of its mutations). Inside the mutations' transaction, as append.
   */
  appendAll(entries: readonly AuditEntryInput[], at: number): AuditRow[] {
    const rows: AuditRow[] = [];
    this.appendCanonical(
      entries.map((e) => ({
        actor: e.actor,
        action: e.action,
        target: e.target,
        dataJson: canonicalJson(e.data),
      })),
      at,
      (row) => rows.push(row),
    );
    return rows;
  }

  /**
   * appendAll for entries whose data is canonical JSON already; `written` sees each row
   * (a batch of new memories needs none of them back).
   */
  appendCanonical(
    entries: readonly CanonicalAuditEntry[],
    at: number,
    written?: (row: AuditRow) => void,
  ): void {
    if (entries.length === 0) return;
    const last = this.head.get() as { seq: number; hash: string } | undefined;
    let seq = last?.seq ?? 0;
    let prev = last?.hash ?? GENESIS_HASH;
    const key = this.keyring.currentKey();
    const keyId = this.keyring.currentId;
    for (const entry of entries) {
      const base = {
        seq: ++seq,
        at,
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        prev_hash: prev,
      };
      const data = entry.dataJson;
      const hash = hmacHex(key, entryPayloadWithData(base, data));
      this.insert.run(base.seq, at, base.actor, base.action, base.target, data, prev, hash, keyId);
      prev = hash;
      written?.({ ...base, data, hash, key_id: keyId });
    }
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM audit').get() as { n: number }).n;
  }
}
