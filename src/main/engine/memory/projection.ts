// Where each memory sits on a map of meaning: its embedding projected to two dimensions
// by principal component analysis (ml-pca), so that memories near each other on the map
// say similar things. The Atlas starts from these positions and lets the links refine
// them. Only the vectors of one model are compared (the one most of the memories have).
import { PCA } from 'ml-pca';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { vectorOf } from '../recall/vectorIndex';

/** Rows per IN (…) list. */
const CHUNK = 4000;
/** Fewer vectors than this say nothing about the shape of the store. */
const MIN_VECTORS = 3;

/**
 * The 2-D position of each memory with a vector (by rid), each axis scaled to unit
 * variance, or an empty map when too few memories have one.
 */
/** Vectors the axes are fitted on at most (a spread sample): the fit stays well under a second. */
const FIT_SAMPLE = 240;
/** The axes are fitted again once the vectors of the model grew by this share. */
const REFIT_GROWTH = 0.25;

interface Axes {
  model: string;
  count: number;
  mean: Float64Array;
  axes: [Float64Array, Float64Array];
  /** Spread of the fitted sample along each axis, to scale to unit variance. */
  sd: [number, number];
}

/**
 * The two principal axes of a store's vectors of one model, kept between calls so that the
 * map neither jumps nor costs a fit on every refresh.
 */
const fitted = new WeakMap<OpenStore['db'], Axes>();

function dot(v: Float32Array, mean: Float64Array, axis: Float64Array): number {
  let s = 0;
  for (let k = 0; k < v.length; k++) s += (v[k]! - mean[k]!) * axis[k]!;
  return s;
}

function fit(model: string, vectors: readonly Float32Array[]): Axes {
  const step = Math.max(1, Math.floor(vectors.length / FIT_SAMPLE));
  const sample: number[][] = [];
  for (let i = 0; i < vectors.length && sample.length < FIT_SAMPLE; i += step)
    sample.push(Array.from(vectors[i] as Float32Array));
  const pca = new PCA(sample, { method: 'SVD', center: true, scale: false });
  const eigen = pca.getEigenvectors();
  const dims = sample[0]?.length ?? 0;
  const axis = (c: number) => Float64Array.from({ length: dims }, (_, k) => eigen.get(k, c) ?? 0);
  const mean = new Float64Array(dims);
  for (const v of sample) for (let k = 0; k < dims; k++) mean[k]! += v[k]! / sample.length;
  const axes: [Float64Array, Float64Array] = [axis(0), axis(1)];
  const sd = axes.map((a) => {
    const values = sample.map((v) => dot(Float32Array.from(v), mean, a));
    const m = values.reduce((x, y) => x + y, 0) / values.length;
    return Math.sqrt(values.reduce((x, y) => x + (y - m) ** 2, 0) / values.length) || 1;
  }) as [number, number];
  return { model, count: vectors.length, mean, axes, sd };
}

/**
 * The 2-D position of each memory with a vector (by rid), each axis scaled to unit
 * variance, or an empty map when too few memories have one.
 */
export function projectMeaning(
  store: OpenStore,
  rids: readonly number[],
): Map<number, [number, number]> {
  const byModel = new Map<string, { rid: number; v: Float32Array }[]>();
  for (let i = 0; i < rids.length; i += CHUNK) {
    const part = rids.slice(i, i + CHUNK);
    const rows = stmt(
      store.db,
      `SELECT rid, model, vector FROM memory_embedding
        WHERE rid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(part)) as { rid: number; model: string; vector: Buffer }[];
    for (const r of rows) {
      const list = byModel.get(r.model);
      const item = { rid: r.rid, v: vectorOf(r.vector) };
      if (list) list.push(item);
      else byModel.set(r.model, [item]);
    }
  }
  const out = new Map<number, [number, number]>();
  const [model, items] = [...byModel].sort((a, b) => b[1].length - a[1].length)[0] ?? ['', []];
  if (items.length < MIN_VECTORS) return out;
  let axes = fitted.get(store.db);
  if (
    !axes ||
    axes.model !== model ||
    axes.mean.length !== items[0]!.v.length ||
    items.length > axes.count * (1 + REFIT_GROWTH) ||
    items.length < axes.count * (1 - REFIT_GROWTH)
  ) {
    axes = fit(
      model,
      items.map((x) => x.v),
    );
    fitted.set(store.db, axes);
  }
  const a = axes;
  for (const x of items)
    out.set(x.rid, [dot(x.v, a.mean, a.axes[0]) / a.sd[0], dot(x.v, a.mean, a.axes[1]) / a.sd[1]]);
  return out;
}
