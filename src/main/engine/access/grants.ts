// Client tokens: one per editor or agent (`loci clients add cursor --read-only`), each
// with a policy. Kept in `clients.json` in the data directory, readable by the user only,
// as SHA-256 hashes: a token is shown once, when it is made or rotated, and can never be
// read back. The daemon's owner token (store/token.ts) stays for the CLI and the
// observatory; a client token is never taken for it.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type {
  ClientGrant,
  ClientPolicy,
  ClientTokenResult,
  RegisteredClient,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { writePrivateFile } from '../store/privateFile';

/** Every client token starts so: told apart from the owner token at a glance. */
export const CLIENT_TOKEN_PREFIX = 'loci_c_';

interface StoredClient {
  id: string;
  name: string;
  policy: ClientPolicy;
  token_sha256: string;
  token_hint: string;
  created_at: string;
  rotated_at: string | null;
  last_used_at: string | null;
}

interface ClientsFile {
  version: 1;
  clients: StoredClient[];
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export const FULL_POLICY: ClientPolicy = {
  read_only: false,
  stores: null,
  ingest: true,
  forget: true,
  shared_only: false,
};

export class ClientGrants {
  readonly file: string;
  private data: ClientsFile = { version: 1, clients: [] };
  private stamp = -1;
  /** Last-use times not yet written (written at most once a minute per client). */
  private lastWrite = 0;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(dataDir, 'clients.json');
  }

  /** The file as it is on disk now (another process may have added or revoked a client). */
  private load(): ClientsFile {
    if (!existsSync(this.file)) {
      this.data = { version: 1, clients: [] };
      this.stamp = -1;
      return this.data;
    }
    const mtime = statSync(this.file).mtimeMs;
    if (mtime === this.stamp) return this.data;
    let parsed: ClientsFile;
    try {
      parsed = JSON.parse(readFileSync(this.file, 'utf8')) as ClientsFile;
    } catch {
      throw new LociError(
        'environment',
        `${this.file} cannot be read; it holds the client tokens. Restore it, or move it away and add the clients again.`,
      );
    }
    if (parsed.version !== 1 || !Array.isArray(parsed.clients)) {
      throw new LociError('environment', `${this.file} is not in a format this Loci understands.`);
    }
    this.data = parsed;
    this.stamp = mtime;
    return parsed;
  }

  private save(data: ClientsFile): void {
    writePrivateFile(this.file, `${JSON.stringify(data, null, 2)}\n`);
    this.data = data;
    this.stamp = statSync(this.file).mtimeMs;
  }

  private view(c: StoredClient): RegisteredClient {
    return {
      id: c.id,
      name: c.name,
      policy: c.policy,
      created_at: c.created_at,
      rotated_at: c.rotated_at,
      last_used_at: c.last_used_at,
      token_hint: c.token_hint,
    };
  }

  list(): RegisteredClient[] {
    return this.load()
      .clients.map((c) => this.view(c))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): RegisteredClient | null {
    const c = this.load().clients.find((x) => x.name === name);
    return c ? this.view(c) : null;
  }

  private newToken(): { token: string; hash: string; hint: string } {
    const token = `${CLIENT_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    return { token, hash: sha256(token), hint: token.slice(0, CLIENT_TOKEN_PREFIX.length + 4) };
  }

  add(name: string, policy: ClientPolicy): ClientTokenResult {
    const data = this.load();
    if (data.clients.some((c) => c.name === name)) {
      throw new LociError(
        'conflict',
        `A client named "${name}" has a token already: \`loci clients rotate ${name}\` gives it a new one, \`loci clients revoke ${name}\` removes it.`,
        { client: name },
      );
    }
    const t = this.newToken();
    const stored: StoredClient = {
      id: `c_${randomBytes(6).toString('hex')}`,
      name,
      policy,
      token_sha256: t.hash,
      token_hint: t.hint,
      created_at: new Date(this.now()).toISOString(),
      rotated_at: null,
      last_used_at: null,
    };
    this.save({ ...data, clients: [...data.clients, stored] });
    return { client: this.view(stored), token: t.token };
  }

  private find(name: string): StoredClient {
    const c = this.load().clients.find((x) => x.name === name);
    if (!c) {
      const known = this.data.clients.map((x) => x.name);
      throw new LociError(
        'not-found',
        `No client named "${name}" has a token. Known: ${known.join(', ') || 'none'}.`,
        { client: name },
      );
    }
    return c;
  }

  revoke(name: string): RegisteredClient {
    const c = this.find(name);
    this.save({ ...this.data, clients: this.data.clients.filter((x) => x.id !== c.id) });
    return this.view(c);
  }

  rotate(name: string): ClientTokenResult {
    const c = this.find(name);
    const t = this.newToken();
    const next: StoredClient = {
      ...c,
      token_sha256: t.hash,
      token_hint: t.hint,
      rotated_at: new Date(this.now()).toISOString(),
    };
    this.save({ ...this.data, clients: this.data.clients.map((x) => (x.id === c.id ? next : x)) });
    return { client: this.view(next), token: t.token };
  }

  /** The client a token belongs to, or null (compared in constant time, by hash). */
  verify(token: string): ClientGrant | null {
    if (!token.startsWith(CLIENT_TOKEN_PREFIX)) return null;
    const given = Buffer.from(sha256(token), 'hex');
    let found: StoredClient | null = null;
    for (const c of this.load().clients) {
      if (timingSafeEqual(given, Buffer.from(c.token_sha256, 'hex'))) found = c;
    }
    if (!found) return null;
    const now = this.now();
    if (now - this.lastWrite > 60_000) {
      this.lastWrite = now;
      const used = new Date(now).toISOString();
      try {
        this.save({
          ...this.data,
          clients: this.data.clients.map((x) =>
            x.id === found.id ? { ...x, last_used_at: used } : x,
          ),
        });
      } catch {
        /* last use is bookkeeping: a read-only data directory still serves */
      }
    }
    return { id: found.id, name: found.name, policy: found.policy };
  }
}
