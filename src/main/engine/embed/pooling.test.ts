import { describe, expect, it } from 'vitest';
import { clsPool, dot, l2Normalize, meanPool } from './pooling';

describe('pooling', () => {
  // Two rows, three tokens, two dimensions; the second row's last token is padding.
  const hidden = new Float32Array([1, 2, 3, 4, 5, 6, /* row 2 */ 10, 0, 0, 10, 99, 99]);
  const mask = [1, 1, 1, 1, 1, 0];

  it('averages the token states under the attention mask', () => {
    const [a, b] = meanPool(hidden, mask, 2, 3, 2);
    expect(Array.from(a!)).toEqual([3, 4]);
    expect(Array.from(b!)).toEqual([5, 5]);
  });

  it('accepts a bigint mask as onnxruntime gives it', () => {
    const [, b] = meanPool(hidden, mask.map(BigInt), 2, 3, 2);
    expect(Array.from(b!)).toEqual([5, 5]);
  });

  it('pools an all-padding row to zeros instead of dividing by zero', () => {
    const [a] = meanPool(new Float32Array([1, 1]), [0], 1, 1, 2);
    expect(Array.from(a!)).toEqual([0, 0]);
  });

  it('takes the first token for CLS pooling', () => {
    const [a, b] = clsPool(hidden, 2, 3, 2);
    expect(Array.from(a!)).toEqual([1, 2]);
    expect(Array.from(b!)).toEqual([10, 0]);
  });

  it('normalises to unit length and leaves a zero vector alone', () => {
    const v = l2Normalize(new Float32Array([3, 4]));
    expect(Array.from(v)).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(dot(v, v)).toBeCloseTo(1, 6);
    expect(Array.from(l2Normalize(new Float32Array([0, 0])))).toEqual([0, 0]);
  });
});
