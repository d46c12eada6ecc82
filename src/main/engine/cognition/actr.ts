// ACT-R base-level activation: how available a memory is from how often and how
// recently it was used. B = ln(Σ t_j^−d) over the kept accesses (ages t_j in seconds,
// at least 1 s; d = 0.5), plus Petrov's (2006) approximation for the older accesses
// that were not kept: (n − k)·(L^(1−d) − t_k^(1−d)) / ((1 − d)·(L − t_k)), with n the
// total number of accesses, k the number kept, t_k the oldest kept age and L the
// memory's lifetime. Writing a memory counts as its first access.

export const DEFAULT_DECAY = 0.5;

export interface ActivationInput {
  /** Epoch ms of the kept accesses, any order. */
  accesses: readonly number[];
  /** All accesses ever counted (≥ accesses.length). */
  totalCount: number;
  /** Epoch ms when the memory was written. */
  createdAt: number;
  now: number;
  decay?: number;
}

const ageSeconds = (now: number, at: number) => Math.max(1, (now - at) / 1000);

export function baseLevelActivation(input: ActivationInput): number | null {
  const d = input.decay ?? DEFAULT_DECAY;
  if (input.accesses.length === 0) return null;
  let sum = 0;
  let oldest = 0;
  for (const at of input.accesses) {
    const t = ageSeconds(input.now, at);
    sum += t ** -d;
    oldest = Math.max(oldest, t);
  }
  const unseen = input.totalCount - input.accesses.length;
  const lifetime = ageSeconds(input.now, input.createdAt);
  if (unseen > 0 && lifetime > oldest) {
    sum += (unseen * (lifetime ** (1 - d) - oldest ** (1 - d))) / ((1 - d) * (lifetime - oldest));
  }
  return Math.log(sum);
}
