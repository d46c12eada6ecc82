// Turning a transformer's token states into one sentence vector: mean pooling over the
// attention mask (or the [CLS] state), then L2 normalisation.

/**
 * hidden: [batch, seq, dims] row-major; mask: [batch, seq] of 0/1.
 * Returns one vector per batch row. A row whose mask is all zero pools to zeros.
 */
export function meanPool(
  hidden: Float32Array,
  mask: ArrayLike<number | bigint>,
  batch: number,
  seq: number,
  dims: number,
): Float32Array[] {
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const v = new Float32Array(dims);
    let count = 0;
    for (let s = 0; s < seq; s++) {
      if (Number(mask[b * seq + s]) === 0) continue;
      count++;
      const base = (b * seq + s) * dims;
      for (let d = 0; d < dims; d++) v[d] = (v[d] as number) + (hidden[base + d] as number);
    }
    if (count > 0) for (let d = 0; d < dims; d++) v[d] = (v[d] as number) / count;
    out.push(v);
  }
  return out;
}

/** The state of the first token ([CLS]) of each row. */
export function clsPool(
  hidden: Float32Array,
  batch: number,
  seq: number,
  dims: number,
): Float32Array[] {
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) out.push(hidden.slice(b * seq * dims, b * seq * dims + dims));
  return out;
}

/** Scales to unit length in place (a zero vector stays zero) and returns it. */
export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / norm;
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
