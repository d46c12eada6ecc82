// The hashing fallback as the engine runs it when no model is installed. Hashing a text
// takes tens of microseconds: a query, or a write's own few memories, are hashed right
// here; a backfill's bulk (thousands after an import) goes to a worker thread, so that
// the thread answering clients does not spend a batched write's time on vectors.
import { warn } from '../warnings';
import { HASH_EMBEDDER_ID, HashEmbedder } from './hashEmbedder';
import type { Embedder, EmbedKind, EmbedLane } from './types';
import { WorkerEmbedder } from './workerHost';

/** Fewer texts than this are hashed on the calling thread, whatever their lane. */
const OFFLOAD_MIN = 16;

export class FallbackEmbedder implements Embedder {
  readonly id = HASH_EMBEDDER_ID;
  readonly semantic = false;
  private readonly local = new HashEmbedder();
  private worker: Promise<WorkerEmbedder | null> | null = null;
  /** Why the bulk is hashed here instead, once the worker failed to start. */
  private failed: string | null = null;

  get dims(): number {
    return this.local.dims;
  }

  get maxTokens(): number {
    return this.local.maxTokens;
  }

  async embed(
    texts: readonly string[],
    kind: EmbedKind,
    lane: EmbedLane = kind === 'query' ? 'interactive' : 'background',
  ): Promise<Float32Array[]> {
    if (lane === 'interactive' || texts.length < OFFLOAD_MIN || this.failed) {
      return this.local.embed(texts, kind);
    }
    const worker = await this.start();
    return worker ? worker.embed(texts, kind, 'background') : this.local.embed(texts, kind);
  }

  private start(): Promise<WorkerEmbedder | null> {
    this.worker ??= WorkerEmbedder.start(null).catch((err: unknown) => {
      this.failed = (err as Error).message;
      warn(
        `the hashing worker did not start (vectors are hashed on the main thread): ${this.failed}`,
      );
      return null;
    });
    return this.worker;
  }

  /** Ends the worker while it has nothing to do (engine/footprint.ts); the next bulk starts it. */
  async release(): Promise<void> {
    const worker = this.worker ? await this.worker : null;
    if (!worker || !worker.idle) return;
    this.worker = null;
    await worker.close();
  }

  async close(): Promise<void> {
    const worker = this.worker ? await this.worker : null;
    this.worker = null;
    await worker?.close();
  }
}
