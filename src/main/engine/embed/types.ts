// The embedder seen by the rest of the engine: a model (or the hashing fallback) that
// turns texts into unit vectors. Which one is active is decided by embed/service.ts.

export type EmbedKind = 'query' | 'passage';

export interface Embedder {
  /** Identifies the vectors it makes; vectors of different ids are never compared. */
  readonly id: string;
  readonly dims: number;
  /** False for the hashing fallback: its vectors capture spelling, not meaning. */
  readonly semantic: boolean;
  readonly maxTokens: number;
  /** One L2-normalised vector per text, in order. */
  embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]>;
  close(): Promise<void>;
}
