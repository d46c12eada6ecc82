// The embedder seen by the rest of the engine: a model (or the hashing fallback) that
// turns texts into unit vectors. Which one is active is decided by embed/service.ts.

export type EmbedKind = 'query' | 'passage';

/**
 * Who waits for the vectors: `interactive` (a recall's query, a write's own memories —
 * someone is waiting) goes ahead of `background` (the backfill of a backlog), which is
 * worked through in small pieces so that an interactive request never waits for more
 * than one of them. Defaults: queries interactive, passages background.
 */
export type EmbedLane = 'interactive' | 'background';

export interface Embedder {
  /** Identifies the vectors it makes; vectors of different ids are never compared. */
  readonly id: string;
  readonly dims: number;
  /** False for the hashing fallback: its vectors capture spelling, not meaning. */
  readonly semantic: boolean;
  readonly maxTokens: number;
  /** One L2-normalised vector per text, in order. */
  embed(texts: readonly string[], kind: EmbedKind, lane?: EmbedLane): Promise<Float32Array[]>;
  close(): Promise<void>;
}
