// Rehearsal batching: a recall marks the memories it returned as used (and strengthens
// the links between those recalled together), but not one write per recall. The uses of
// a short window are gathered per store and written in one transaction; several recalls
// of the same memory within one window count as one use. Losing a window in a crash
// loses only use statistics, never a memory.
import type { OpenStore } from '../store/registry';
import { rehearseMemories, strengthenCoRecalled } from './state';

interface Batch {
  rids: Set<number>;
  /** Co-recalled pairs, keyed by the smaller rid first so (a, b) and (b, a) are one. */
  pairs: Map<string, [number, number]>;
}

export class RehearsalQueue {
  private readonly pending = new Map<string, Batch>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** The store by name if it is open now; a store closed meanwhile is skipped. */
    private readonly openStore: (name: string) => Promise<OpenStore> | undefined,
    private readonly now: () => number,
    /** How long uses are gathered before one write (ms). */
    private readonly flushMs = 50,
  ) {}

  /** Notes the memories a recall returned and the pairs recalled together. */
  add(store: string, rids: readonly number[], pairs: readonly [number, number][]): void {
    let batch = this.pending.get(store);
    if (!batch) {
      batch = { rids: new Set(), pairs: new Map() };
      this.pending.set(store, batch);
    }
    for (const rid of rids) batch.rids.add(rid);
    for (const [a, b] of pairs) batch.pairs.set(a < b ? `${a}:${b}` : `${b}:${a}`, [a, b]);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes every gathered window now, one transaction per store. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batches = [...this.pending.entries()];
    this.pending.clear();
    const now = this.now();
    for (const [name, batch] of batches) {
      const store = await this.openStore(name)?.catch(() => undefined);
      if (!store) continue;
      store.db.transaction(() => {
        rehearseMemories(store.db, [...batch.rids], now);
        strengthenCoRecalled(store.db, [...batch.pairs.values()], now);
      })();
    }
  }
}
