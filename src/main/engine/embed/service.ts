// The engine's one embedder: the configured ONNX model, loaded on first use in a
// worker thread, or the hashing fallback when no model is installed (or the model
// fails to load, which is then said in every answer). One copy per engine, shared by
// every store and client.
import type { TrimDepth } from '../footprint';
import { FallbackEmbedder } from './fallback';
import { HASH_EMBEDDER_ID, HASH_MANIFEST } from './hashEmbedder';
import { chooseModel, type FoundModel } from './models';
import type { Embedder } from './types';
import { CachingEmbedder } from './queryCache';
import { WorkerEmbedder } from './workerHost';
import { warn } from '../warnings';

export interface EmbeddingStatus {
  /** The id vectors are made with now (or will be once loaded). */
  model: string;
  semantic: boolean;
  loaded: boolean;
  /** Why semantic recall is off, when it is. */
  note: string | null;
}

export interface EmbeddingServiceOptions {
  dataDir: string;
  configured: string;
  threads?: number | undefined;
  batchSize?: number | undefined;
  env?: Record<string, string | undefined>;
}

export class EmbeddingService {
  private loading: Promise<Embedder> | null = null;
  /** The active embedder, its query vectors cached (queryCache.ts). */
  private current: CachingEmbedder | null = null;
  private chosen: FoundModel | null;
  private note: string | null;
  private loadFailure: string | null = null;

  constructor(private options: EmbeddingServiceOptions) {
    const choice = chooseModel(options.dataDir, options.configured, options.env);
    this.chosen = choice.model;
    this.note = choice.note;
  }

  /** The model id that vectors are (or will be) made with, without loading anything. */
  get modelId(): string {
    if (this.current) return this.current.id;
    return this.chosen && !this.loadFailure ? this.chosen.manifest.id : HASH_EMBEDDER_ID;
  }

  get dims(): number {
    return (
      this.current?.dims ??
      (this.chosen && !this.loadFailure ? this.chosen.manifest.dims : HASH_MANIFEST.dims)
    );
  }

  /** The active model's window in tokens; null for the hashing fallback (no window). */
  get maxTokens(): number | null {
    if (this.current) return this.current.semantic ? this.current.maxTokens : null;
    return this.chosen && !this.loadFailure ? this.chosen.manifest.max_tokens : null;
  }

  status(): EmbeddingStatus {
    const semantic = this.chosen !== null && this.loadFailure === null;
    return {
      model: this.modelId,
      semantic,
      loaded: this.current !== null,
      note: semantic ? null : (this.loadFailure ?? this.note),
    };
  }

  /** The embedder, loading the model the first time. Never rejects: it falls back. */
  embedder(): Promise<Embedder> {
    if (this.current) return Promise.resolve(this.current);
    this.loading ??= (async () => {
      if (this.chosen && !this.loadFailure) {
        try {
          this.current = new CachingEmbedder(
            await WorkerEmbedder.start(this.chosen.dir, {
              ...(this.options.threads ? { threads: this.options.threads } : {}),
              ...(this.options.batchSize ? { batchSize: this.options.batchSize } : {}),
            }),
          );
          return this.current;
        } catch (err) {
          this.loadFailure = `the model ${this.chosen.manifest.id} failed to load (${(err as Error).message})`;
          warn(this.loadFailure);
        }
      }
      this.current = new CachingEmbedder(new FallbackEmbedder());
      return this.current;
    })();
    return this.loading;
  }

  /** Switches to another configured choice (after `loci models use` or an install). */
  async reconfigure(configured: string): Promise<EmbeddingStatus> {
    await this.close();
    this.options = { ...this.options, configured };
    const choice = chooseModel(this.options.dataDir, configured, this.options.env);
    this.chosen = choice.model;
    this.note = choice.note;
    this.loadFailure = null;
    return this.status();
  }

  /**
   * Gives back memory (engine/footprint.ts): the kept query vectors, and the hashing
   * fallback's worker while it has nothing to do. A model is unloaded only under memory
   * pressure and when idle: loading it again takes seconds, and a query would wait.
   */
  async release(depth: TrimDepth): Promise<void> {
    const current = this.current;
    if (!current) return;
    current.clear();
    const inner = current.inner;
    if (inner instanceof FallbackEmbedder) await inner.release();
    else if (depth === 'pressure' && inner instanceof WorkerEmbedder && inner.idle) {
      this.current = null;
      this.loading = null;
      await inner.close();
    }
  }

  async close(): Promise<void> {
    const embedder = this.current ?? (this.loading ? await this.loading : null);
    this.current = null;
    this.loading = null;
    await embedder?.close();
  }
}
