// The audit chain's HMAC keys, kept in the data directory beside (never inside) the
// store's database, in a file readable by the owner only. Keys are identified so that a
// later rotation keeps older entries verifiable.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LociError } from '../../../shared/errors';
import { keysDir } from '../store/paths';

interface KeyFile {
  version: 1;
  current: string;
  keys: Record<string, { secret: string; created_at: string }>;
}

export class AuditKeyring {
  private constructor(
    readonly file: string,
    private readonly data: KeyFile,
    /** True when this open created the key file. */
    readonly created: boolean,
  ) {}

  static keyFile(dataDir: string, store: string): string {
    return join(keysDir(dataDir), `${store}.audit-keys.json`);
  }

  static loadOrCreate(dataDir: string, store: string): AuditKeyring {
    const file = AuditKeyring.keyFile(dataDir, store);
    if (existsSync(file)) {
      let parsed: KeyFile;
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
      } catch {
        throw new LociError(
          'environment',
          `The audit key file ${file} cannot be read. Restore it from a backup; Loci will not replace it, because that would make the existing audit chain unverifiable.`,
        );
      }
      if (parsed.version !== 1 || !parsed.keys[parsed.current]) {
        throw new LociError(
          'environment',
          `The audit key file ${file} is not in a format this Loci understands.`,
        );
      }
      return new AuditKeyring(file, parsed, false);
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
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(data, null, 2), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
    return new AuditKeyring(file, data, true);
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
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(next, null, 2), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
    this.data.keys = next.keys;
    this.data.current = to;
    return { from, to };
  }
}
