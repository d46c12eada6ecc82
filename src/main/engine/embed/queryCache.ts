// Query vectors kept for queries asked again: an agent repeats its questions (the same
// recall at the start of every task, the observatory's Recall lab re-run), and a query's
// embedding is most of a recall's time with a model. Keyed by the exact text; the cache
// belongs to one embedder, so a model change starts an empty one.
import { LRUCache } from 'lru-cache';
import type { Embedder, EmbedKind, EmbedLane } from './types';

/** ~1.5 KiB a vector at 384 dimensions: at most ~1.5 MiB. */
const MAX_QUERIES = 1000;

export class CachingEmbedder implements Embedder {
  private readonly cache = new LRUCache<string, Float32Array>({ max: MAX_QUERIES });
  hits = 0;

  constructor(readonly inner: Embedder) {}

  get id(): string {
    return this.inner.id;
  }

  get dims(): number {
    return this.inner.dims;
  }

  get semantic(): boolean {
    return this.inner.semantic;
  }

  get maxTokens(): number {
    return this.inner.maxTokens;
  }

  async embed(
    texts: readonly string[],
    kind: EmbedKind,
    lane?: EmbedLane,
  ): Promise<Float32Array[]> {
    if (kind !== 'query') return this.inner.embed(texts, kind, lane);
    const out = texts.map((t) => this.cache.get(t));
    const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))];
    if (missing.length > 0) {
      const vectors = await this.inner.embed(missing, kind, lane);
      missing.forEach((t, i) => this.cache.set(t, vectors[i] as Float32Array));
    }
    this.hits += texts.length - missing.length;
    return texts.map((t, i) => out[i] ?? (this.cache.get(t) as Float32Array));
  }

  /** Forgets the kept queries (engine/footprint.ts). */
  clear(): void {
    this.cache.clear();
  }

  close(): Promise<void> {
    this.cache.clear();
    return this.inner.close();
  }
}
