// The vocabulary of store keys: where one can be kept (the sources), what records it
// (encryption.json's records and descriptor), the passphrase KDF (scrypt, memory-hard),
// and the OS keyring through @napi-rs/keyring. keys.ts keeps and finds the keys.
import { randomBytes, scrypt } from 'node:crypto';
import type * as KeyringTypes from '@napi-rs/keyring';
import { LociError } from '../../../shared/errors';
import { KEY_BYTES } from './cipher';

export const ENCRYPTION_FILE = 'encryption.json';

export const KEY_SOURCES = ['keychain', 'keyring', 'keyfile', 'passphrase'] as const;
export type KeySource = (typeof KEY_SOURCES)[number];

export interface ScryptParams {
  name: 'scrypt';
  /** CPU/memory cost (a power of two); memory is 128·N·r bytes. */
  N: number;
  r: number;
  p: number;
  salt: string;
}

/** Where one key is, and the value that proves a key is it. */
export interface KeyRecord {
  source: KeySource;
  check: string;
  kdf?: ScryptParams;
  created_at: string;
}

export interface EncryptionDescriptor {
  version: 1;
  cipher: 'chacha20';
  /** The key the database is encrypted with; null while a first encryption runs. */
  current: KeyRecord | null;
  /** A key being put in place (encrypt, rekey): it may already be the file's. */
  pending: KeyRecord | null;
  /** Set while the store is being decrypted: a plain file then means "finish it". */
  decrypting?: boolean;
}

export type Slot = 'current' | 'pending';

/** Electron's safeStorage, as the desktop app hands it to the engine. */
export interface SecretBox {
  available(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(sealed: Buffer): string;
}

/** The OS keyring: one secret per account name. */
export interface Keyring {
  get(account: string): string | null;
  set(account: string, secret: string): void;
  delete(account: string): void;
}

export interface KeyVaultOptions {
  env?: Record<string, string | undefined>;
  secretBox?: SecretBox | null;
  /** The OS keyring; undefined: probed on first use; null: none. */
  keyring?: Keyring | null;
  /** Asks the person for a store's passphrase (the CLI on a terminal); null: nobody to ask. */
  askPassphrase?: ((store: string) => Promise<string | null>) | null;
  /** scrypt's N for new passphrases (2^17 = 128 MiB by default; tests use less). */
  scryptN?: number;
}

export const DEFAULT_SCRYPT_N = 2 ** 17;
export const SCRYPT_R = 8;
export const SCRYPT_P = 1;

/** Turns a passphrase into a store key with scrypt (memory-hard). */
export function deriveKey(passphrase: string, kdf: ScryptParams): Promise<Buffer> {
  if (passphrase.length === 0) {
    return Promise.reject(new LociError('invalid-args', 'The passphrase is empty.'));
  }
  return new Promise((resolve, reject) =>
    scrypt(
      passphrase.normalize('NFC'),
      Buffer.from(kdf.salt, 'base64'),
      KEY_BYTES,
      { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r + 16 * 2 ** 20 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

type KeyringModule = typeof KeyringTypes;

/** The OS keyring through @napi-rs/keyring, or null when none answers on this machine. */
export async function probeOsKeyring(
  platform: NodeJS.Platform = process.platform,
): Promise<Keyring | null> {
  // Loaded on first use: most runs never need the keyring's native module.
  let mod: KeyringModule;
  try {
    mod = await import('@napi-rs/keyring');
  } catch {
    return null;
  }
  const options = platform === 'linux' ? { linux: { store: 'secret-service' as const } } : {};
  const entry = (account: string) => new mod.Entry('Loci', account, options);
  const keyring: Keyring = {
    get: (account) => entry(account).getPassword() ?? null,
    set: (account, secret) => entry(account).setPassword(secret),
    delete: (account) => {
      entry(account).deletePassword();
    },
  };
  try {
    const probe = `probe-${randomBytes(6).toString('hex')}`;
    keyring.set(probe, 'loci');
    const back = keyring.get(probe);
    keyring.delete(probe);
    return back === 'loci' ? keyring : null;
  } catch {
    return null;
  }
}
