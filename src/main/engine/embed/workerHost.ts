// The main-thread side of the embedding worker: an Embedder whose work happens in a
// worker thread. Requests are matched to answers by id; if the worker dies, every
// pending request fails with `unavailable` and the next call starts a new worker. The
// order requests reach the worker is lanes.ts's: a recall's query never waits behind
// more than one small piece of a backfill.
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../workers';
import { LociError } from '../../../shared/errors';
import type { ModelManifest } from './manifest';
import { LaneScheduler } from './lanes';
import type { Embedder, EmbedKind, EmbedLane } from './types';
import type { WorkerRequest, WorkerResponse } from './worker';

export interface WorkerOptions {
  threads?: number;
  batchSize?: number;
}

/**
 * A backfill's pieces with a model: as many passages as the worker embeds in about
 * 15 ms (learnt as it goes), at most 32. That is about how long a recall's query waits
 * behind a backfill; fixed pieces of 8 passages took 60-80 ms with all-MiniLM-L6-v2 on
 * two busy cores (README, recall with the model while a backfill runs).
 */
const BACKGROUND_BUDGET_MS = 15;
const BACKGROUND_CHUNK = 32;
/** The hashing fallback is ~50 µs a text: its pieces can be larger. */
const HASH_BACKGROUND_CHUNK = 128;

/** The worker: out/main/embedWorker.js once built, worker.ts through tsx from the sources. */
function spawnEmbedWorker(workerData: unknown): Worker {
  return spawnWorker(import.meta.url, 'embedWorker.js', './worker.ts', { workerData });
}

export class WorkerEmbedder implements Embedder {
  readonly semantic = true;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }
  >();

  private readonly lanes: LaneScheduler;

  private constructor(
    private worker: Worker,
    readonly manifest: ModelManifest,
    /** The model's folder; null: the hashing fallback's bulk work. */
    private readonly dir: string | null,
    private readonly options: WorkerOptions,
  ) {
    this.attach(worker);
    this.lanes = new LaneScheduler((texts, kind) => this.request(texts, kind), {
      ...(dir === null
        ? { backgroundChunk: HASH_BACKGROUND_CHUNK }
        : { backgroundChunk: BACKGROUND_CHUNK, backgroundBudgetMs: BACKGROUND_BUDGET_MS }),
      maxMerge: 64,
    });
  }

  /** Requests sent to the worker so far, by lane. */
  get sent(): { interactive: number; background: number } {
    return { ...this.lanes.sent };
  }

  /** Nothing waits for the worker and nothing is asked of it. */
  get idle(): boolean {
    return this.lanes.idle;
  }

  get id(): string {
    return this.manifest.id;
  }

  get dims(): number {
    return this.manifest.dims;
  }

  get maxTokens(): number {
    return this.manifest.max_tokens;
  }

  private static spawn(
    dir: string | null,
    options: WorkerOptions,
  ): Promise<{ worker: Worker; manifest: ModelManifest }> {
    const worker = spawnEmbedWorker({ dir, ...options });
    return new Promise((resolve, reject) => {
      const onMessage = (msg: WorkerResponse) => {
        if (msg.id !== 0) return;
        worker.off('message', onMessage);
        worker.off('error', onError);
        if (msg.op === 'ready') resolve({ worker, manifest: msg.manifest });
        else {
          void worker.terminate();
          reject(
            new LociError(
              'unavailable',
              `The embedding model in ${dir} could not be loaded: ${msg.op === 'failed' ? msg.message : 'unknown reason'}`,
            ),
          );
        }
      };
      const onError = (err: Error) =>
        reject(
          new LociError('unavailable', `The embedding worker failed to start: ${err.message}`),
        );
      worker.on('message', onMessage);
      worker.once('error', onError);
    });
  }

  static async start(dir: string | null, options: WorkerOptions = {}): Promise<WorkerEmbedder> {
    const { worker, manifest } = await WorkerEmbedder.spawn(dir, options);
    return new WorkerEmbedder(worker, manifest, dir, options);
  }

  private attach(worker: Worker): void {
    worker.on('message', (msg: WorkerResponse) => {
      if (msg.id === 0) return;
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.op === 'vectors') waiter.resolve(msg.vectors);
      else if (msg.op === 'error')
        waiter.reject(new LociError('unavailable', `Embedding failed: ${msg.message}`));
      else waiter.resolve([]);
    });
    const fail = (reason: string) => {
      for (const waiter of this.pending.values())
        waiter.reject(new LociError('unavailable', reason));
      this.pending.clear();
      this.dead = true;
    };
    worker.on('error', (err) => fail(`The embedding worker crashed: ${err.message}`));
    worker.on('exit', (code) => {
      if (!this.closing) fail(`The embedding worker exited (code ${code}).`);
    });
    // The worker must never keep a CLI process alive on its own.
    worker.unref();
  }

  private dead = false;
  private closing = false;

  private async ensureAlive(): Promise<void> {
    if (!this.dead) return;
    const { worker } = await WorkerEmbedder.spawn(this.dir, this.options);
    this.worker = worker;
    this.dead = false;
    this.attach(worker);
  }

  embed(
    texts: readonly string[],
    kind: EmbedKind,
    lane: EmbedLane = kind === 'query' ? 'interactive' : 'background',
  ): Promise<Float32Array[]> {
    return this.lanes.run(texts, kind, lane);
  }

  /**
   * Sends a request. A live worker gets it at once, not a microtask later: a recall starts
   * its query's embedding and goes on with its own work on this thread, and only a message
   * already posted is embedded meanwhile.
   */
  private request(texts: string[], kind: EmbedKind): Promise<Float32Array[]> {
    if (this.dead) return this.ensureAlive().then(() => this.post(texts, kind));
    return this.post(texts, kind);
  }

  private post(texts: string[], kind: EmbedKind): Promise<Float32Array[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, op: 'embed', texts, kind } satisfies WorkerRequest);
    }).finally(() => {
      if (this.pending.size === 0) this.worker.unref();
    }) as Promise<Float32Array[]>;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }
}
