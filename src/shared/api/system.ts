// The contract by domain (system): the system: overview, clients, editor setup, stores,
// backups and bundles, stats.
import type { MemoryKind } from '../schemas';
import type { ActivitySummary } from './memory';

export interface SystemInfo {
  version: string;
  data_dir: string;
  /** Where the daemon serves, when this engine is served over HTTP. */
  url: string | null;
  port: number | null;
  token_path: string | null;
  owner: string;
  pid: number;
  node: string;
  sqlite: string;
  platform: string;
}

export interface TokenRotateResult {
  /** The new token: the caller's own requests need it from now on. */
  token: string;
  path: string;
}

export interface OverviewResult {
  store: string;
  days: number;
  /** Memories created per day (UTC), oldest first, days without any included. */
  created_per_day: { day: string; count: number }[];
  by_kind: Record<MemoryKind, number>;
  by_source: { source: string; count: number }[];
  /** Speakers of conversation memories, most memories first (at most 50). */
  by_speaker: { speaker: string; count: number }[];
  /** Sessions, the most recent first (at most 50): their turns and when they ran. */
  sessions: { session: string; count: number; first: string; last: string }[];
  /** Recalls answered by this process (any client), most recent 1,000. */
  recall: {
    count: number;
    p50_ms: number | null;
    p95_ms: number | null;
    /** Bucket upper bounds in ms (the last is +∞) and counts. */
    histogram: { le_ms: number | null; count: number }[];
  };
}

export interface ClientSession {
  id: string;
  /** The client's name (from `Mcp-Client-Id` or its clientInfo), e.g. `cursor`. */
  client: string;
  transport: string;
  connected_at: string;
  last_seen: string;
  calls: number;
}

export interface ClientListResult {
  sessions: ClientSession[];
  /** The last call of every client seen recently, connected or not. */
  last_calls: ActivitySummary[];
}

export interface SetupPlan {
  client: string;
  name: string;
  /** The client's files or folders were found on this machine. */
  installed: boolean;
  file: string;
  transport: 'http' | 'stdio';
  /** The server name the entry is written under: `loci`, or the user's own name for an existing Loci entry. */
  entry: string;
  action: 'add' | 'update' | 'unchanged' | 'blocked';
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
  /** A readable before/after of the Loci entry. */
  diff: string;
  /** Why the file cannot be edited (invalid JSON), when it cannot. */
  problem: string | null;
}

export interface SetupPlanResult {
  clients: SetupPlan[];
}

export interface SetupHooksResult {
  /** ~/.claude/settings.json */
  file: string;
  action: 'add' | 'update' | 'unchanged';
  /** One line per hook added (+) or replaced (~). */
  changes: string[];
  backup: string | null;
  dry_run: boolean;
}

export interface SetupWriteResult {
  client: string;
  file: string;
  /** Where the original was copied before the change (null when there was no file). */
  backup: string | null;
  action: 'add' | 'update' | 'unchanged';
}

export interface SetupCheck {
  client: string;
  name: string;
  installed: boolean;
  file: string;
  status: 'ok' | 'missing' | 'stale' | 'duplicate' | 'invalid' | 'not-installed';
  problems: string[];
}

export interface SetupCheckResult {
  clients: SetupCheck[];
  endpoint: string;
  /** Claude Code's hooks for Loci, when Claude Code is installed (`loci setup hooks`). */
  hooks?: { status: 'ok' | 'missing' | 'stale'; file: string; problems: string[] };
}

export interface StoreInfo {
  name: string;
  path: string;
  created_at: string;
  is_default: boolean;
}

export interface StoreListResult {
  stores: StoreInfo[];
  data_dir: string;
}

export interface BackupInfo {
  path: string;
  bytes: number;
  created_at: string;
  /** `scheduled` backups are pruned to the newest N (config `backup.keep`); others are kept. */
  kind: 'manual' | 'scheduled' | 'pre-migration';
}

/**
 * An encrypted store's export: the bundle sealed (AES-256-GCM) under a sub-key of the
 * store's key. It opens where that key is (the store itself, a copy of its key file) or,
 * for a passphrase store, with the passphrase.
 */
export interface SealedStoreBundle {
  format: 'loci-sealed-bundle';
  version: 1;
  store: string;
  exported_at: string;
  memories: number;
  key: {
    check: string;
    kdf?: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  };
  sealed: { alg: 'aes-256-gcm'; iv: string; tag: string; data: string };
}

/** A store as portable JSON (`store.export`): rows keyed by memory id, tombstones included. */
export interface StoreBundle {
  format: 'loci-bundle';
  version: 1;
  store: string;
  exported_at: string;
  memories: Record<string, unknown>[];
  tags: { id: string; tag: string }[];
  versions: Record<string, unknown>[];
  states: Record<string, unknown>[];
  links: Record<string, unknown>[];
}

export interface StoreImportResult {
  store: string;
  memories: number;
  tags: number;
  versions: number;
  states: number;
  links: number;
}

export interface BackupListResult {
  store: string;
  backups: BackupInfo[];
}

export interface StoreResetResult {
  store: string;
  /** Where the damaged database was moved; null when the store was not marked damaged. */
  moved_to: string | null;
}

export interface EmbeddingStatusView {
  model: string;
  semantic: 'on' | 'off';
  /** Live memories with a vector of the active model. */
  embedded: number;
  /** Live memories still waiting for one (the backfill fills them in). */
  pending: number;
}

export interface StatsResult {
  store: string;
  memories: {
    live: number;
    deleted: number;
    quarantined: number;
    pinned: number;
    by_kind: Record<MemoryKind, number>;
  };
  links: number;
  versions: number;
  audit_entries: number;
  vectors: EmbeddingStatusView;
  oldest: string | null;
  newest: string | null;
  database: {
    path: string;
    size_bytes: number;
    wal_bytes: number;
    schema_version: number;
    sqlite_version: string;
  };
}

/** One thing that waits for the person, and where to deal with it (Overview's home list). */
export interface AttentionItem {
  id: 'conflicts' | 'review' | 'quarantine' | 'doctor' | 'audit' | 'model';
  severity: 'fail' | 'warn' | 'info';
  /** How many (absent when it is not a count). */
  count?: number;
  title: string;
  detail: string;
  /** The observatory route that deals with it, its filter in the query. */
  route: string;
}

export interface AttentionResult {
  store: string;
  /** Worst first; empty when nothing needs the person. */
  items: AttentionItem[];
  /** When the doctor's report it used was made. */
  doctor_ran_at: string;
}
