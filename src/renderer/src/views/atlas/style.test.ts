import { describe, expect, it } from 'vitest';
import { KINDS } from '../../components/KindBadge';
import {
  activationDomain,
  bucketAlpha,
  colourSlot,
  COMMUNITY_COLOURS,
  COMMUNITY_TOKENS,
  KIND_TOKENS,
  LINK_BUCKETS,
  linkAlpha,
  linkBucket,
  MAX_RADIUS,
  MIN_RADIUS,
  nodeRadius,
  paletteSize,
} from './style';

describe('node radius from activation', () => {
  const domain = [-2, 2] as const;

  it('gives the minimum to memories never used, and when nothing was used', () => {
    expect(nodeRadius(null, domain)).toBe(MIN_RADIUS);
    expect(nodeRadius(1, null)).toBe(MIN_RADIUS);
    expect(nodeRadius(Number.NaN, domain)).toBe(MIN_RADIUS);
  });

  it('grows with activation, clamped to the domain, used above never used', () => {
    const radii = [-5, -2, -1, 0, 1, 2, 9].map((a) => nodeRadius(a, domain));
    for (let i = 1; i < radii.length; i++) expect(radii[i]).toBeGreaterThanOrEqual(radii[i - 1]!);
    expect(radii[0]).toBe(radii[1]);
    expect(radii[0]).toBeGreaterThan(MIN_RADIUS);
    expect(radii.at(-1)).toBeCloseTo(MAX_RADIUS);
  });

  it('maps activation to area, not radius', () => {
    const min = nodeRadius(-2, domain);
    const mid = nodeRadius(0, domain);
    const max = nodeRadius(2, domain);
    expect(mid * mid - min * min).toBeCloseTo((max * max - min * min) / 2);
  });

  it('takes the domain from the 5th to the 95th percentile, ignoring nulls', () => {
    const values = [null, ...Array.from({ length: 100 }, (_, i) => i), null];
    expect(activationDomain(values)).toEqual([5, 95]);
    expect(activationDomain([null, null])).toBeNull();
    const [lo, hi] = activationDomain([3, 3, 3])!;
    expect(hi).toBeGreaterThan(lo);
  });
});

describe('link opacity from weight', () => {
  it('puts weights in buckets, strongest last, clamping odd values', () => {
    expect(linkBucket(0)).toBe(0);
    expect(linkBucket(1)).toBe(LINK_BUCKETS - 1);
    expect(linkBucket(0.3)).toBe(1);
    expect(linkBucket(-4)).toBe(0);
    expect(linkBucket(7)).toBe(LINK_BUCKETS - 1);
    expect(linkBucket(Number.NaN)).toBe(0);
  });

  it('draws stronger links more opaque, always visible and never solid', () => {
    const alphas = Array.from({ length: LINK_BUCKETS }, (_, b) => bucketAlpha(b));
    for (let b = 1; b < alphas.length; b++) expect(alphas[b]).toBeGreaterThan(alphas[b - 1]!);
    expect(linkAlpha(0)).toBeGreaterThan(0);
    expect(linkAlpha(1)).toBeLessThan(1);
    expect(bucketAlpha(linkBucket(0.55))).toBeCloseTo(linkAlpha(0.625));
  });
});

describe('colour slots', () => {
  it('colours by kind, one token per kind in the observatory order', () => {
    expect(KIND_TOKENS).toEqual(KINDS.map((k) => `--kind-${k}`));
    KINDS.forEach((kind, i) => expect(colourSlot({ kind, community: 9 }, 'kind')).toBe(i));
    expect(paletteSize('kind')).toBe(KINDS.length);
  });

  it('colours the biggest communities apart and the rest as "other"', () => {
    expect(colourSlot({ kind: 'semantic', community: 0 }, 'community')).toBe(0);
    expect(colourSlot({ kind: 'semantic', community: 7 }, 'community')).toBe(7);
    expect(colourSlot({ kind: 'semantic', community: 8 }, 'community')).toBe(COMMUNITY_COLOURS);
    expect(colourSlot({ kind: 'semantic', community: 500 }, 'community')).toBe(COMMUNITY_COLOURS);
    expect(paletteSize('community')).toBe(COMMUNITY_TOKENS.length);
    expect(COMMUNITY_TOKENS.at(-1)).toBe('--atlas-community-other');
  });
});
