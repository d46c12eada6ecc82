// How a memory looks on the Atlas: radius from activation, colour from kind or community,
// link opacity from weight. Pure functions of the data; the colours themselves are theme
// tokens (styles/tokens.css), resolved at draw time by themeColours.ts.
import type { AtlasNode } from '../../../../shared/api';
import type { MemoryKind } from '../../../../shared/schemas';
import { KINDS } from '../../components/KindBadge';

export type ColourMode = 'kind' | 'community';

/** Radius (world units) of a memory never used since it was written, and of the most active. */
export const MIN_RADIUS = 3;
export const MAX_RADIUS = 13;

/** Distinct community colours; every further community shares the neutral "other". */
export const COMMUNITY_COLOURS = 8;

/** Palette slots: a node's colour is one of these, by index. */
export const KIND_TOKENS: readonly string[] = KINDS.map((k) => `--kind-${k}`);
export const COMMUNITY_TOKENS: readonly string[] = [
  ...Array.from({ length: COMMUNITY_COLOURS }, (_, i) => `--atlas-community-${i + 1}`),
  '--atlas-community-other',
];

const KIND_SLOT = new Map<MemoryKind, number>(KINDS.map((k, i) => [k, i]));

/** The palette slot of a node in a colour mode (see KIND_TOKENS, COMMUNITY_TOKENS). */
export function colourSlot(node: Pick<AtlasNode, 'kind' | 'community'>, mode: ColourMode): number {
  if (mode === 'kind') return KIND_SLOT.get(node.kind) ?? 0;
  return node.community >= 0 && node.community < COMMUNITY_COLOURS
    ? node.community
    : COMMUNITY_COLOURS;
}

export function paletteSize(mode: ColourMode): number {
  return mode === 'kind' ? KIND_TOKENS.length : COMMUNITY_TOKENS.length;
}

/**
 * The activations that map to the smallest and largest radius: the 5th and 95th
 * percentiles of the drawn memories' (so one outlier does not shrink everyone else);
 * null when no drawn memory has been used yet.
 */
export function activationDomain(
  activations: Iterable<number | null>,
): readonly [number, number] | null {
  const values: number[] = [];
  for (const a of activations) if (a !== null && Number.isFinite(a)) values.push(a);
  if (values.length === 0) return null;
  values.sort((x, y) => x - y);
  const at = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))]!;
  const lo = at(0.05);
  const hi = at(0.95);
  return hi > lo ? [lo, hi] : [lo - 1, lo];
}

/**
 * A memory's radius: never used (null) is the minimum; otherwise its activation's place
 * in the domain, mapped to area (not radius), so twice as active reads as twice the ink.
 */
export function nodeRadius(
  activation: number | null,
  domain: readonly [number, number] | null,
): number {
  if (activation === null || !Number.isFinite(activation) || !domain) return MIN_RADIUS;
  const [lo, hi] = domain;
  const t = Math.min(1, Math.max(0, (activation - lo) / (hi - lo)));
  // Used at all is a little bigger than never used.
  const min = MIN_RADIUS + 1;
  return Math.sqrt(min * min + t * (MAX_RADIUS * MAX_RADIUS - min * min));
}

/** Link opacity is drawn from a few buckets, so all links are a handful of strokes. */
export const LINK_BUCKETS = 4;

/** The opacity bucket of a link weight (0..1). */
export function linkBucket(weight: number): number {
  const w = Number.isFinite(weight) ? Math.min(1, Math.max(0, weight)) : 0;
  return Math.min(LINK_BUCKETS - 1, Math.floor(w * LINK_BUCKETS));
}

/** The opacity a bucket is drawn with: faint for weak links, clear for strong ones. */
export function bucketAlpha(bucket: number): number {
  const mid = (Math.min(LINK_BUCKETS - 1, Math.max(0, bucket)) + 0.5) / LINK_BUCKETS;
  return linkAlpha(mid);
}

/** Opacity of a link of this weight (0..1). */
export function linkAlpha(weight: number): number {
  const w = Number.isFinite(weight) ? Math.min(1, Math.max(0, weight)) : 0;
  return 0.08 + 0.5 * w;
}
