// Detection as the engine runs it. A single write is compared at once (its answer names
// the memories it seems to contradict); a batch — rememberMany, an import — is queued, and
// so is every write while more than BURST writes arrive within a second: what is queued is
// compared once the engine is idle (IDLE_MS without a write or a call), in short slices
// that give way to the next request, so neither a bulk load nor the calls around it are
// slowed by it. A store's queue also waits while its vectors are being filled in: the
// comparison looks for neighbours by meaning through those vectors, and slices of it
// between the backfill's batches would hold each batch back by a slice. conflict.scan
// (and the dream phase) go through the backlog: every memory since the last scan. Each
// finding is recorded once (store.ts), with its `contradicts` link.
import type {
  Actor,
  ConflictMark,
  ConflictResolveResult,
  ConflictScanResult,
  ConflictView,
} from '../../../shared/api';
import type { Config } from '../config';
import type { EngineEvents } from '../events';
import { actorName } from '../memory/model';
import type { CreatedMemory } from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { candidatesFor, eligible, FACT_MAX_CHARS, isFact } from './find';
import {
  recordCandidates,
  reopenConflict,
  resolveConflicts,
  type Candidate,
  type ResolveArgs,
  type ResolveOutcome,
} from './store';
import { warn } from '../warnings';

/** A write of at most this many memories is compared before it answers. */
export const SYNC_MAX = 8;
/** Memories compared in one go by the background work (one writer's). */
const SLICE = 4;
/** Memories compared per progress step of a scan of the backlog. */
const SCAN_SLICE = 32;
/** A slice of background work gives way after this long. */
const SLICE_MS = 8;
/** More writes than this within a second are a burst: they are compared after. */
export const BURST = 20;
/** Background comparison waits for this long without a write or a call. */
export const IDLE_MS = 150;

export interface ConflictHost {
  config: Config;
  events: EngineEvents;
  now: () => number;
  newId: () => string;
  /** Nearest by meaning, from the store's vector index. */
  nearestTo(store: OpenStore, rid: number, k: number): number[];
  /** The store's missing vectors are being filled in now (its queue waits for them). */
  vectorsFilling?(store: OpenStore): boolean;
  changedLinks(
    store: OpenStore,
    links: { from: string; to: string; change: 'created' | 'removed' }[],
    actor: string,
  ): void;
  /** Memories whose validity or tags a decision changed (the recogniser, the event). */
  changedMemories(store: OpenStore, ids: string[], actor: Actor): void;
}

export class ConflictService {
  private readonly queues = new Map<
    string,
    { store: OpenStore; items: { rid: number; actor: string }[] }
  >();
  private draining: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Callers waiting for the queue to empty: the drain does not wait for a pause then. */
  private hurry = 0;
  /** When writes came lately (ms, oldest first). */
  private readonly recent: number[] = [];
  /** When memories were last written or a call last ended. */
  private lastActivity = -Infinity;
  /** Calls being served now. */
  private calls = 0;
  private closed = false;

  constructor(private readonly host: ConflictHost) {}

  private options(store: OpenStore) {
    return {
      nearByMeaning: (rid: number, k: number) => this.host.nearestTo(store, rid, k),
      minConfidence: this.host.config.conflicts.min_confidence,
    };
  }

  /** Compares memories now and records what it finds; returns the marks by memory id. */
  detect(
    store: OpenStore,
    rids: readonly number[],
    by: string,
    actor: string = by,
  ): Map<string, ConflictMark[]> {
    const found: Candidate[] = [];
    for (const rid of rids) {
      const fact = isFact(store, rid);
      if (fact) found.push(...candidatesFor(store, fact, this.options(store)));
    }
    const recorded = recordCandidates(store, found, by, this.host.now(), this.host.newId, actor);
    const marks = new Map<string, ConflictMark[]>();
    if (recorded.length === 0) return marks;
    const idOf = stmt(store.db, 'SELECT id FROM memory WHERE rid = ?').pluck();
    const titleOf = stmt(store.db, 'SELECT title FROM memory WHERE id = ?').pluck();
    const pairs: { from: string; to: string }[] = [];
    for (const { id, candidate } of recorded) {
      const older = idOf.get(candidate.older) as string;
      const newer = idOf.get(candidate.newer) as string;
      pairs.push({ from: newer, to: older });
      for (const [self, other] of [
        [newer, older],
        [older, newer],
      ] as const) {
        const list = marks.get(self) ?? [];
        list.push({ conflict: id, id: other, title: titleOf.get(other) as string, current: newer });
        marks.set(self, list);
      }
    }
    this.announce(
      store,
      recorded.map((r) => r.id),
      pairs.map((p) => `${p.from}->${p.to}`),
      by,
    );
    return marks;
  }

  /** New conflicts told: their `contradicts` links (`newer->older`) and the conflicts. */
  announce(store: OpenStore, ids: string[], pairs: string[], by: string): void {
    this.host.changedLinks(
      store,
      pairs.map((p) => {
        const [from, to] = p.split('->') as [string, string];
        return { from, to, change: 'created' as const };
      }),
      by,
    );
    this.host.events.emit('conflict.changed', {
      store: store.name,
      ids,
      change: 'detected',
      actor: by,
    });
  }

  /**
   * After new memories are committed: a small write arriving on its own is compared now
   * (its marks are returned); a larger one, or one within a burst, is queued.
   */
  afterCreated(
    store: OpenStore,
    created: readonly CreatedMemory[],
    actor: Actor,
  ): Map<string, ConflictMark[]> {
    if (!this.host.config.conflicts.detect_on_write || this.closed) return new Map();
    const facts = created.filter((m) => m.content.length <= FACT_MAX_CHARS);
    const burst = this.wrote();
    if (facts.length === 0) return new Map();
    const who = actorName(actor);
    if (facts.length <= SYNC_MAX && !burst) {
      return this.detect(
        store,
        facts.map((m) => m.rid),
        'write',
        who,
      );
    }
    const q = this.queues.get(store.name) ?? { store, items: [] };
    q.store = store;
    q.items.push(...facts.map((m) => ({ rid: m.rid, actor: who })));
    this.queues.set(store.name, q);
    this.schedule();
    return new Map();
  }

  /** Counts a write; whether writes now arrive as a burst. */
  private wrote(): boolean {
    const now = performance.now();
    this.lastActivity = now;
    this.recent.push(now);
    while ((this.recent[0] as number) < now - 1000) this.recent.shift();
    return this.recent.length > BURST;
  }

  /** A call to the engine began (the handler registry tells). */
  began(): void {
    this.calls++;
  }

  /** A call ended: the background waits IDLE_MS more. */
  ended(): void {
    this.calls = Math.max(0, this.calls - 1);
    this.lastActivity = Math.max(this.lastActivity, performance.now());
  }

  /**
   * Whether the engine serves calls now or did within IDLE_MS, or memories were written
   * (and nobody waits for the queue).
   */
  private busy(): boolean {
    return this.hurry === 0 && (this.calls > 0 || performance.now() - this.lastActivity < IDLE_MS);
  }

  private pending(): boolean {
    for (const q of this.queues.values()) if (q.items.length) return true;
    return false;
  }

  /**
   * The queue compared next: one whose store has its vectors (or whose caller cannot
   * wait for them). None while every queue waits for its store's backfill.
   */
  private nextQueue() {
    for (const q of this.queues.values()) {
      if (q.items.length === 0) continue;
      if (this.hurry > 0 || !this.host.vectorsFilling?.(q.store)) return q;
    }
    return undefined;
  }

  /** The drain, once the writes pause and the vectors are in (at once when someone waits for it). */
  private schedule(): void {
    if (this.closed || this.draining || this.timer || !this.pending()) return;
    const wait = this.busy() || !this.nextQueue() ? IDLE_MS : 0;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.busy() || !this.nextQueue()) this.schedule();
      else this.start();
    }, wait);
    this.timer.unref();
  }

  private start(): void {
    if (this.draining || this.closed) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      this.schedule();
    });
  }

  private async drain(): Promise<void> {
    while (!this.closed && !this.busy()) {
      const next = this.nextQueue();
      if (!next) return;
      const started = performance.now();
      try {
        // Slices of a few memories, one writer at a time (the audit names whose write
        // found each), until the slice's time is up.
        while (next.items.length && performance.now() - started < SLICE_MS) {
          const first = next.items[0] as { actor: string };
          let n = 1;
          while (n < Math.min(SLICE, next.items.length) && next.items[n]?.actor === first.actor)
            n++;
          const slice = next.items.splice(0, n);
          this.detect(
            next.store,
            slice.map((i) => i.rid),
            'write',
            first.actor,
          );
        }
      } catch (err) {
        // A store closed meanwhile (or renamed): the scan finds these later.
        if (next.store.db.open) {
          warn(
            `comparing new memories of store ${next.store.name} for contradictions failed: ${(err as Error).message}`,
          );
        }
        next.items.length = 0;
      }
      if (next.items.length === 0) this.queues.delete(next.store.name);
      // What other clients sent meanwhile goes first.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** New memories wait to be compared, or are being compared. */
  get working(): boolean {
    return this.draining !== null || this.pending();
  }

  /** Resolves when the background queue is empty (tests, benchmarks, close). */
  async idle(): Promise<void> {
    this.hurry++;
    try {
      while (!this.closed && (this.pending() || this.draining)) {
        if (!this.draining) {
          if (this.timer) clearTimeout(this.timer);
          this.timer = null;
          this.start();
        }
        await this.draining;
      }
    } finally {
      this.hurry--;
    }
  }

  /** Drops what waits for a store being closed (the scan finds it later). */
  release(name: string): void {
    this.queues.delete(name);
  }

  /**
   * The backlog: every eligible memory written since `since` (default: since the last
   * scan) compared with its neighbours, in slices, with progress. Returns the counts.
   */
  async scan(
    store: OpenStore,
    actor: Actor,
    since: number | null,
    shouldStop: () => boolean = () => this.closed,
  ): Promise<ConflictScanResult> {
    const started = performance.now();
    const mark = stmt(store.db, 'SELECT last_rid FROM conflict_scan WHERE id = 1').pluck().get() as
      number | undefined;
    const where = since !== null ? 'm.created_at >= ?' : 'm.rid > ?';
    const rids = stmt(
      store.db,
      `SELECT m.rid FROM memory m WHERE ${where} AND ${eligible()} AND length(m.content) <= ${FACT_MAX_CHARS}
        ORDER BY m.rid`,
    )
      .pluck()
      .all(since ?? mark ?? 0) as number[];
    let found = 0;
    const emit = (done: number, finished: boolean) =>
      this.host.events.emit('conflict.progressed', {
        store: store.name,
        done,
        total: rids.length,
        found,
        finished,
      });
    emit(0, rids.length === 0);
    for (let i = 0; i < rids.length; i += SCAN_SLICE) {
      if (shouldStop()) break;
      const slice = rids.slice(i, i + SCAN_SLICE);
      const marks = this.detect(store, slice, 'scan', actorName(actor));
      found += new Set([...marks.values()].flat().map((m) => m.conflict)).size;
      const last = slice[slice.length - 1] as number;
      stmt(
        store.db,
        `INSERT INTO conflict_scan (id, last_rid, at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET last_rid = MAX(last_rid, excluded.last_rid), at = excluded.at`,
      ).run(last, this.host.now());
      emit(Math.min(rids.length, i + SCAN_SLICE), i + SCAN_SLICE >= rids.length);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { examined: rids.length, found, ms: Math.round(performance.now() - started) };
  }

  /** A decision on conflicts (store.ts), then its events. */
  resolve(store: OpenStore, actor: Actor, args: ResolveArgs): ConflictResolveResult {
    const out = resolveConflicts(store, actor, args, this.host.now());
    this.after(store, actor, out, 'resolved');
    return { resolved: out.views };
  }

  /** A decision undone. */
  reopen(store: OpenStore, actor: Actor, id: string): ConflictView {
    const out = reopenConflict(store, actor, id, this.host.now());
    this.after(store, actor, out, 'reopened');
    return out.view;
  }

  private after(
    store: OpenStore,
    actor: Actor,
    out: ResolveOutcome,
    change: 'resolved' | 'reopened',
  ): void {
    if (out.changed.length) this.host.changedMemories(store, out.changed, actor);
    if (out.links.length) this.host.changedLinks(store, out.links, actorName(actor));
    this.host.events.emit('conflict.changed', {
      store: store.name,
      ids: out.views.map((v) => v.id),
      change,
      actor: actorName(actor),
    });
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queues.clear();
  }
}
