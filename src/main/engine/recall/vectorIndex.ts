// Vector search over one store's embeddings of the active model. Measured on this
// project's CI machine (README, Vector search): sqlite-vec's vec0 scans without SIMD
// (~57 ms at 100k × 384), so the search is two-stage instead:
//  1. a binary pre-filter in memory — one sign bit per dimension, Hamming distance
//     over every vector (~3 ms at 100k, ~28 ms at 1M);
//  2. exact rescoring of the best max(16·k, 256) candidates with sqlite-vec's
//     vec_distance_l2 over the stored float vectors (unit length, so L2 ranks as cosine).
// When the store is smaller than the candidate budget, every vector is rescored: exact.
import type { Db } from '../store/database';
import { stmt } from '../store/statements';

/** Sign bits, little-endian within each byte: bit i is set when v[i] > 0. */
export function binaryCode(v: Float32Array): Uint8Array {
  const code = new Uint8Array(Math.ceil(v.length / 8));
  for (let i = 0; i < v.length; i++) {
    if ((v[i] as number) > 0) code[i >> 3] = (code[i >> 3] as number) | (1 << (i & 7));
  }
  return code;
}

function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export const RESCORE_FACTOR = 16;
export const RESCORE_FLOOR = 256;

export class VectorIndex {
  private readonly words: number;
  private codes: Uint32Array;
  private ridOf: Int32Array;
  private readonly slotOf = new Map<number, number>();
  private used = 0;
  private freed: number[] = [];

  constructor(
    readonly model: string,
    readonly dims: number,
    capacity = 1024,
  ) {
    this.words = Math.ceil(dims / 32);
    this.codes = new Uint32Array(capacity * this.words);
    this.ridOf = new Int32Array(capacity);
  }

  get size(): number {
    return this.slotOf.size;
  }

  /** Loads every stored code of this model. */
  static load(db: Db, model: string, dims: number): VectorIndex {
    const count = (
      stmt(db, 'SELECT COUNT(*) AS n FROM memory_embedding WHERE model = ?').get(model) as {
        n: number;
      }
    ).n;
    const index = new VectorIndex(model, dims, Math.max(1024, count));
    for (const row of stmt(db, 'SELECT rid, code FROM memory_embedding WHERE model = ?').iterate(
      model,
    ) as Iterable<{
      rid: number;
      code: Buffer;
    }>) {
      index.upsert(row.rid, row.code);
    }
    return index;
  }

  private grow(): void {
    const capacity = this.ridOf.length * 2;
    const codes = new Uint32Array(capacity * this.words);
    codes.set(this.codes);
    const rids = new Int32Array(capacity);
    rids.set(this.ridOf);
    this.codes = codes;
    this.ridOf = rids;
  }

  upsert(rid: number, code: Uint8Array): void {
    let slot = this.slotOf.get(rid);
    if (slot === undefined) {
      slot = this.freed.pop() ?? this.used++;
      if (slot >= this.ridOf.length) this.grow();
      this.slotOf.set(rid, slot);
      this.ridOf[slot] = rid;
    }
    const base = slot * this.words;
    for (let w = 0; w < this.words; w++) {
      let word = 0;
      for (let b = 0; b < 4; b++) word |= (code[w * 4 + b] ?? 0) << (8 * b);
      this.codes[base + w] = word >>> 0;
    }
  }

  remove(rid: number): void {
    const slot = this.slotOf.get(rid);
    if (slot === undefined) return;
    this.slotOf.delete(rid);
    this.ridOf[slot] = 0;
    this.freed.push(slot);
  }

  /** The `count` rids nearest to the query code in Hamming distance (ties broken arbitrarily). */
  candidates(query: Float32Array, count: number): number[] {
    const live = this.slotOf.size;
    if (count >= live) return [...this.slotOf.keys()];
    const q = new Uint32Array(this.words);
    const qc = binaryCode(query);
    for (let w = 0; w < this.words; w++) {
      let word = 0;
      for (let b = 0; b < 4; b++) word |= (qc[w * 4 + b] ?? 0) << (8 * b);
      q[w] = word >>> 0;
    }
    const slots = this.used;
    const dist = new Uint16Array(slots);
    const histogram = new Uint32Array(this.dims + 1);
    for (let s = 0; s < slots; s++) {
      if (this.ridOf[s] === 0) {
        dist[s] = 0xffff;
        continue;
      }
      let d = 0;
      const base = s * this.words;
      for (let w = 0; w < this.words; w++)
        d += popcount32(((this.codes[base + w] as number) ^ (q[w] as number)) >>> 0);
      dist[s] = d;
      histogram[d] = (histogram[d] as number) + 1;
    }
    // The distance at which `count` candidates are reached; take everything closer and
    // as many as fit at that distance.
    let threshold = 0;
    for (let acc = 0; threshold <= this.dims; threshold++) {
      acc += histogram[threshold] as number;
      if (acc >= count) break;
    }
    const out: number[] = [];
    const atThreshold: number[] = [];
    for (let s = 0; s < slots; s++) {
      const d = dist[s] as number;
      if (d < threshold) out.push(this.ridOf[s] as number);
      else if (d === threshold) atThreshold.push(this.ridOf[s] as number);
    }
    for (const rid of atThreshold) {
      if (out.length >= count) break;
      out.push(rid);
    }
    return out;
  }
}

export interface VectorHit {
  rid: number;
  /** Cosine similarity (unit vectors: 1 − L2² / 2). */
  similarity: number;
}

/**
 * The k nearest memories passing `filter` (an SQL condition on `m`). Candidates that
 * fail the filter are replaced by widening the pre-filter, up to the whole index.
 */
export function searchVectors(
  db: Db,
  index: VectorIndex,
  query: Float32Array,
  k: number,
  filter: { sql: string; params: unknown[] },
): { hits: VectorHit[]; exact: boolean; candidates: number } {
  const blob = Buffer.from(query.buffer, query.byteOffset, query.byteLength);
  let budget = Math.max(k * RESCORE_FACTOR, RESCORE_FLOOR);
  for (;;) {
    const rids = index.candidates(query, budget);
    const exact = rids.length >= index.size;
    const rows = stmt(
      db,
      `SELECT e.rid AS rid, vec_distance_l2(e.vector, ?) AS d
         FROM memory_embedding e JOIN memory m ON m.rid = e.rid
        WHERE e.rid IN (SELECT value FROM json_each(?)) AND e.model = ? AND ${filter.sql}
        ORDER BY d LIMIT ?`,
    ).all(blob, JSON.stringify(rids), index.model, ...filter.params, k) as {
      rid: number;
      d: number;
    }[];
    if (rows.length >= k || exact) {
      return {
        hits: rows.map((r) => ({ rid: r.rid, similarity: 1 - (r.d * r.d) / 2 })),
        exact,
        candidates: rids.length,
      };
    }
    budget *= 4;
  }
}
