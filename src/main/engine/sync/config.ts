// Which stores sync, where to, and with which credentials. `sync.json` in the data
// directory lists the connections (no secrets: a hub URL is kept without its password);
// a hub's password goes to the OS keychain (the desktop app's safeStorage), else the OS
// keyring, else a file only the user may read — the same order store keys follow.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { LociError } from '../../../shared/errors';
import type { KeyVault } from '../store/keys';
import { writePrivateFile } from '../store/privateFile';
import { isDeviceId } from './hlc';

export interface SyncConnection {
  transport: 'hub' | 'folder';
  /** The hub's URL without its password, or the folder's absolute path. */
  target: string;
  /** The store's name on the hub or in the folder (its name here when it connected). */
  remote?: string;
  connected_at: number;
  /** Where the hub's password is kept (none: the URL needs none, or a .pgpass / PGPASSWORD). */
  secret: 'keychain' | 'keyring' | 'file' | 'none';
}

export interface SyncFile {
  device: { id: string; name: string };
  stores: Record<string, SyncConnection>;
}

const FILE = 'sync.json';

export function readSyncFile(dataDir: string): SyncFile {
  const file = join(dataDir, FILE);
  if (!existsSync(file)) {
    const fresh: SyncFile = {
      device: {
        id: randomBytes(10).toString('hex').slice(0, 16),
        name: hostname() || 'this device',
      },
      stores: {},
    };
    writePrivateFile(file, JSON.stringify(fresh, null, 2));
    return fresh;
  }
  let parsed: SyncFile;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as SyncFile;
  } catch (err) {
    throw new LociError(
      'environment',
      `${file} is not valid JSON (${(err as Error).message}). Fix it by hand, or delete it and connect the stores again.`,
    );
  }
  if (!parsed.device || !isDeviceId(parsed.device.id) || typeof parsed.stores !== 'object') {
    throw new LociError(
      'environment',
      `${file} does not say which device this is. Delete it and connect the stores again.`,
    );
  }
  return parsed;
}

export function writeSyncFile(dataDir: string, f: SyncFile): void {
  writePrivateFile(join(dataDir, FILE), JSON.stringify(f, null, 2));
}

/** The URL as it is shown and kept: its password removed. */
export function withoutPassword(url: string): { shown: string; password: string | null } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // Nothing of what was typed is echoed past the scheme: it may hold the password.
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
    throw new LociError(
      'invalid-args',
      `not a URL: ${scheme}… (a password with / @ : or # in it must be percent-encoded, or given with --password-stdin)`,
      { field: 'url' },
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new LociError(
      'invalid-args',
      `a hub is a PostgreSQL URL (postgres://user@host:5432/database), not ${u.protocol}//…`,
      { field: 'url' },
    );
  }
  // libpq also takes the password as a parameter (?password=…).
  const password = u.password
    ? decodeURIComponent(u.password)
    : (u.searchParams.get('password') ?? null);
  u.password = '';
  u.searchParams.delete('password');
  return { shown: u.toString(), password };
}

/** Keeps and finds a hub's password. */
export class SyncSecrets {
  constructor(
    private readonly dataDir: string,
    private readonly vault: KeyVault,
  ) {}

  private account(store: string): string {
    const dir = createHash('sha256').update(this.dataDir).digest('hex').slice(0, 12);
    return `${dir}/sync/${store}`;
  }

  private file(store: string, sealed: boolean): string {
    return join(this.dataDir, 'sync', `${store}.password${sealed ? '.sealed' : ''}`);
  }

  async save(store: string, password: string): Promise<SyncConnection['secret']> {
    await this.delete(store);
    const { box, keyring } = await this.vault.secretStores();
    mkdirSync(join(this.dataDir, 'sync'), { recursive: true, mode: 0o700 });
    if (box) {
      writePrivateFile(this.file(store, true), box.encrypt(password));
      return 'keychain';
    }
    if (keyring) {
      keyring.set(this.account(store), password);
      return 'keyring';
    }
    writePrivateFile(this.file(store, false), password);
    return 'file';
  }

  async load(store: string, kind: SyncConnection['secret']): Promise<string | null> {
    if (kind === 'none') return null;
    if (kind === 'keychain') {
      const { box } = await this.vault.secretStores();
      const file = this.file(store, true);
      if (!box || !existsSync(file)) return null;
      return box.decrypt(readFileSync(file));
    }
    if (kind === 'keyring') {
      const { keyring } = await this.vault.secretStores();
      return keyring?.get(this.account(store)) ?? null;
    }
    const file = this.file(store, false);
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  }

  async delete(store: string): Promise<void> {
    rmSync(this.file(store, true), { force: true });
    rmSync(this.file(store, false), { force: true });
    const { keyring } = await this.vault.secretStores();
    try {
      keyring?.delete(this.account(store));
    } catch {
      // Nothing kept there.
    }
  }
}
