// Results of the security methods: a store's encryption at rest.
import type { KEY_SOURCE_NAMES } from '../schemas/security';

export type KeySourceName = (typeof KEY_SOURCE_NAMES)[number];

export interface EncryptionStatus {
  store: string;
  /** The database file is encrypted (ChaCha20-Poly1305 pages and WAL frames). */
  encrypted: boolean;
  cipher: 'chacha20' | null;
  /** Where the key is kept. */
  source: KeySourceName | null;
  /** The key is reachable now (false: a passphrase not given yet, a key file missing). */
  unlocked: boolean;
  /** When the current key was made. */
  since: string | null;
  /** A change a crash cut short, finished on the next open. */
  pending: boolean;
  /** Where a new key can be kept from this process. */
  sources: KeySourceName[];
}

export interface EncryptionListResult {
  stores: EncryptionStatus[];
}

export interface EncryptionChangeResult extends EncryptionStatus {
  /** The backup taken before anything changed (kept, under the new key). */
  backup: string;
  /** Rows copied into the new file. */
  rows: number;
  /** Backups and set-aside copies re-encrypted; those that could not be, with why. */
  copies: { changed: number; skipped: { path: string; reason: string }[] };
  took_ms: number;
}

/** What a client's own token lets it do (`loci clients add`). */
export interface ClientPolicy {
  /** Reads only: no write of any kind. */
  read_only: boolean;
  /** The stores it may use (null: every store). */
  stores: string[] | null;
  /** May ingest files and transcripts. */
  ingest: boolean;
  /** May forget and erase memories. */
  forget: boolean;
  /** Sees and writes shared memories only (no private ones, not even its own). */
  shared_only: boolean;
}

/** A client token, as the Connect view and `loci clients list` show it (never the token). */
export interface RegisteredClient {
  id: string;
  name: string;
  policy: ClientPolicy;
  created_at: string;
  rotated_at: string | null;
  last_used_at: string | null;
  /** The token's first characters, to tell tokens apart. */
  token_hint: string;
}

export interface RegisteredClientsResult {
  clients: RegisteredClient[];
}

/** A new or rotated client token: shown this once, kept only as a hash. */
export interface ClientTokenResult {
  client: RegisteredClient;
  token: string;
}
