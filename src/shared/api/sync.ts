// What the sync methods answer (sync.status, sync.now, sync.devices, sync.connect).

export interface SyncProblemView {
  where: string;
  message: string;
  fix: string;
  at: string;
}

export interface SyncStoreStatus {
  store: string;
  transport: 'hub' | 'folder';
  /** The hub's URL without its password, or the folder. */
  target: string;
  /** idle: in step; syncing: a cycle runs; error: the last cycle failed and waits to retry. */
  state: 'idle' | 'syncing' | 'error';
  connected_at: string;
  last_push_at: string | null;
  last_pull_at: string | null;
  /** Operations this device made that the hub or folder does not have yet. */
  pending: number;
  pushed: number;
  pulled: number;
  /** Time from a change on another device to it being applied here (ms, recent changes). */
  lag_ms: { p50: number; p95: number; samples: number } | null;
  /** Where the password is kept. */
  secret: 'keychain' | 'keyring' | 'file' | 'none';
  error: { message: string; fix: string; at: string } | null;
  next_retry_at: string | null;
  /** Things the last pulls skipped (a damaged segment line, a malformed row). */
  problems: SyncProblemView[];
  /** This device's clock runs ahead of the wall clock by this much (another device's clock is fast). */
  clock_ahead_ms: number;
  /** Changes two devices made to the same field, decided by the merge rules (newest first). */
  merges: { id: string; fields: string[]; at: string }[];
}

export interface SyncStatusResult {
  device: { id: string; name: string };
  stores: SyncStoreStatus[];
}

export interface SyncDeviceView {
  id: string;
  name: string;
  this_device: boolean;
  last_seen: string | null;
  last_push: string | null;
  ops: number;
  clock_skew_ms: number | null;
  version: string | null;
}

export interface SyncDevicesResult {
  store: string;
  devices: SyncDeviceView[];
}

export interface SyncRunResult {
  store: string;
  pushed: number;
  pulled: number;
  applied: number;
  problems: SyncProblemView[];
  duration_ms: number;
}

export interface SyncLeaveResult {
  store: string;
  left: boolean;
}
