// The main-thread side of the embedding worker: an Embedder whose work happens in a
// worker thread. Requests are matched to answers by id; if the worker dies, every
// pending request fails with `unavailable` and the next call starts a new worker.
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../workers';
import { LociError } from '../../../shared/errors';
import type { ModelManifest } from './manifest';
import type { Embedder, EmbedKind } from './types';
import type { WorkerRequest, WorkerResponse } from './worker';

export interface WorkerOptions {
  threads?: number;
  batchSize?: number;
}

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

  private constructor(
    private worker: Worker,
    readonly manifest: ModelManifest,
    private readonly dir: string,
    private readonly options: WorkerOptions,
  ) {
    this.attach(worker);
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
    dir: string,
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

  static async start(dir: string, options: WorkerOptions = {}): Promise<WorkerEmbedder> {
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

  async embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    await this.ensureAlive();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, op: 'embed', texts: [...texts], kind } satisfies WorkerRequest);
    }).finally(() => {
      if (this.pending.size === 0) this.worker.unref();
    }) as Promise<Float32Array[]>;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }
}
