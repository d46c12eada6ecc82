// The cipher layer under one store's database: SQLite3 Multiple Ciphers (the driver is
// better-sqlite3-multiple-ciphers) encrypts every page of the file and every frame of
// its write-ahead log with ChaCha20-Poly1305, keyed per store. This file only applies a
// key to a connection, tells an encrypted file from a plain one, and derives the
// sub-keys that seal what lives beside the database (the audit keyring, exports).
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3-multiple-ciphers';
import { LociError } from '../../../shared/errors';

/** The key each open connection was opened with, for the workers that open the file again. */
const connectionKeys = new WeakMap<Database.Database, Buffer>();

/** The key a connection was opened with (null: a plain database). */
export function keyOf(db: Database.Database): Buffer | null {
  return connectionKeys.get(db) ?? null;
}

/** SQLite3 Multiple Ciphers' default: ChaCha20-Poly1305 pages (sqleet's format). */
export const CIPHER = 'chacha20';

/** A store key: 32 random bytes, or the output of the passphrase KDF. */
export const KEY_BYTES = 32;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Sets the key of a fresh connection before anything reads the file. A null key leaves
 * the connection plain. The key goes in as hex, so no byte of it is parsed as SQL.
 */
export function applyKey(db: Database.Database, key: Buffer | null): void {
  if (!key) return;
  if (key.length !== KEY_BYTES) throw new Error(`a store key has ${KEY_BYTES} bytes`);
  db.pragma(`cipher = '${CIPHER}'`);
  db.pragma(`hexkey = '${key.toString('hex')}'`);
  connectionKeys.set(db, key);
}

/**
 * What the first 16 bytes of a file say: `plain` (a SQLite database anyone can read),
 * `empty` (no file or a zero-length one), or `opaque` (encrypted, or not a database).
 */
export function fileHeader(file: string): 'plain' | 'empty' | 'opaque' {
  if (!existsSync(file)) return 'empty';
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    if (n === 0) return 'empty';
    return n === 16 && head.equals(SQLITE_HEADER) ? 'plain' : 'opaque';
  } finally {
    closeSync(fd);
  }
}

/** A value that tells whether a key is the store's without opening the database. */
export function keyCheck(key: Buffer): string {
  return createHmac('sha256', key).update('loci store key check v1').digest('hex').slice(0, 32);
}

/** A sub-key for something sealed beside the database (never the page key itself). */
export function subKey(key: Buffer, purpose: 'audit-keyring' | 'export'): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `loci ${purpose} v1`, KEY_BYTES));
}

export interface Sealed {
  alg: 'aes-256-gcm';
  iv: string;
  tag: string;
  data: string;
}

/** AES-256-GCM: confidentiality and integrity for a small file or an export. */
export function seal(key: Buffer, plain: Buffer): Sealed {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([c.update(plain), c.final()]);
  return {
    alg: 'aes-256-gcm',
    iv: iv.toString('base64'),
    tag: c.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
}

/** Opens what seal() made; a wrong key or a changed byte is an error naming `what`. */
export function unseal(key: Buffer, sealed: Sealed, what: string): Buffer {
  if (sealed?.alg !== 'aes-256-gcm') {
    throw new LociError('invalid-args', `${what} is sealed in a format this Loci does not know.`);
  }
  try {
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    d.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([d.update(Buffer.from(sealed.data, 'base64')), d.final()]);
  } catch {
    throw new LociError(
      'wrong-key',
      `${what} does not open with this store's key (a different key, or the file was changed).`,
    );
  }
}
