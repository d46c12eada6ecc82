// The semantic side of the engine, per store: the vector index of the active model,
// the recogniser, the embedding backfill and the abstention calibration. The model
// operations (list, install, remove, use) are embed/catalogueService.ts. The engine
// calls in here; nothing here knows about transports.
import type { Actor, CalibrationResult, EmbeddingStatusView } from '../../shared/api';
import type { Config } from './config';
import { backfill, missingCount } from './embed/backfill';
import { ModelCatalogue } from './embed/catalogueService';
import { catalogue } from './embed/models';
import { EmbeddingService } from './embed/service';
import type { EngineEvents } from './events';
import type { TrimDepth } from './footprint';
import { calibrate, readCalibration, threshold } from './recall/calibration';
import { notEmbeddedNote, type RecallContext } from './recall/recall';
import { Recognizer } from './recall/recognizer';
import { searchVectors, vectorOf, VectorIndex } from './recall/vectorIndex';
import type { CreatedMemory } from './memory/remember';
import type { OpenStore } from './store/registry';
import { stmt } from './store/statements';
import { warn } from './warnings';
import { WriteBursts } from './writeBursts';

interface StoreRuntime {
  index: VectorIndex | null;
  recognizer: Recognizer | null;
  /**
   * Memories written since the recogniser last took new ones in (from `unrecognizedAt`
   * on): they join it once large writes pause, in slices (recognizing), or all at once
   * before anything reads or changes it. A writer answers without waiting for them.
   */
  unrecognized: CreatedMemory[];
  unrecognizedAt: number;
  recognizing: Promise<void> | null;
  backfill: Promise<void> | null;
  /** Another backfill was asked for while one ran. */
  again: boolean;
  /** The store is being closed (renamed): its backfill stops after the batch in hand. */
  stopped: boolean;
  /**
   * Exactly the live memories without a vector of the index's model, when known (null:
   * they must be looked for). Kept by the writes, so that neither recall nor the backfill
   * after a write scans the whole store.
   */
  pending: Set<number> | null;
  /** How many there are, when only counted (after a restart or a model change). */
  counted: number | null;
}

export type EmbedWrites = 'background' | 'await';

/** In `await` mode, recall embeds up to this many waiting memories before it searches. */
const AWAIT_BACKFILL_LIMIT = 512;
/**
 * Read your writes, in the daemon: a write of up to this many memories embeds them before
 * it returns (at most WRITE_EMBED_MS; past that the background finishes them) …
 */
export const WRITE_EMBED_MAX = 16;
export const WRITE_EMBED_MS = 2000;
/**
 * … and a recall first waits (at most QUERY_EMBED_MS) for a backlog of up to this many,
 * so that what was just written is found by meaning too. A larger backlog (a bulk import,
 * a model change) is not waited for: the answer says how many are not embedded yet.
 */
export const QUERY_EMBED_MAX = 256;
export const QUERY_EMBED_MS = 3000;

/** The recogniser takes in waiting memories for this long at a time (memoriesCreated). */
const RECOGNIZE_SLICE_MS = 8;

/** Resolves with the promise's outcome, or with `false` once `ms` have passed. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface SemanticOptions {
  dataDir: string;
  config: Config;
  events: EngineEvents;
  now: () => number;
  embedWrites: EmbedWrites;
  env?: Record<string, string | undefined>;
}

export class Semantic {
  readonly embedding: EmbeddingService;
  /** The model operations: list, offer, install, remove, use. */
  readonly models: ModelCatalogue;
  private readonly runtimes = new Map<string, StoreRuntime>();
  private closed = false;
  /** What the backfill and the recogniser's intake give way to (writes too large to embed at once). */
  private readonly bursts = new WriteBursts(WRITE_EMBED_MAX);

  constructor(private readonly options: SemanticOptions) {
    this.embedding = new EmbeddingService({
      dataDir: options.dataDir,
      configured: options.config.embedding.model,
      threads: options.config.embedding.threads,
      batchSize: options.config.embedding.batch_size,
      ...(options.env ? { env: options.env } : {}),
    });
    this.models = new ModelCatalogue({
      ...options,
      embedding: this.embedding,
      reconfigure: (configured, stores) => this.reconfigure(configured, stores),
    });
  }

  private runtime(store: OpenStore): StoreRuntime {
    let r = this.runtimes.get(store.name);
    if (!r) {
      r = {
        index: null,
        recognizer: null,
        unrecognized: [],
        unrecognizedAt: 0,
        recognizing: null,
        backfill: null,
        again: false,
        stopped: false,
        pending: null,
        counted: null,
      };
      this.runtimes.set(store.name, r);
    }
    return r;
  }

  private index(store: OpenStore): VectorIndex {
    const r = this.runtime(store);
    const model = this.embedding.modelId;
    if (!r.index || r.index.model !== model) {
      r.index = VectorIndex.load(store.db, model, this.embedding.dims);
      r.pending = null;
      r.counted = null;
    }
    return r.index;
  }

  /**
   * Vectors were removed outside the write path (a doctor's repair): drop the in-memory
   * index and what is known to be missing, so both are read again from the database.
   */
  vectorsChanged(store: OpenStore): void {
    const r = this.runtime(store);
    r.index = null;
    r.pending = null;
    r.counted = null;
  }

  /**
   * The k memories nearest by meaning to a stored memory (its own vector of the active
   * model), among those passing `filter`; none while it has no vector.
   */
  nearestTo(
    store: OpenStore,
    rid: number,
    k: number,
    filter: { sql: string; params: unknown[] },
  ): number[] {
    const index = this.index(store);
    if (index.size === 0) return [];
    const blob = stmt(store.db, 'SELECT vector FROM memory_embedding WHERE rid = ? AND model = ?')
      .pluck()
      .get(rid, index.model) as Buffer | undefined;
    if (!blob) return [];
    return searchVectors(store.db, index, vectorOf(blob), k + 1, filter)
      .hits.map((h) => h.rid)
      .filter((r) => r !== rid)
      .slice(0, k);
  }

  /** How many live memories wait for a vector of the active model. */
  private missing(store: OpenStore): number {
    const index = this.index(store);
    const r = this.runtime(store);
    if (r.pending) return r.pending.size;
    if (r.counted === null) {
      r.counted = missingCount(store.db, index.model);
      if (r.counted === 0) r.pending = new Set();
    }
    return r.counted;
  }

  /** A memory left the live set (forgotten or erased): it no longer waits for a vector. */
  private dropPending(store: OpenStore, rid: number): void {
    const r = this.runtime(store);
    if (r.pending) r.pending.delete(rid);
    else r.counted = null;
  }

  private recognizer(store: OpenStore): Recognizer {
    const r = this.runtime(store);
    if (r.recognizer) this.recognizePending(r);
    else {
      const rec = new Recognizer();
      for (const row of stmt(
        store.db,
        'SELECT rid, title, content FROM memory WHERE deleted_at IS NULL',
      ).iterate() as Iterable<{
        rid: number;
        title: string;
        content: string;
      }>) {
        rec.add(row.rid, row.title, row.content);
      }
      r.recognizer = rec;
    }
    return r.recognizer;
  }

  /**
   * New memories join the recogniser (when it is built) without being read back, once
   * large writes pause (as the backfill does, giveWay), a slice at a time between other
   * work; or all at once when the recogniser is read or changed first.
   */
  memoriesCreated(store: OpenStore, created: readonly CreatedMemory[]): void {
    const r = this.runtime(store);
    if (!r.recognizer || created.length === 0) return;
    for (const m of created) r.unrecognized.push(m);
    r.recognizing ??= this.recognizeWhenQuiet(r);
  }

  private async recognizeWhenQuiet(r: StoreRuntime): Promise<void> {
    try {
      while (r.recognizer && r.unrecognizedAt < r.unrecognized.length && !this.closed) {
        await this.bursts.giveWay(() => r.recognizer === null || r.stopped);
        this.recognizePending(r, RECOGNIZE_SLICE_MS);
        // Calls that came meanwhile go first.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      r.recognizing = null;
    }
  }

  /**
   * Adds the memories written since the recogniser last took them in: all of them, or
   * those it can in `sliceMs`.
   */
  private recognizePending(r: StoreRuntime, sliceMs = Number.POSITIVE_INFINITY): void {
    const rec = r.recognizer;
    const queue = r.unrecognized;
    if (!rec) {
      // Built again from the database when next needed, which holds them all.
      r.unrecognized = [];
      r.unrecognizedAt = 0;
      return;
    }
    const end = performance.now() + sliceMs;
    let at = r.unrecognizedAt;
    while (at < queue.length) {
      const m = queue[at++] as CreatedMemory;
      rec.add(m.rid, m.title, m.content, m.recognizerKeys);
      if ((at & 63) === 0 && performance.now() >= end) break;
    }
    if (at >= queue.length) {
      r.unrecognized = [];
      r.unrecognizedAt = 0;
    } else r.unrecognizedAt = at;
  }

  /** Keeps the recogniser in step after memories changed (by id). */
  memoriesChanged(store: OpenStore, ids: string[]): void {
    const r = this.runtime(store);
    // A change applies after the memories still waiting to join (it may be to one of them).
    this.recognizePending(r);
    const rec = r.recognizer;
    const index = r.index;
    if (!rec && !index) return;
    const get = stmt(store.db, 'SELECT rid, title, content, deleted_at FROM memory WHERE id = ?');
    const hasVector = stmt(store.db, 'SELECT 1 FROM memory_embedding WHERE rid = ? AND model = ?');
    for (const id of ids) {
      const row = get.get(id) as
        { rid: number; title: string; content: string; deleted_at: number | null } | undefined;
      if (!row) continue; // erased: the recogniser drops it lazily below
      if (row.deleted_at === null) {
        rec?.add(row.rid, row.title, row.content);
        // An edit deletes the stored vector: its code must not stay in the pre-filter.
        if (index && !hasVector.get(row.rid, index.model)) index.remove(row.rid);
      } else {
        rec?.remove(row.rid);
        index?.remove(row.rid);
        this.dropPending(store, row.rid);
      }
    }
  }

  /** Drops an erased memory (its row is gone, so it is looked up before the erase). */
  forgetRid(store: OpenStore, rid: number): void {
    this.recognizePending(this.runtime(store));
    this.runtime(store).recognizer?.remove(rid);
    this.runtime(store).index?.remove(rid);
    this.dropPending(store, rid);
  }

  /**
   * After a write: embed what is missing, now (CLI) or in the background (daemon, app).
   * New memories (`created`, by id) join the known backlog; any other write (an edit, a
   * restore) makes it unknown, to be looked for again.
   */
  async afterWrite(store: OpenStore, created?: readonly CreatedMemory[]): Promise<void> {
    const r = this.runtime(store);
    if (created && r.pending) {
      for (const m of created) r.pending.add(m.rid);
    } else if (created && r.counted !== null) {
      r.counted += created.length;
    } else {
      r.pending = null;
      r.counted = null;
    }
    if (this.options.embedWrites === 'background') {
      if (created) this.bursts.wrote(created.length);
      // A small write embeds its own memories at once, within a bound, so the next recall
      // finds them by meaning too — ahead of any backlog the background is working
      // through (a bulk import must not make every single write wait for it).
      // While a large backlog is being worked through, recall cannot read every write
      // anyway (it says so), and waiting would make each write wait for a batch of it.
      if (created && created.length > 0 && created.length <= WRITE_EMBED_MAX) {
        const own = this.embedOwn(store, created);
        if (this.missing(store) - created.length <= QUERY_EMBED_MAX) {
          await within(own, WRITE_EMBED_MS);
        }
      }
      void this.scheduleBackfill(store);
      return;
    }
    // A one-shot process embeds what it wrote before it returns; a large backlog (after
    // a model change) is `loci embed`'s work, not a single write's.
    if (this.missing(store) <= AWAIT_BACKFILL_LIMIT) {
      await this.scheduleBackfill(store);
    } else if (created) {
      const embedder = await this.embedding.embedder();
      await backfill(store.db, embedder, this.index(store), this.options.now, {
        rids: created.map((m) => m.rid),
        batch: this.options.config.embedding.batch_size,
      });
      r.pending = null;
      r.counted = null;
    }
  }

  /**
   * Embeds just these new memories now (a write's own, in the daemon). A backfill running
   * meanwhile finds them embedded and skips them; a failure leaves them to it.
   */
  private async embedOwn(store: OpenStore, created: readonly CreatedMemory[]): Promise<void> {
    const r = this.runtime(store);
    try {
      // As after the scan: what other clients sent meanwhile is read first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const embedder = await this.embedding.embedder();
      const index = this.index(store);
      const rids = created.map((m) => m.rid);
      await backfill(store.db, embedder, index, this.options.now, { rids, lane: 'interactive' });
      if (r.pending) for (const rid of rids) r.pending.delete(rid);
      else if (r.counted !== null) r.counted = null;
    } catch (err) {
      warn(
        `embedding new memories of store ${store.name} failed (the backfill retries): ${(err as Error).message}`,
      );
    }
  }

  /** Starts (or queues) the backfill of a store. Resolves when nothing is missing. */
  scheduleBackfill(store: OpenStore): Promise<void> {
    const r = this.runtime(store);
    if (r.backfill) {
      r.again = true;
      return r.backfill;
    }
    r.backfill = (async () => {
      try {
        do {
          r.again = false;
          const embedder = await this.embedding.embedder();
          const index = this.index(store);
          await backfill(store.db, embedder, index, this.options.now, {
            onProgress: (p) =>
              this.options.events.emit('embedding.progressed', { store: store.name, ...p }),
            shouldStop: () => this.closed || r.stopped,
            ...(this.options.embedWrites === 'background'
              ? { giveWay: () => this.bursts.giveWay(() => r.stopped) }
              : {}),
            batch: this.options.config.embedding.batch_size,
            ...(r.pending ? { rids: [...r.pending] } : {}),
          });
        } while (r.again && !this.closed && !r.stopped);
        // Nothing was written since the last batch found no more work (a write would have
        // asked for another round), so nothing is missing.
        if (!this.closed && !r.stopped) {
          r.pending = new Set();
          r.counted = null;
        }
        if (this.options.embedWrites === 'background') await this.maybeRecalibrate(store);
      } catch (err) {
        r.pending = null;
        r.counted = null;
        warn(`embedding backfill of store ${store.name} stopped: ${(err as Error).message}`);
      } finally {
        r.backfill = null;
      }
    })();
    return r.backfill;
  }

  /**
   * A write of `count` memories begins: one too large to embed at once holds the daemon's
   * backfill and the recogniser's intake back until it ends, and a little after
   * (writeBursts.ts). Returns its end.
   */
  writing(count: number): () => void {
    return this.options.embedWrites === 'background' ? this.bursts.writing(count) : () => {};
  }

  /** Calibrates again when the store has grown enough since the last calibration. */
  private async maybeRecalibrate(store: OpenStore): Promise<void> {
    const index = this.index(store);
    if (index.size < 20) return;
    const last = readCalibration(store, index.model);
    if (last && index.size < last.memories * this.options.config.recall.recalibrate_growth) return;
    if (this.closed) return;
    try {
      // Not `calibrate()`: it waits for the backfill, and this runs inside it.
      await this.calibrateNow(store, 200);
    } catch (err) {
      warn(`calibration of store ${store.name} failed: ${(err as Error).message}`);
    }
  }

  async calibrate(store: OpenStore, sample: number): Promise<CalibrationResult> {
    await this.scheduleBackfill(store);
    return this.calibrateNow(store, sample);
  }

  private async calibrateNow(store: OpenStore, sample: number): Promise<CalibrationResult> {
    const embedder = await this.embedding.embedder();
    return calibrate(store, embedder, this.index(store), sample, this.options.now());
  }

  /** What recall needs from this side for one call. */
  async recallContext(
    store: OpenStore,
    actor: Actor,
    now: number,
    rehearse: RecallContext['rehearse'],
    /** Another ranking configuration than the store's (the quality lab compares two). */
    recallConfig: Config['recall'] = this.options.config.recall,
  ): Promise<RecallContext> {
    const status = this.embedding.status();
    let index = this.index(store);
    let pending = this.missing(store);
    if (pending > 0 && this.options.embedWrites === 'background') {
      const running = this.scheduleBackfill(store);
      // Read your writes: a small backlog is embedded before the vector branch runs.
      if (pending <= QUERY_EMBED_MAX && recallConfig.use_vectors) {
        await within(this.bursts.hurry(running), QUERY_EMBED_MS);
        index = this.index(store);
        pending = this.missing(store);
      }
    }
    // A one-shot process (the CLI) embeds a few stragglers before it searches; a large
    // backlog (after a model change) is left to `loci embed`, and the answer says so.
    if (pending > 0 && pending <= AWAIT_BACKFILL_LIMIT && this.options.embedWrites === 'await') {
      await this.scheduleBackfill(store);
      index = this.index(store);
      pending = this.missing(store);
    }
    const notes: string[] = [];
    if (!status.semantic) {
      notes.push(
        `semantic: off — ${status.note ?? 'no embedding model'}; vectors come from the hashing fallback, which matches spelling, not meaning (install one: \`loci models install ${catalogue().default}\`, or Settings in the observatory)`,
      );
    }
    const useVectors = recallConfig.use_vectors;
    const vectors =
      useVectors && index.size > 0
        ? { embedder: await this.embedding.embedder(), index, pending }
        : null;
    if (!useVectors)
      notes.push('vector search is switched off in the configuration (recall.use_vectors)');
    else if (!vectors && pending > 0) notes.push(notEmbeddedNote(pending));
    else if (!vectors) notes.push('no memory has a vector yet: recall is lexical only');
    return {
      store,
      actor,
      now,
      config: recallConfig,
      vectors,
      semantic: status.semantic,
      recognizer: this.recognizer(store),
      threshold: threshold(store, index.model),
      notes,
      rehearse,
    };
  }

  statusFor(store: OpenStore): EmbeddingStatusView {
    const model = this.embedding.modelId;
    return {
      model,
      semantic: this.embedding.status().semantic ? 'on' : 'off',
      embedded: (
        stmt(
          store.db,
          'SELECT COUNT(*) AS n FROM memory_embedding e JOIN memory m ON m.rid = e.rid WHERE e.model = ? AND m.deleted_at IS NULL',
        ).get(model) as { n: number }
      ).n,
      pending: missingCount(store.db, model),
    };
  }

  /**
   * After a model change: the daemon fills in the new model's vectors in the background;
   * a one-shot process leaves them to `loci embed` (it would be cut off at exit).
   */
  async reconfigure(configured: string, openStores: OpenStore[]): Promise<void> {
    await this.embedding.reconfigure(configured);
    for (const store of openStores) {
      const r = this.runtime(store);
      r.index = null;
      if (this.options.embedWrites === 'background') void this.scheduleBackfill(store);
    }
  }

  /**
   * Gives back memory (engine/footprint.ts). Under pressure, each store's recogniser and
   * vector pre-filter are dropped, to be built again by the next recall that needs them
   * (not while a backfill is filling the index). The embedder gives back its kept query
   * vectors and idle workers (embed/service.ts).
   */
  async release(depth: TrimDepth): Promise<void> {
    await this.embedding.release(depth);
    if (depth !== 'pressure') return;
    for (const r of this.runtimes.values()) {
      // Built again from the database, which holds the memories still waiting to join.
      r.recognizer = null;
      this.recognizePending(r);
      if (!r.backfill) r.index = null;
    }
  }

  /** Lets go of a store about to be closed: stops and waits for its backfill. */
  async releaseStore(name: string): Promise<void> {
    const r = this.runtimes.get(name);
    if (!r) return;
    r.stopped = true;
    this.bursts.endWaits();
    r.recognizer = null;
    this.recognizePending(r);
    await (r.backfill ?? Promise.resolve());
    this.runtimes.delete(name);
  }

  /** The store's vectors are being filled in (a backfill runs in it). */
  backfilling(store: OpenStore): boolean {
    return (this.runtimes.get(store.name)?.backfill ?? null) !== null;
  }

  /** A backfill runs in some store, or its recogniser has new memories to take in. */
  get working(): boolean {
    for (const r of this.runtimes.values()) if (r.backfill || r.recognizing) return true;
    return false;
  }

  /**
   * Resolves once no backfill runs and the recogniser has taken in every new memory (new
   * writes during the wait are waited for too).
   */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.runtimes.values()].flatMap((r) =>
        [r.backfill, r.recognizing].filter((p): p is Promise<void> => p !== null),
      );
      if (running.length === 0) return;
      await this.bursts.hurry(Promise.all(running));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.bursts.close();
    for (const r of this.runtimes.values()) {
      r.recognizer = null;
      this.recognizePending(r);
    }
    await Promise.all([...this.runtimes.values()].map((r) => r.backfill ?? Promise.resolve()));
    await this.embedding.close();
  }
}
