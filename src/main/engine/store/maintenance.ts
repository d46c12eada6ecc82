// Housekeeping of the open stores while the daemon runs: the WAL checkpoint policy and
// scheduled backups. SQLite's wal_autocheckpoint (1000 pages) runs PASSIVE checkpoints
// on commits, which a busy reader can defeat and which never shrink the file; here a
// TRUNCATE checkpoint runs when a store's log has stopped growing for one tick (idle),
// or at once when it passes a hard cap. A scheduled backup is taken when the newest one
// is older than the configured interval, keeping the newest N. Nothing here throws: a
// failure is reported through `onError` and retried on the next tick.
import { existsSync, statSync } from 'node:fs';
import type { OpenStore } from './registry';
import { backupDatabase, listBackups, pruneScheduled } from './backup';

export interface MaintenanceOptions {
  dataDir: string;
  stores: () => Promise<OpenStore[]>;
  now: () => number;
  /** How often the policy looks at the stores (ms). */
  tickMs?: number;
  /** A log larger than this is truncated even while writes go on (bytes). */
  walCapBytes?: number;
  /** Scheduled backups: every this many hours (0: off), keeping this many. */
  backupEveryHours: number;
  backupKeep: number;
  onError?: (err: Error, store: string) => void;
}

export const DEFAULT_WAL_CAP = 32 * 1024 * 1024;

export class Maintenance {
  private readonly lastWal = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  checkpoints = 0;

  constructor(private readonly options: MaintenanceOptions) {}

  start(): this {
    this.timer = setInterval(() => void this.tick(), this.options.tickMs ?? 30_000);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass over the open stores (also called directly by tests). */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<void> {
    for (const store of await this.options.stores()) {
      try {
        this.checkpoint(store);
        await this.scheduledBackup(store);
      } catch (err) {
        this.options.onError?.(err as Error, store.name);
      }
    }
  }

  private checkpoint(store: OpenStore): void {
    const wal = `${store.file}-wal`;
    const size = existsSync(wal) ? statSync(wal).size : 0;
    const before = this.lastWal.get(store.name);
    this.lastWal.set(store.name, size);
    if (size === 0) return;
    const idle = before === size;
    if (!idle && size <= (this.options.walCapBytes ?? DEFAULT_WAL_CAP)) return;
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    this.checkpoints++;
    this.lastWal.set(store.name, existsSync(wal) ? statSync(wal).size : 0);
  }

  private async scheduledBackup(store: OpenStore): Promise<void> {
    const hours = this.options.backupEveryHours;
    if (hours <= 0) return;
    const now = this.options.now();
    const newest = listBackups(this.options.dataDir, store.name).find(
      (b) => b.kind === 'scheduled',
    );
    if (newest && now - Date.parse(newest.created_at) < hours * 3600_000) return;
    await backupDatabase(store.db, {
      dataDir: this.options.dataDir,
      store: store.name,
      kind: 'scheduled',
      now,
    });
    pruneScheduled(this.options.dataDir, store.name, this.options.backupKeep);
  }
}
