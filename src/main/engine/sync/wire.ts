// What a replication operation looks like between devices, and what a transport (the
// PostgreSQL hub, a synced folder) must do with it. Transports treat an operation as
// opaque: they store it, hand it to the other devices in a stable order, and purge what
// a tombstone makes obsolete. What an operation means is the replica's business
// (sync/replica.ts), which validates every body it receives.

/** One operation as it travels. */
export interface WireOp {
  /**
   * Its hybrid logical clock, which also names it: `<wall><counter>-<device>` with the
   * wall time (ms) in 11 base-36 digits and the counter in 4, so that string order is
   * clock order and two devices never make the same one.
   */
  h: string;
  /** The device that made it. */
  d: string;
  /** What it is about (`m:<memory id>`, `l:<from>|<to>|<type>`, `o:…`, `c:…`). */
  e: string;
  /** The memory ids it mentions: a tombstone of one of them purges the operation. */
  r: string[];
  /**
   * An erase: the transport keeps this operation and deletes every other one it holds
   * whose `r` names the erased memory (`e` is `m:<id>`), so erased content leaves the hub.
   */
  x?: true;
  /** The body (JSON), validated by the receiving replica. */
  b: unknown;
}

/** A device seen by a transport. */
export interface SyncDevice {
  id: string;
  /** A name a person recognises (the host name, or what they called it). */
  name: string;
  /** When the device last talked to the transport (epoch ms, the transport's clock). */
  last_seen: number | null;
  /** When it last pushed operations. */
  last_push: number | null;
  /** How many operations of this store it has pushed, in total. */
  ops: number;
  /**
   * The device's clock minus the transport's when it last talked (ms; null when the
   * transport has no clock of its own to compare with).
   */
  clock_skew_ms: number | null;
  /** The Loci version it runs. */
  version: string | null;
}

/** Something a pull found wrong and skipped, told to the person with what to do. */
export interface SyncProblem {
  /** Where (a segment file and line, a hub row). */
  where: string;
  message: string;
  fix: string;
}

export interface PullResult {
  /** Other devices' operations after the cursor, in the transport's order. */
  ops: WireOp[];
  /** Where the next pull starts (opaque to the caller; null: from the beginning). */
  cursor: string | null;
  /** More operations are waiting beyond this batch. */
  more: boolean;
  problems: SyncProblem[];
}

/** Who this device is, as a transport announces it. */
export interface DeviceSelf {
  id: string;
  name: string;
  version: string;
}

export interface SyncTransport {
  readonly kind: 'hub' | 'folder';
  /** Where it points, without secrets (a URL without its password, a folder path). */
  readonly target: string;
  /**
   * Connects, creates or migrates what the transport keeps, and registers this device
   * for the store. Throws a LociError that names the problem and its fix.
   */
  open(): Promise<void>;
  /**
   * Stores operations made on this device, all or none. An operation already stored
   * (same `h`) is skipped, so a batch replayed after a cut is harmless.
   */
  push(ops: WireOp[]): Promise<void>;
  /** Other devices' operations after `cursor`, at most `limit`. */
  pull(cursor: string | null, limit: number): Promise<PullResult>;
  /** The devices of this store, this one included. */
  devices(): Promise<SyncDevice[]>;
  /**
   * Memories erased or withdrawn that this device learnt of from others: a transport
   * holding copies of its own operations about them (a folder's segments) drops them.
   */
  purge?(ids: string[]): Promise<void>;
  /**
   * A transport that can lose what this device wrote (a folder whose segment was deleted
   * or edited): true when it should be handed this device's operations again.
   */
  needsRepublish?(): boolean;
  /** Writes this device's operations afresh (after needsRepublish). */
  republish?(ops: WireOp[]): Promise<number>;
  /**
   * Tells when another device pushed (the hub's LISTEN/NOTIFY), so a pull need not wait
   * for the next poll. `onEnd`: the watch stopped (a cut); it is opened again later.
   */
  watch?(onChange: () => void, onEnd: () => void): Promise<() => Promise<void>>;
  /** Removes this device from the store (its operations stay for the others). */
  leave(): Promise<void>;
  close(): Promise<void>;
}
