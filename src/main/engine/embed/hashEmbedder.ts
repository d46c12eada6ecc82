// The fallback when no embedding model is installed: signed feature hashing of words,
// word pairs and character trigrams into 384 dimensions. Deterministic and fast, it
// finds texts that share spelling (typos, word forms, identifiers), not meaning, so it
// reports `semantic: false` and recall says `semantic: off` while it is in use.
import type { ModelManifest } from './manifest';
import type { Embedder, EmbedKind } from './types';
import { l2Normalize } from './pooling';

export const HASH_EMBEDDER_ID = 'hash-384-v1';
const DIMS = 384;

/** What the embedding worker reports of the fallback when it runs it (it is not a model). */
export const HASH_MANIFEST = {
  id: HASH_EMBEDDER_ID,
  dims: DIMS,
  max_tokens: 100_000,
} as ModelManifest;

/** FNV-1a, 32 bits. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function add(v: Float32Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  const index = h % DIMS;
  // An independent bit decides the sign, so collisions cancel out on average.
  const sign = (fnv1a(`~${feature}`) & 1) === 0 ? 1 : -1;
  v[index] = (v[index] as number) + sign * weight;
}

export function hashEmbed(text: string): Float32Array {
  const v = new Float32Array(DIMS);
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  // A word's features (itself and its trigrams) are the same each time it recurs: they
  // are summed once per distinct word and added as often as it occurs.
  const counts = new Map<string, number>();
  const pairs = new Map<string, number>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (i > 0) {
      const pair = `${words[i - 1]} ${word}`;
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
    }
  }
  for (const [pair, n] of pairs) add(v, `b:${pair}`, 0.5 * n);
  for (const [word, n] of counts) {
    add(v, `w:${word}`, n);
    const padded = `#${word}#`;
    for (let j = 0; j + 3 <= padded.length; j++) add(v, `g:${padded.slice(j, j + 3)}`, 0.35 * n);
  }
  return l2Normalize(v);
}

export class HashEmbedder implements Embedder {
  readonly id = HASH_EMBEDDER_ID;
  readonly dims = DIMS;
  readonly semantic = false;
  readonly maxTokens = 100_000;

  async embed(texts: readonly string[], _kind: EmbedKind): Promise<Float32Array[]> {
    return texts.map(hashEmbed);
  }

  async close(): Promise<void> {}
}
