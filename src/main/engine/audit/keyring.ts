// The audit chain's HMAC keys, kept in the data directory beside (never inside) the
// store's database, in a file readable by the owner only. Keys are identified so that a
// later rotation keeps older entries verifiable. In an encrypted store the file is
// sealed (AES-256-GCM) under a sub-key of the store's key: without the store key the
// audit keys cannot be read, nor replaced without it showing.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LociError } from '../../../shared/errors';
import { seal, subKey, unseal, type Sealed } from '../store/cipher';
import { writePrivateFile } from '../store/privateFile';
import { keysDir } from '../store/paths';

interface KeyFile {
  version: 1;
  current: string;
  keys: Record<string, { secret: string; created_at: string }>;
}

interface SealedKeyFile {
  version: 1;
  sealed: Sealed;
}

/** Reads a key file, unsealing it with the store key when it is sealed. */
function readKeyFile(file: string, storeKey: Buffer | null): KeyFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new LociError(
      'environment',
      `The audit key file ${file} cannot be read. Restore it from a backup; Loci will not replace it, because that would make the existing audit chain unverifiable.`,
    );
  }
  const sealed = (raw as Partial<SealedKeyFile>).sealed;
  if (sealed) {
    if (!storeKey) {
      throw new LociError(
        'key-required',
        `The audit key file ${file} is sealed with the store's key, which was not given.`,
      );
    }
    const plain = unseal(subKey(storeKey, 'audit-keyring'), sealed, `The audit key file ${file}`);
    return JSON.parse(plain.toString('utf8')) as KeyFile;
  }
  return raw as KeyFile;
}

/** Writes a key file atomically, sealed when the store has a key. */
function writeKeyFile(file: string, data: KeyFile, storeKey: Buffer | null): void {
  const body: KeyFile | SealedKeyFile = storeKey
    ? {
        version: 1,
        sealed: seal(subKey(storeKey, 'audit-keyring'), Buffer.from(JSON.stringify(data))),
      }
    : data;
  writePrivateFile(file, JSON.stringify(body, null, 2));
}

export class AuditKeyring {
  private constructor(
    readonly file: string,
    private readonly data: KeyFile,
    /** True when this open created the key file. */
    readonly created: boolean,
    private readonly storeKey: Buffer | null = null,
  ) {}

  /**
   * Seals, unseals or re-seals a store's key file for a new store key (`from` opens it
   * now, `to` will). No file: nothing to do.
   */
  static reseal(dataDir: string, store: string, from: Buffer | null, to: Buffer | null): void {
    const file = AuditKeyring.keyFile(dataDir, store);
    if (!existsSync(file)) return;
    writeKeyFile(file, readKeyFile(file, from), to);
  }

  /** Whether a store's key file is sealed (doctor: an encrypted store's should be). */
  static isSealed(dataDir: string, store: string): boolean | null {
    const file = AuditKeyring.keyFile(dataDir, store);
    if (!existsSync(file)) return null;
    try {
      return 'sealed' in (JSON.parse(readFileSync(file, 'utf8')) as object);
    } catch {
      return null;
    }
  }

  static keyFile(dataDir: string, store: string): string {
    return join(keysDir(dataDir), `${store}.audit-keys.json`);
  }

  static loadOrCreate(
    dataDir: string,
    store: string,
    storeKey: Buffer | null = null,
  ): AuditKeyring {
    const file = AuditKeyring.keyFile(dataDir, store);
    if (existsSync(file)) {
      const parsed = readKeyFile(file, storeKey);
      if (parsed.version !== 1 || !parsed.keys[parsed.current]) {
        throw new LociError(
          'environment',
          `The audit key file ${file} is not in a format this Loci understands.`,
        );
      }
      return new AuditKeyring(file, parsed, false, storeKey);
    }
    const dir = keysDir(dataDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const id = AuditKeyring.newKeyId();
    const data: KeyFile = {
      version: 1,
      current: id,
      keys: {
        [id]: { secret: randomBytes(32).toString('base64'), created_at: new Date().toISOString() },
      },
    };
    writeKeyFile(file, data, storeKey);
    return new AuditKeyring(file, data, true, storeKey);
  }

  private static newKeyId(): string {
    return `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`;
  }

  get currentId(): string {
    return this.data.current;
  }

  currentKey(): Buffer {
    return this.key(this.data.current);
  }

  key(id: string): Buffer {
    const entry = this.data.keys[id];
    if (!entry) throw new LociError('not-found', `No audit key ${id} in ${this.file}.`);
    return Buffer.from(entry.secret, 'base64');
  }

  has(id: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.data.keys, id);
  }

  /** Every key id, oldest first (verification needs them all). */
  ids(): string[] {
    return Object.entries(this.data.keys)
      .sort((a, b) => a[1].created_at.localeCompare(b[1].created_at))
      .map(([id]) => id);
  }

  createdAt(id: string): string | null {
    return this.data.keys[id]?.created_at ?? null;
  }

  /**
   * Makes a new key current. Older keys stay in the file, so that entries signed with
   * them still verify; the file is replaced atomically (a crash leaves the old or the
   * new file, never half of one).
   */
  rotate(): { from: string; to: string } {
    const from = this.data.current;
    let to = AuditKeyring.newKeyId();
    while (this.has(to)) to = AuditKeyring.newKeyId();
    const next: KeyFile = {
      version: 1,
      current: to,
      keys: {
        ...this.data.keys,
        [to]: { secret: randomBytes(32).toString('base64'), created_at: new Date().toISOString() },
      },
    };
    writeKeyFile(this.file, next, this.storeKey);
    this.data.keys = next.keys;
    this.data.current = to;
    return { from, to };
  }
}
