// Vector search over one store's embeddings of the active model. Measured on this
// project's CI machine (README, Vector search): sqlite-vec's vec0 scans without SIMD
// (~57 ms at 100k × 384), so the search is staged instead, all but the last in memory:
//  1. a binary pre-filter — one sign bit per dimension, Hamming distance over every
//     vector — keeps the best max(16·k, 256, size/1000) candidates;
//  2. those are rescored with int8 copies of the vectors (one byte per dimension and a
//     scale each: 384 bytes a memory), walked best first through the caller's filter;
//  3. the k that pass (and a few more) get their exact cosine from the stored float
//     vectors with sqlite-vec's vec_distance_l2 (unit length, so L2 ranks as cosine).
// When the store is smaller than the candidate budget, every vector is rescored.
import type { Db } from '../store/database';
import { stmt } from '../store/statements';
import { WASM_BASE64 } from './hammingWasm';

/** Sign bits, little-endian within each byte: bit i is set when v[i] > 0. */
export function binaryCode(v: Float32Array): Uint8Array {
  const code = new Uint8Array(Math.ceil(v.length / 8));
  for (let i = 0; i < v.length; i++) {
    if ((v[i] as number) > 0) code[i >> 3] = (code[i >> 3] as number) | (1 << (i & 7));
  }
  return code;
}

export const RESCORE_FACTOR = 16;
export const RESCORE_FLOOR = 256;
/** The pool also grows with the store (1 in 1,000), so recall does not fall as it grows. */
export const RESCORE_SHARE = 0.001;

/** A float blob from SQLite as a vector (copied: the buffer may be reused). */
export function vectorOf(blob: Buffer): Float32Array {
  const out = new Float32Array(blob.byteLength / 4);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

const HAMMING = new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64'));
const PAGE = 65_536;

interface HammingKernel {
  memory: WebAssembly.Memory;
  distances(
    codes: number,
    query: number,
    n: number,
    words: number,
    dist: number,
    hist: number,
  ): void;
}

export class VectorIndex {
  /** 64-bit words per binary code, and bytes per code in the kernel's memory. */
  private readonly words: number;
  private readonly stride: number;
  /** Codes live in the kernel's memory from offset 0, one `stride` each, by slot. */
  private readonly kernel: HammingKernel;
  private quant: Int8Array;
  private scales: Float32Array;
  private ridOf: Int32Array;
  private readonly slotOf = new Map<number, number>();
  private used = 0;
  private freed: number[] = [];

  constructor(
    readonly model: string,
    readonly dims: number,
    capacity = 1024,
  ) {
    this.words = Math.ceil(dims / 64);
    this.stride = this.words * 8;
    this.kernel = new WebAssembly.Instance(HAMMING).exports as unknown as HammingKernel;
    this.quant = new Int8Array(capacity * dims);
    this.scales = new Float32Array(capacity);
    this.ridOf = new Int32Array(capacity);
    this.reserve();
  }

  get size(): number {
    return this.slotOf.size;
  }

  /** Where the kernel's scratch space sits for the current capacity (after the codes). */
  private scratch(): { query: number; dist: number; hist: number; end: number } {
    const query = this.ridOf.length * this.stride;
    const dist = query + this.stride;
    const hist = (dist + this.ridOf.length * 2 + 3) & ~3;
    return { query, dist, hist, end: hist + (this.dims + 1) * 4 };
  }

  /** Grows the kernel's memory to hold the codes and the scratch space. */
  private reserve(): void {
    const { end } = this.scratch();
    const have = this.kernel.memory.buffer.byteLength;
    if (end > have) this.kernel.memory.grow(Math.ceil((end - have) / PAGE));
  }

  /** Loads every stored vector of this model. */
  static load(db: Db, model: string, dims: number): VectorIndex {
    const count = (
      stmt(db, 'SELECT COUNT(*) AS n FROM memory_embedding WHERE model = ?').get(model) as {
        n: number;
      }
    ).n;
    const index = new VectorIndex(model, dims, Math.max(1024, count));
    for (const row of stmt(db, 'SELECT rid, vector FROM memory_embedding WHERE model = ?').iterate(
      model,
    ) as Iterable<{ rid: number; vector: Buffer }>) {
      index.upsert(row.rid, vectorOf(row.vector));
    }
    return index;
  }

  private grow(): void {
    const capacity = this.ridOf.length * 2;
    const quant = new Int8Array(capacity * this.dims);
    quant.set(this.quant);
    const scales = new Float32Array(capacity);
    scales.set(this.scales);
    const rids = new Int32Array(capacity);
    rids.set(this.ridOf);
    this.quant = quant;
    this.scales = scales;
    this.ridOf = rids;
    // The codes keep their offsets; the scratch space moves up past the new slots.
    this.reserve();
  }

  /** Writes a binary code (zero-padded to whole 64-bit words) at a byte offset. */
  private writeCode(offset: number, code: Uint8Array): void {
    const bytes = new Uint8Array(this.kernel.memory.buffer, offset, this.stride);
    bytes.fill(0);
    bytes.set(code);
  }

  upsert(rid: number, vector: Float32Array): void {
    if (vector.length !== this.dims) {
      throw new Error(`vector of ${vector.length} dimensions for an index of ${this.dims}`);
    }
    let slot = this.slotOf.get(rid);
    if (slot === undefined) {
      slot = this.freed.pop() ?? this.used++;
      if (slot >= this.ridOf.length) this.grow();
      this.slotOf.set(rid, slot);
      this.ridOf[slot] = rid;
    }
    this.writeCode(slot * this.stride, binaryCode(vector));
    let max = 0;
    for (let i = 0; i < this.dims; i++) max = Math.max(max, Math.abs(vector[i] as number));
    const scale = max > 0 ? max / 127 : 1;
    this.scales[slot] = scale;
    const q = slot * this.dims;
    for (let i = 0; i < this.dims; i++)
      this.quant[q + i] = Math.round((vector[i] as number) / scale);
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
    const slots = this.used;
    const at = this.scratch();
    this.writeCode(at.query, binaryCode(query));
    const histogram = new Uint32Array(this.kernel.memory.buffer, at.hist, this.dims + 1);
    histogram.fill(0);
    this.kernel.distances(0, at.query, slots, this.words, at.dist, at.hist);
    const dist = new Uint16Array(this.kernel.memory.buffer, at.dist, slots);
    // Freed slots were measured too: take them out.
    for (const s of this.freed) {
      if (s >= slots) continue;
      histogram[dist[s] as number] = (histogram[dist[s] as number] as number) - 1;
      dist[s] = 0xffff;
    }
    // The distance at which `count` candidates are reached; take everything closer and
    // as many as fit at that distance.
    let threshold = 0;
    for (let acc = 0; threshold <= this.dims; threshold++) {
      acc += histogram[threshold] as number;
      if (acc >= count) break;
    }
    const ridOf = this.ridOf;
    const out: number[] = [];
    const atThreshold: number[] = [];
    for (let s = 0; s < slots; s++) {
      const d = dist[s] as number;
      if (d < threshold) out.push(ridOf[s] as number);
      else if (d === threshold) atThreshold.push(ridOf[s] as number);
    }
    for (const rid of atThreshold) {
      if (out.length >= count) break;
      out.push(rid);
    }
    return out;
  }

  /** Approximate cosine of each rid with the query (int8 copies), best first. */
  rescore(query: Float32Array, rids: readonly number[]): { rid: number; approx: number }[] {
    const dims = this.dims;
    // Locals, not fields, in the hot loop; four sums so the multiplies do not wait on
    // one another (dims is a multiple of 4 for every model Loci runs; the tail is summed
    // on its own for any other).
    const quant = this.quant;
    const scales = this.scales;
    const slotOf = this.slotOf;
    const whole = dims - (dims % 4);
    const out: { rid: number; approx: number }[] = [];
    for (const rid of rids) {
      const slot = slotOf.get(rid);
      if (slot === undefined) continue;
      const base = slot * dims;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let i = 0; i < whole; i += 4) {
        const j = base + i;
        s0 += (quant[j] as number) * (query[i] as number);
        s1 += (quant[j + 1] as number) * (query[i + 1] as number);
        s2 += (quant[j + 2] as number) * (query[i + 2] as number);
        s3 += (quant[j + 3] as number) * (query[i + 3] as number);
      }
      for (let i = whole; i < dims; i++) s0 += (quant[base + i] as number) * (query[i] as number);
      out.push({ rid, approx: (s0 + s1 + (s2 + s3)) * (scales[slot] as number) });
    }
    return out.sort((a, b) => b.approx - a.approx);
  }
}

export interface VectorHit {
  rid: number;
  /** Cosine similarity (unit vectors: 1 − L2² / 2). */
  similarity: number;
}

/** Beyond k, how many int8-ranked hits get their exact score (and may move into the k). */
const EXACT_MARGIN = 8;

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
  const passing = stmt(
    db,
    `SELECT m.rid AS rid FROM memory m
      WHERE m.rid IN (SELECT value FROM json_each(?)) AND ${filter.sql}`,
  ).pluck();
  const want = k + EXACT_MARGIN;
  const chunk = Math.max(4 * want, 64);
  let budget = Math.max(k * RESCORE_FACTOR, RESCORE_FLOOR, Math.ceil(index.size * RESCORE_SHARE));
  for (;;) {
    const rids = index.candidates(query, budget);
    const exact = rids.length >= index.size;
    const ranked = index.rescore(query, rids);
    const kept: number[] = [];
    for (let at = 0; at < ranked.length && kept.length < want; at += chunk) {
      const slice = ranked.slice(at, at + chunk).map((r) => r.rid);
      const ok = new Set(passing.all(JSON.stringify(slice), ...filter.params) as number[]);
      for (const rid of slice) {
        if (ok.has(rid)) kept.push(rid);
        if (kept.length === want) break;
      }
    }
    if (kept.length >= k || exact) {
      const rows = stmt(
        db,
        `SELECT rid, vec_distance_l2(vector, ?) AS d FROM memory_embedding
          WHERE model = ? AND rid IN (SELECT value FROM json_each(?))
          ORDER BY d LIMIT ?`,
      ).all(
        Buffer.from(query.buffer, query.byteOffset, query.byteLength),
        index.model,
        JSON.stringify(kept),
        k,
      ) as { rid: number; d: number }[];
      return {
        hits: rows.map((r) => ({ rid: r.rid, similarity: 1 - (r.d * r.d) / 2 })),
        exact,
        candidates: rids.length,
      };
    }
    budget *= 4;
  }
}
