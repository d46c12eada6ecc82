// Encrypting, decrypting and re-keying one store, and finishing a change a crash cut
// short. Every step leaves a state the next open understands:
//
//   encrypt (plain → K) and rekey (K1 → K2):
//     1. the new key is kept in the `pending` slot (keys.ts) and named in encryption.json;
//     2. the database is copied under the new key beside itself and checked (crypt.ts);
//     3. the copy is renamed over the file (atomic);
//     4. the audit keyring is sealed under the new key;
//     5. every backup is re-encrypted under the new key, one atomic rename each;
//     6. the pending key becomes the current one and the old key is gone.
//   decrypt (K → plain): encryption.json says `decrypting`, then 2–5 with no key, then
//     the descriptor and the keys go.
//
// An open that finds the file under the pending key (a crash after 3) does 4–6; one that
// finds it under the current key with a pending one (a crash before 3) drops the pending
// key; a plain file with `decrypting` finishes the decryption.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LociError } from '../../../shared/errors';
import { AuditKeyring } from '../audit/keyring';
import { backupsDir } from './backup';
import Database from 'better-sqlite3-multiple-ciphers';
import { applyKey, fileHeader, keyCheck } from './cipher';
import { reencryptFile, removeDatabaseFiles } from './crypt';
import type { EncryptionChangeResult, EncryptionStatus } from '../../../shared/api';
import type { EngineEvents } from '../events';
import { backupDatabase } from './backup';
import type { KeySource, KeyVault } from './keys';
import type { OpenStore, StoreRegistry } from './registry';
import { sqliteBindingOptions } from './native';
import { storeDir, STORE_FILE } from './paths';

export interface CryptProgress {
  phase: 'database' | 'backups';
  /** Rows copied (database), files done (backups). */
  done: number;
  total: number;
  detail?: string;
}

/** Database copies that belong to a store: its backups and files set aside by a restore. */
export function storeCopies(dataDir: string, store: string): string[] {
  const out: string[] = [];
  const dir = backupsDir(dataDir, store);
  if (existsSync(dir)) {
    for (const f of readdirSync(dir).sort()) if (f.endsWith('.db')) out.push(join(dir, f));
  }
  const sdir = storeDir(dataDir, store);
  if (existsSync(sdir)) {
    for (const f of readdirSync(sdir).sort()) {
      if (/^loci\.db\.before-restore-[^.]+$/.test(f)) out.push(join(sdir, f));
    }
  }
  return out;
}

/**
 * Re-encrypts every copy of a store under `to` (null: plain). Each copy is opened with
 * whichever of `from` works (a plain one needs none); a copy already under `to` is left
 * as it is; one that opens with none is reported, never touched.
 */
export async function reencryptCopies(
  dataDir: string,
  store: string,
  from: readonly Buffer[],
  to: Buffer | null,
  onProgress: (p: CryptProgress) => void = () => undefined,
): Promise<{ changed: string[]; skipped: { path: string; reason: string }[] }> {
  const files = storeCopies(dataDir, store);
  const changed: string[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const toCheck = to ? keyCheck(to) : null;
  for (const [i, file] of files.entries()) {
    onProgress({ phase: 'backups', done: i, total: files.length, detail: file });
    rmSync(`${file}.rekeying`, { force: true });
    const header = fileHeader(file);
    if (header === 'empty') continue;
    if (header === 'plain' && to === null) continue;
    const tries: (Buffer | null)[] =
      header === 'plain' ? [null] : from.filter((k) => keyCheck(k) !== toCheck);
    if (header === 'opaque' && to && tryOpens(file, to)) continue;
    let done = false;
    for (const key of tries) {
      try {
        await reencryptFile(file, key, to);
        changed.push(file);
        done = true;
        break;
      } catch (err) {
        if (!(err instanceof LociError && err.code === 'wrong-key')) {
          skipped.push({ path: file, reason: (err as Error).message });
          done = true;
          break;
        }
      }
    }
    if (!done) skipped.push({ path: file, reason: 'it opens with none of the keys of this store' });
  }
  onProgress({ phase: 'backups', done: files.length, total: files.length });
  return { changed, skipped };
}

/** Whether a database file opens under a key (a cheap read of its schema). */
export function tryOpens(file: string, key: Buffer | null): boolean {
  try {
    const db = new Database(file, {
      readonly: true,
      fileMustExist: true,
      ...sqliteBindingOptions(),
    });
    try {
      applyKey(db, key);
      db.prepare('SELECT count(*) FROM sqlite_schema').get();
      return true;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** The audit keyring opened with whichever store key seals it, then sealed with `want`. */
export function settleKeyring(
  dataDir: string,
  store: string,
  want: Buffer | null,
  others: readonly Buffer[],
): AuditKeyring {
  const sealed = AuditKeyring.isSealed(dataDir, store);
  if (sealed === true) {
    const tries = [want, ...others].filter((k): k is Buffer => k !== null);
    for (const key of tries) {
      try {
        const ring = AuditKeyring.loadOrCreate(dataDir, store, key);
        if (key === want) return ring;
        AuditKeyring.reseal(dataDir, store, key, want);
        return AuditKeyring.loadOrCreate(dataDir, store, want);
      } catch (err) {
        if (!(
          err instanceof LociError &&
          (err.code === 'wrong-key' || err.code === 'key-required')
        ))
          throw err;
      }
    }
    throw new LociError(
      'wrong-key',
      `The audit key file of store "${store}" is sealed with a key this store no longer has.`,
      { store },
    );
  }
  if (sealed === false && want) AuditKeyring.reseal(dataDir, store, null, want);
  return AuditKeyring.loadOrCreate(dataDir, store, want);
}

/**
 * After a store opened with `dbKey`: finishes or drops a change a crash interrupted.
 * `others` are the store's other reachable keys.
 */
export async function settleAfterOpen(
  vault: KeyVault,
  dataDir: string,
  store: string,
  dbKey: Buffer | null,
  others: readonly Buffer[],
): Promise<void> {
  const d = vault.descriptor(store);
  if (!d) return;
  const file = join(storeDir(dataDir, store), STORE_FILE);
  removeDatabaseFiles(`${file}.rekeying`);
  if (dbKey === null) {
    if (d.decrypting) {
      await reencryptCopies(dataDir, store, others, null);
      await vault.forgetStore(store);
    } else if (!d.current) {
      await vault.dropPending(store);
    }
    return;
  }
  const check = keyCheck(dbKey);
  if (d.pending?.check === check) {
    await reencryptCopies(dataDir, store, others, dbKey);
    await vault.promotePending(store);
  } else if (d.pending) {
    await vault.dropPending(store);
  }
}

// ------------------------------------------------------------------ the changes

export type CryptOp = 'encrypt' | 'decrypt' | 'rekey';

/** What a change needs of the engine: the registry, the store gate, events, the clock. */
export interface CryptHost {
  readonly dataDir: string;
  readonly registry: StoreRegistry;
  readonly events: EngineEvents;
  now(): number;
  store(name: string | undefined): Promise<OpenStore>;
  /** Runs `fn` with the store closed; calls for it wait and then open what `fn` left. */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/** A store's encryption as the API shows it. */
export async function encryptionStatus(
  registry: StoreRegistry,
  store: string,
): Promise<EncryptionStatus> {
  const vault = registry.vault;
  const d = vault.descriptor(store);
  const file = join(storeDir(registry.dataDir, store), STORE_FILE);
  const encrypted = fileHeader(file) === 'opaque' && !!d;
  const record = d?.current ?? null;
  let unlocked = !encrypted;
  if (encrypted) unlocked = await vault.reachable(store);
  return {
    store,
    encrypted,
    cipher: encrypted ? 'chacha20' : null,
    source: encrypted ? (record?.source ?? d?.pending?.source ?? null) : null,
    unlocked,
    since: encrypted ? (record?.created_at ?? null) : null,
    pending: !!d?.pending || !!d?.decrypting,
    sources: await vault.availableSources(),
  };
}

/**
 * Encrypts, re-keys or decrypts one store in place: an online backup first, then the
 * steps at the top of this file with the store closed (calls for it wait), then an
 * audit entry in the store's chain. Progress goes out as `store.crypt.progressed`.
 */
export async function changeEncryption(
  host: CryptHost,
  storeName: string | undefined,
  op: CryptOp,
  options: { source?: KeySource; passphrase?: string; actor: string },
): Promise<EncryptionChangeResult> {
  const started = Date.now();
  const name = host.registry.resolve(storeName);
  const vault = host.registry.vault;
  const emit = (phase: 'backup' | 'database' | 'backups' | 'done', done: number, total: number) =>
    host.events.emit('store.crypt.progressed', { store: name, op, phase, done, total });

  // The store as it is now (this also finishes a change a crash interrupted).
  const before = await host.store(name);
  const encrypted = before.key !== null;
  if (op === 'encrypt' && encrypted) {
    throw new LociError(
      'conflict',
      `Store "${name}" is encrypted already; \`loci rekey${name === 'default' ? '' : ` ${name}`}\` gives it a new key.`,
      { store: name },
    );
  }
  if (op !== 'encrypt' && !encrypted) {
    throw new LociError('conflict', `Store "${name}" is not encrypted.`, { store: name });
  }
  const source = options.source ?? (op === 'decrypt' ? undefined : await vault.defaultSource());
  if (source === 'passphrase' && !options.passphrase) {
    throw new LociError(
      'invalid-args',
      'A passphrase key needs the passphrase: give it (LOCI_PASSPHRASE or the prompt).',
    );
  }
  if (source && source !== 'passphrase' && options.passphrase) {
    throw new LociError(
      'invalid-args',
      `A passphrase is only for source "passphrase", not "${source}".`,
    );
  }

  // 1. An online backup, under the store's key as it is now.
  emit('backup', 0, 1);
  const stamp = new Date(host.now()).toISOString().replace(/[:.]/g, '-');
  let to = join(backupsDir(host.dataDir, name), `pre-${op}-${stamp}.db`);
  for (let i = 2; existsSync(to); i++)
    to = join(backupsDir(host.dataDir, name), `pre-${op}-${stamp}-${i}.db`);
  const backup = await backupDatabase(before.db, {
    dataDir: host.dataDir,
    store: name,
    to,
    now: host.now(),
  });
  emit('backup', 1, 1);

  const result = await host.exclusive(name, async () => {
    const file = join(storeDir(host.dataDir, name), STORE_FILE);
    const from = before.key;
    const known = from ? [from] : [];
    let to: Buffer | null = null;
    if (op === 'decrypt') vault.markDecrypting(name);
    else to = (await vault.createPending(name, source as KeySource, options.passphrase)).key;
    let rows = 0;
    try {
      await reencryptFile(file, from, to, (p) => {
        rows = p.done;
        emit('database', p.done, p.total);
      });
    } catch (err) {
      // Nothing was replaced: the pending key (or the decrypting mark) goes.
      if (op === 'decrypt') {
        const d = vault.descriptor(name);
        if (d) vault.writeDescriptor(name, { ...d, decrypting: false });
      } else await vault.dropPending(name);
      throw err;
    }
    settleKeyring(host.dataDir, name, to, known);
    const copies = await reencryptCopies(host.dataDir, name, known, to, (p) =>
      emit('backups', p.done, p.total),
    );
    if (to) await vault.promotePending(name);
    else await vault.forgetStore(name);
    return { rows, copies };
  });

  const store = await host.store(name);
  store.db.transaction(() =>
    store.audit.append(
      {
        actor: options.actor,
        action: `store.${op}`,
        target: null,
        data: {
          cipher: op === 'decrypt' ? null : 'chacha20',
          source: source ?? null,
          backup: backup.path,
          copies_changed: result.copies.changed.length,
          copies_skipped: result.copies.skipped.length,
        },
      },
      host.now(),
    ),
  )();
  emit('done', 1, 1);
  return {
    ...(await encryptionStatus(host.registry, name)),
    backup: backup.path,
    rows: result.rows,
    copies: { changed: result.copies.changed.length, skipped: result.copies.skipped },
    took_ms: Date.now() - started,
  };
}
