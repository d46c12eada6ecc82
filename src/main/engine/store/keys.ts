// Where each encrypted store's key lives, and how it is found again. A store's
// `encryption.json` (beside its database, no secret in it) says where its key is kept
// and carries a check value, so that a wrong key is refused by name before SQLite ever
// sees it, and never mistaken for a damaged file.
//
// Sources, in the order a new store key picks them:
// - `keychain`: the desktop app seals the key with Electron's safeStorage (the macOS
//   Keychain, Windows DPAPI, the Secret Service or kwallet on Linux);
// - `keyring`: headless, the OS keyring when one is reachable (@napi-rs/keyring; on
//   Linux only the Secret Service, since the kernel keyring forgets on reboot);
// - `keyfile`: a file in the data directory's keys/ folder readable by the user only;
// - `passphrase` (asked for): nothing is stored; scrypt turns the passphrase into the
//   key, from `LOCI_PASSPHRASE`, a prompt on the terminal, or `loci unlock`.
//
// A key being replaced (`rekey`, `encrypt`) is kept in a `pending` slot until the new
// database is in place, so a crash at any point leaves a key that opens the file.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { LociError } from '../../../shared/errors';
import { KEY_BYTES, keyCheck } from './cipher';
import {
  DEFAULT_SCRYPT_N,
  deriveKey,
  ENCRYPTION_FILE,
  probeOsKeyring,
  SCRYPT_P,
  SCRYPT_R,
  type EncryptionDescriptor,
  type Keyring,
  type KeyRecord,
  type KeySource,
  type KeyVaultOptions,
  type ScryptParams,
  type SecretBox,
  type Slot,
} from './keySources';
import { keysDir, storeDir } from './paths';
import { writePrivateFile } from './privateFile';

export {
  DEFAULT_SCRYPT_N,
  deriveKey,
  ENCRYPTION_FILE,
  KEY_SOURCES,
  probeOsKeyring,
  type EncryptionDescriptor,
  type Keyring,
  type KeyRecord,
  type KeySource,
  type KeyVaultOptions,
  type ScryptParams,
  type SecretBox,
} from './keySources';

export class KeyVault {
  private readonly env: Record<string, string | undefined>;
  private keyringProbe: Promise<Keyring | null> | null;
  /** Keys found this session, by store and check value (the passphrase is never kept). */
  private readonly cache = new Map<string, Buffer>();

  constructor(
    readonly dataDir: string,
    private readonly options: KeyVaultOptions = {},
  ) {
    this.env = options.env ?? process.env;
    this.keyringProbe =
      options.keyring === undefined ? null : Promise.resolve(options.keyring ?? null);
  }

  // ---------------------------------------------------------------- the descriptor

  descriptorPath(store: string): string {
    return join(storeDir(this.dataDir, store), ENCRYPTION_FILE);
  }

  descriptor(store: string): EncryptionDescriptor | null {
    const file = this.descriptorPath(store);
    if (!existsSync(file)) return null;
    let d: EncryptionDescriptor;
    try {
      d = JSON.parse(readFileSync(file, 'utf8')) as EncryptionDescriptor;
    } catch {
      throw new LociError(
        'environment',
        `${file} cannot be read; it says how store "${store}" is encrypted. Restore it from a copy: Loci will not guess.`,
        { store },
      );
    }
    if (d.version !== 1 || d.cipher !== 'chacha20') {
      throw new LociError('environment', `${file} is not in a format this Loci understands.`, {
        store,
      });
    }
    return d;
  }

  writeDescriptor(store: string, d: EncryptionDescriptor | null): void {
    const file = this.descriptorPath(store);
    if (d === null) {
      rmSync(file, { force: true });
      return;
    }
    writePrivateFile(file, JSON.stringify(d, null, 2));
  }

  // ---------------------------------------------------------------- sources

  private keyring(): Promise<Keyring | null> {
    this.keyringProbe ??= probeOsKeyring();
    return this.keyringProbe;
  }

  /** The OS's secret stores this process reaches (sync/credentials.ts keeps hub passwords there). */
  async secretStores(): Promise<{ box: SecretBox | null; keyring: Keyring | null }> {
    const box = this.options.secretBox?.available() ? this.options.secretBox : null;
    return { box, keyring: await this.keyring() };
  }

  /** Where a new key goes when the person does not say: the safest source reachable. */
  async defaultSource(): Promise<KeySource> {
    if (this.options.secretBox?.available()) return 'keychain';
    if (await this.keyring()) return 'keyring';
    return 'keyfile';
  }

  /** Which sources this process can use now (passphrase always). */
  async availableSources(): Promise<KeySource[]> {
    const out: KeySource[] = [];
    if (this.options.secretBox?.available()) out.push('keychain');
    if (await this.keyring()) out.push('keyring');
    out.push('keyfile', 'passphrase');
    return out;
  }

  private keyFile(store: string, slot: Slot): string {
    return join(keysDir(this.dataDir), `${store}.${slot}.dbkey`);
  }

  private sealedFile(store: string, slot: Slot): string {
    return join(keysDir(this.dataDir), `${store}.${slot}.dbkey.sealed`);
  }

  private account(store: string, slot: Slot): string {
    // One data directory's stores apart from another's on the same keyring.
    const dir = createHash('sha256').update(this.dataDir).digest('hex').slice(0, 12);
    return `${dir}/${store}/${slot}`;
  }

  private writePrivate(file: string, data: string | Buffer): void {
    mkdirSync(keysDir(this.dataDir), { recursive: true, mode: 0o700 });
    writePrivateFile(file, data);
  }

  /** Keeps a key in a slot of its source; returns its record. */
  private async put(
    store: string,
    slot: Slot,
    source: KeySource,
    key: Buffer,
    kdf?: ScryptParams,
  ): Promise<KeyRecord> {
    const hex = key.toString('hex');
    if (source === 'keyfile') this.writePrivate(this.keyFile(store, slot), `${hex}\n`);
    else if (source === 'keychain') {
      const box = this.options.secretBox;
      if (!box?.available()) {
        throw new LociError(
          'environment',
          "The OS keychain is not reachable from this process (it is the desktop app's); choose keyfile, keyring or passphrase.",
        );
      }
      this.writePrivate(this.sealedFile(store, slot), box.encrypt(hex));
    } else if (source === 'keyring') {
      const keyring = await this.keyring();
      if (!keyring) {
        throw new LociError(
          'environment',
          'No OS keyring answers on this machine (on Linux Loci needs the Secret Service); choose keyfile or passphrase.',
        );
      }
      keyring.set(this.account(store, slot), hex);
    }
    const record: KeyRecord = {
      source,
      check: keyCheck(key),
      created_at: new Date().toISOString(),
    };
    if (kdf) record.kdf = kdf;
    this.cache.set(`${store}:${record.check}`, key);
    return record;
  }

  /** Reads a stored key of a slot; null when it is not there. */
  private async read(
    store: string,
    slot: Slot,
    record: KeyRecord,
    ask = true,
  ): Promise<Buffer | null> {
    const cached = this.cache.get(`${store}:${record.check}`);
    if (cached) return cached;
    let hex: string | null = null;
    if (record.source === 'keyfile') {
      const file = this.keyFile(store, slot);
      if (!existsSync(file)) return null;
      if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
        throw new LociError(
          'environment',
          `The key file ${file} of store "${store}" can be read by other users; Loci will not use it until only you can (chmod 600 "${file}").`,
          { store, path: file },
        );
      }
      hex = readFileSync(file, 'utf8').trim();
    } else if (record.source === 'keychain') {
      const file = this.sealedFile(store, slot);
      const box = this.options.secretBox;
      if (!existsSync(file) || !box?.available()) return null;
      try {
        hex = box.decrypt(readFileSync(file));
      } catch {
        return null;
      }
    } else if (record.source === 'keyring') {
      const keyring = await this.keyring();
      try {
        hex = keyring ? keyring.get(this.account(store, slot)) : null;
      } catch {
        hex = null;
      }
    } else {
      return this.fromPassphrase(store, record, ask);
    }
    if (hex === null || !/^[0-9a-f]{64}$/.test(hex)) return null;
    const key = Buffer.from(hex, 'hex');
    return this.accept(store, record, key);
  }

  private accept(store: string, record: KeyRecord, key: Buffer): Buffer {
    if (keyCheck(key) !== record.check) {
      throw new LociError(
        'wrong-key',
        record.source === 'passphrase'
          ? `Wrong passphrase for store "${store}".`
          : `The key found in the ${record.source} for store "${store}" is not the key its database is encrypted with.`,
        { store, source: record.source },
      );
    }
    this.cache.set(`${store}:${record.check}`, key);
    return key;
  }

  private async fromPassphrase(
    store: string,
    record: KeyRecord,
    ask: boolean,
  ): Promise<Buffer | null> {
    if (!record.kdf) return null;
    const given =
      this.env.LOCI_PASSPHRASE ?? (ask ? await this.options.askPassphrase?.(store) : null) ?? null;
    if (given === null || given === '') return null;
    return this.accept(store, record, await deriveKey(given, record.kdf));
  }

  /** Removes one slot's material from one source (every source when none is named). */
  private async remove(store: string, slot: Slot, source: KeySource | null): Promise<void> {
    if (source === null || source === 'keyfile') rmSync(this.keyFile(store, slot), { force: true });
    if (source === null || source === 'keychain')
      rmSync(this.sealedFile(store, slot), { force: true });
    if (source === null || source === 'keyring') {
      try {
        (await this.keyring())?.delete(this.account(store, slot));
      } catch {
        /* already gone */
      }
    }
  }

  // ---------------------------------------------------------------- the store's keys

  /** The kdf parameters a new passphrase gets. */
  newKdf(): ScryptParams {
    return {
      name: 'scrypt',
      N: this.options.scryptN ?? DEFAULT_SCRYPT_N,
      r: SCRYPT_R,
      p: SCRYPT_P,
      salt: randomBytes(16).toString('base64'),
    };
  }

  /**
   * Makes the key a store is about to be encrypted with and keeps it in the `pending`
   * slot (recorded in the descriptor) before any file is written with it.
   */
  async createPending(
    store: string,
    source: KeySource,
    passphrase?: string,
  ): Promise<{ key: Buffer; record: KeyRecord }> {
    let key: Buffer;
    let kdf: ScryptParams | undefined;
    if (source === 'passphrase') {
      if (!passphrase) {
        throw new LociError(
          'invalid-args',
          'A passphrase key needs the passphrase (LOCI_PASSPHRASE, or typed when asked).',
        );
      }
      kdf = this.newKdf();
      key = await deriveKey(passphrase, kdf);
    } else key = randomBytes(KEY_BYTES);
    const record = await this.put(store, 'pending', source, key, kdf);
    const d = this.descriptor(store) ?? {
      version: 1 as const,
      cipher: 'chacha20' as const,
      current: null,
      pending: null,
    };
    this.writeDescriptor(store, { ...d, pending: record });
    return { key, record };
  }

  /** The pending key became the file's: it is the current one now, the old one gone. */
  async promotePending(store: string): Promise<void> {
    const d = this.descriptor(store);
    if (!d?.pending) return;
    const key = await this.read(store, 'pending', d.pending);
    if (!key) {
      throw new LociError('key-required', `The new key of store "${store}" is not reachable.`, {
        store,
      });
    }
    const pending = d.pending;
    // The new key is kept in the current slot before the descriptor names it there.
    if (pending.source !== 'passphrase') await this.put(store, 'current', pending.source, key);
    const old = d.current;
    this.writeDescriptor(store, { ...d, current: pending, pending: null });
    await this.remove(store, 'pending', pending.source);
    if (old && old.source !== pending.source) await this.remove(store, 'current', old.source);
    if (old && old.check !== pending.check) this.cache.delete(`${store}:${old.check}`);
    this.cache.set(`${store}:${pending.check}`, key);
  }

  /** A pending key that never became the file's (a failed or cancelled change). */
  async dropPending(store: string): Promise<void> {
    const d = this.descriptor(store);
    if (!d?.pending) return;
    this.cache.delete(`${store}:${d.pending.check}`);
    await this.remove(store, 'pending', d.pending.source);
    if (!d.current) this.writeDescriptor(store, null);
    else this.writeDescriptor(store, { ...d, pending: null });
  }

  /** Says, before a decryption writes anything, that a plain file will mean "done". */
  markDecrypting(store: string): void {
    const d = this.descriptor(store);
    if (d) this.writeDescriptor(store, { ...d, pending: null, decrypting: true });
  }

  /** The store is plain again: its descriptor and every key of it go. */
  async forgetStore(store: string): Promise<void> {
    const d = this.descriptor(store);
    this.lock(store);
    // Every file slot; the OS keyring only when a key was kept there (no needless probe).
    const inKeyring = [d?.current, d?.pending].some((r) => r?.source === 'keyring');
    for (const slot of ['pending', 'current'] as const) {
      const sources: KeySource[] = inKeyring
        ? ['keyfile', 'keychain', 'keyring']
        : ['keyfile', 'keychain'];
      for (const source of sources) await this.remove(store, slot, source);
    }
    this.writeDescriptor(store, null);
  }

  /**
   * The keys that may open a store's file, current first. Throws `key-required` when the
   * store is encrypted and no key is reachable, `wrong-key` when one found is not it.
   */
  async candidates(store: string, options: { ask?: boolean } = {}): Promise<Buffer[]> {
    const ask = options.ask ?? true;
    const d = this.descriptor(store);
    if (!d) return [];
    const out: Buffer[] = [];
    let wrong: unknown = null;
    for (const slot of ['current', 'pending'] as const) {
      const record = d[slot];
      if (!record) continue;
      try {
        const key = await this.read(store, slot, record, ask);
        if (key) out.push(key);
      } catch (err) {
        if (err instanceof LociError && err.code === 'wrong-key') wrong = err;
        else throw err;
      }
    }
    if (out.length > 0) return out;
    if (wrong) throw wrong;
    const source = d.current?.source ?? d.pending?.source;
    throw new LociError('key-required', missingKeyMessage(store, source), { store, source });
  }

  /** Whether a key that opens the store can be had now without asking anyone. */
  async reachable(store: string): Promise<boolean> {
    try {
      return (await this.candidates(store, { ask: false })).length > 0;
    } catch {
      return false;
    }
  }

  /** A passphrase typed for a store (`loci unlock`): checked, and its key kept this session. */
  async unlock(store: string, passphrase: string): Promise<KeyRecord> {
    const d = this.descriptor(store);
    const record = [d?.current, d?.pending].find((r) => r?.source === 'passphrase' && r.kdf);
    if (!record?.kdf) {
      throw new LociError('invalid-args', `Store "${store}" is not encrypted with a passphrase.`, {
        store,
      });
    }
    this.accept(store, record, await deriveKey(passphrase, record.kdf));
    return record;
  }

  /**
   * A key with a given check value, for a sealed export: any store of this data
   * directory that has it, else the passphrase (LOCI_PASSPHRASE or asked) under `kdf`.
   */
  async keyWithCheck(
    check: string,
    stores: readonly string[],
    kdf?: ScryptParams,
  ): Promise<Buffer | null> {
    for (const store of stores) {
      const d = this.descriptor(store);
      if (!d || (d.current?.check !== check && d.pending?.check !== check)) continue;
      try {
        const key = (await this.candidates(store)).find((k) => keyCheck(k) === check);
        if (key) return key;
      } catch {
        /* that store's key is not reachable: try the passphrase */
      }
    }
    if (!kdf) return null;
    const given =
      this.env.LOCI_PASSPHRASE ?? (await this.options.askPassphrase?.('the sealed bundle')) ?? null;
    if (!given) return null;
    const key = await deriveKey(given, kdf);
    if (keyCheck(key) !== check) {
      throw new LociError('wrong-key', 'Wrong passphrase for the sealed bundle.');
    }
    return key;
  }

  /** Forgets the keys found this session (the daemon locks its stores again). */
  lock(store: string): void {
    for (const k of [...this.cache.keys()]) if (k.startsWith(`${store}:`)) this.cache.delete(k);
  }

  /** Moves a store's key material with its folder (the descriptor travels in the folder). */
  async rename(from: string, to: string): Promise<void> {
    for (const slot of ['current', 'pending'] as const) {
      for (const [a, b] of [
        [this.keyFile(from, slot), this.keyFile(to, slot)],
        [this.sealedFile(from, slot), this.sealedFile(to, slot)],
      ] as const) {
        if (existsSync(a)) renameSync(a, b);
      }
    }
    const d = this.descriptor(to);
    const keyring = d && [d.current, d.pending].some((r) => r?.source === 'keyring');
    if (keyring) {
      const ring = await this.keyring();
      for (const slot of ['current', 'pending'] as const) {
        const secret = ring?.get(this.account(from, slot));
        if (ring && secret) {
          ring.set(this.account(to, slot), secret);
          ring.delete(this.account(from, slot));
        }
      }
    }
    for (const k of [...this.cache.keys()]) {
      if (k.startsWith(`${from}:`)) {
        this.cache.set(`${to}:${k.slice(from.length + 1)}`, this.cache.get(k) as Buffer);
        this.cache.delete(k);
      }
    }
  }
}

function missingKeyMessage(store: string, source: KeySource | undefined): string {
  const flag = store === 'default' ? '' : ` ${store}`;
  switch (source) {
    case 'passphrase':
      return `Store "${store}" is encrypted with a passphrase: set LOCI_PASSPHRASE, or unlock it with \`loci unlock${flag}\`.`;
    case 'keychain':
      return `Store "${store}" is encrypted with a key kept in the OS keychain by the desktop app; open it from the app (the keychain is not reachable from this process).`;
    case 'keyring':
      return `Store "${store}" is encrypted with a key kept in the OS keyring, which does not answer now (is your session's keyring unlocked?).`;
    default:
      return `Store "${store}" is encrypted, and its key file is missing from ${'keys/'}; restore the file (keys/${store}.current.dbkey) from your copy.`;
  }
}
