// Named stores in the data directory: `stores/<name>/` holds `store.json` and
// `loci.db`. The `default` store is created on first use; any other name must have
// been created (`loci stores create`). Opening runs the integrity check and the
// migrations; a damaged database is moved aside and the store stays closed until the
// user decides what to do.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { StoreInfo } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { StoreNameSchema } from '../../../shared/schemas';
import { AuditChain, restoreAuditTriggers } from '../audit/chain';
import { AuditKeyring } from '../audit/keyring';
import {
  CorruptDatabaseError,
  moveAside,
  openDatabase,
  type Db,
  type OpenOptions,
} from './database';
import { listBackups } from './backup';
import { fileHeader } from './cipher';
import { settleAfterOpen, settleKeyring } from './encryption';
import { KeyVault } from './keys';
import { migrate, type MigrationReport } from './migrations';
import { CORRUPT_MARKER_FILE, STORE_FILE, STORE_META_FILE, storeDir, storesDir } from './paths';
import { DEFAULT_STORE_NAME } from '../../../shared/constants';

export const DEFAULT_STORE = DEFAULT_STORE_NAME;

interface StoreMeta {
  name: string;
  created_at: string;
}

interface CorruptMarker {
  moved_to: string;
  at: string;
  detail: string;
}

export interface OpenStore {
  name: string;
  dir: string;
  file: string;
  db: Db;
  /** The key the database is encrypted with; null for a plain store. */
  key: Buffer | null;
  audit: AuditChain;
  keyring: AuditKeyring;
  migration: MigrationReport;
}

export class StoreRegistry {
  readonly vault: KeyVault;

  constructor(
    readonly dataDir: string,
    private readonly dbOptions: OpenOptions = {},
    vault?: KeyVault,
  ) {
    this.vault = vault ?? new KeyVault(dataDir);
  }

  /**
   * Opens the database file with the key it needs. A plain file opens as it is; an
   * encrypted one with the store's current key, else the pending one (a change a crash
   * interrupted). A missing or wrong key is `key-required` / `wrong-key`, never taken
   * for damage; a file that the store's own key does not open is damaged.
   */
  private async openFile(
    name: string,
    file: string,
  ): Promise<{ db: Db; key: Buffer | null; keys: Buffer[] }> {
    const d = this.vault.descriptor(name);
    const header = fileHeader(file);
    if (!d || header === 'plain' || (header === 'empty' && !d.current)) {
      const keys = d ? await this.vault.candidates(name).catch(() => []) : [];
      return { db: openDatabase(file, this.dbOptions), key: null, keys };
    }
    const keys = await this.vault.candidates(name);
    // A store made anew under its key (no file yet) is encrypted from the start.
    const order = header === 'empty' ? keys.slice(0, 1) : keys;
    let last: unknown = null;
    for (const key of order) {
      try {
        return { db: openDatabase(file, { ...this.dbOptions, key }), key, keys };
      } catch (err) {
        if (!(err instanceof CorruptDatabaseError)) throw err;
        last = err;
      }
    }
    throw last;
  }

  private metaPath(name: string): string {
    return join(storeDir(this.dataDir, name), STORE_META_FILE);
  }

  exists(name: string): boolean {
    return existsSync(this.metaPath(name));
  }

  info(name: string): StoreInfo {
    const meta = JSON.parse(readFileSync(this.metaPath(name), 'utf8')) as StoreMeta;
    return {
      name,
      path: join(storeDir(this.dataDir, name), STORE_FILE),
      created_at: meta.created_at,
      is_default: name === DEFAULT_STORE,
    };
  }

  list(): StoreInfo[] {
    const dir = storesDir(this.dataDir);
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { withFileTypes: true })
      .filter(
        (e) => e.isDirectory() && StoreNameSchema.safeParse(e.name).success && this.exists(e.name),
      )
      .map((e) => this.info(e.name))
      .sort((a, b) =>
        a.is_default === b.is_default ? a.name.localeCompare(b.name) : a.is_default ? -1 : 1,
      );
  }

  create(name: string): StoreInfo {
    const parsed = StoreNameSchema.safeParse(name);
    if (!parsed.success) {
      throw new LociError(
        'invalid-args',
        `"${name}" is not a valid store name: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    }
    if (this.exists(name))
      throw new LociError('store-exists', `A store named "${name}" already exists.`);
    const dir = storeDir(this.dataDir, name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const meta: StoreMeta = { name, created_at: new Date().toISOString() };
    const tmp = `${this.metaPath(name)}.tmp`;
    writeFileSync(tmp, JSON.stringify(meta, null, 2), { mode: 0o600 });
    renameSync(tmp, this.metaPath(name));
    return this.info(name);
  }

  /**
   * Renames a closed store: its folder, its metadata and its audit keys move together.
   * `default` keeps its name (it would be recreated empty on the next call without one).
   */
  rename(name: string, to: string): StoreInfo {
    this.resolve(name);
    if (name === DEFAULT_STORE) {
      throw new LociError(
        'invalid-args',
        'The default store cannot be renamed: calls without a store name use it. Create a store with the new name and move memories there instead.',
      );
    }
    const parsed = StoreNameSchema.safeParse(to);
    if (!parsed.success) {
      throw new LociError(
        'invalid-args',
        `"${to}" is not a valid store name: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    }
    if (to === name) return this.info(name);
    if (this.exists(to) || existsSync(storeDir(this.dataDir, to))) {
      throw new LociError('store-exists', `A store named "${to}" already exists.`);
    }
    const keysFrom = AuditKeyring.keyFile(this.dataDir, name);
    const keysTo = AuditKeyring.keyFile(this.dataDir, to);
    if (existsSync(keysTo)) {
      throw new LociError(
        'store-exists',
        `Audit keys for a store named "${to}" already exist (${keysTo}); move them away first.`,
      );
    }
    renameSync(storeDir(this.dataDir, name), storeDir(this.dataDir, to));
    try {
      if (existsSync(keysFrom)) renameSync(keysFrom, keysTo);
    } catch (err) {
      // Put the folder back: a store must never be separated from its keys.
      renameSync(storeDir(this.dataDir, to), storeDir(this.dataDir, name));
      throw err;
    }
    const meta = JSON.parse(readFileSync(this.metaPath(to), 'utf8')) as StoreMeta;
    const tmp = `${this.metaPath(to)}.tmp`;
    writeFileSync(tmp, JSON.stringify({ ...meta, name: to }, null, 2), { mode: 0o600 });
    renameSync(tmp, this.metaPath(to));
    return this.info(to);
  }

  /** Resolves a store name from a call: absent means `default`; unknown is an error. */
  resolve(name: string | undefined): string {
    const target = name ?? DEFAULT_STORE;
    if (target === DEFAULT_STORE && !this.exists(DEFAULT_STORE)) this.create(DEFAULT_STORE);
    if (!this.exists(target)) {
      const known = this.list().map((s) => s.name);
      throw new LociError(
        'store-not-found',
        `No store named "${target}". Known stores: ${known.join(', ') || 'none'}. Create it with \`loci stores create ${target}\`.`,
        { store: target, known },
      );
    }
    return target;
  }

  private markerPath(name: string): string {
    return join(storeDir(this.dataDir, name), CORRUPT_MARKER_FILE);
  }

  private corruptError(name: string, marker: CorruptMarker): LociError {
    const backups = join(storeDir(this.dataDir, name), 'backups');
    const newest = listBackups(this.dataDir, name)[0];
    const flag = name === DEFAULT_STORE ? '' : ` --store ${name}`;
    const restore = newest
      ? `To recover, stop Loci and restore the newest backup (${newest.created_at}) with \`loci backup restore${flag} ${newest.path}\` (\`loci backup list${flag}\` shows the others), `
      : `No backup of this store exists in ${backups}. To recover from a copy you kept elsewhere, stop Loci and run \`loci backup restore${flag} <file>\`, `;
    return new LociError(
      'store-corrupt',
      `Store "${name}" failed its integrity check (${marker.detail}). Its database was moved to ${marker.moved_to} on ${marker.at}; nothing was deleted. ` +
        restore +
        `or start this store empty with \`loci stores reset ${name}\` (the damaged file stays where it is).`,
      { store: name, moved_to: marker.moved_to, backups, newest_backup: newest?.path ?? null },
    );
  }

  /**
   * Clears the "damaged" marker of a store so that it opens empty (or from a backup the
   * user copied into place). The moved-aside file is left untouched.
   */
  resetCorrupt(name: string): { moved_to: string | null } {
    this.resolve(name);
    const path = this.markerPath(name);
    if (!existsSync(path)) return { moved_to: null };
    const marker = JSON.parse(readFileSync(path, 'utf8')) as CorruptMarker;
    renameSync(path, `${path}.cleared-${Date.now()}`);
    return { moved_to: marker.moved_to };
  }

  async open(name: string): Promise<OpenStore> {
    const dir = storeDir(this.dataDir, name);
    const file = join(dir, STORE_FILE);
    if (existsSync(this.markerPath(name))) {
      throw this.corruptError(
        name,
        JSON.parse(readFileSync(this.markerPath(name), 'utf8')) as CorruptMarker,
      );
    }
    let db: Db;
    let key: Buffer | null = null;
    let keys: Buffer[] = [];
    try {
      ({ db, key, keys } = await this.openFile(name, file));
    } catch (err) {
      if (!(err instanceof CorruptDatabaseError)) throw err;
      const movedTo = moveAside(file);
      const marker: CorruptMarker = {
        moved_to: movedTo,
        at: new Date().toISOString(),
        detail: err.detail,
      };
      writeFileSync(this.markerPath(name), JSON.stringify(marker, null, 2), { mode: 0o600 });
      throw this.corruptError(name, marker);
    }
    try {
      const migration = await migrate(db, {
        backupPath: (from) =>
          join(
            dir,
            'backups',
            `pre-migration-v${from}-${new Date().toISOString().replace(/[:.]/g, '-')}.db`,
          ),
      });
      const others = keys.filter((k) => k !== key);
      const keyring = settleKeyring(this.dataDir, name, key, others);
      await settleAfterOpen(this.vault, this.dataDir, name, key, others);
      const audit = new AuditChain(db, keyring);
      if (keyring.created && audit.count() > 0) {
        // The key file went missing while the chain has entries: say so in the chain itself.
        db.transaction(() =>
          audit.append(
            {
              actor: 'system',
              action: 'audit.key_created',
              target: null,
              data: {
                reason:
                  'key file missing; entries before this one cannot be verified with the new key',
              },
            },
            Date.now(),
          ),
        )();
      }
      // Someone with access to the file may have dropped the append-only triggers.
      restoreAuditTriggers(db, audit, 'system', Date.now());
      return { name, dir, file, db, key, audit, keyring, migration };
    } catch (err) {
      db.close();
      throw err;
    }
  }
}
