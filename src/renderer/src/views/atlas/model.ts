// The Atlas's graph in the shape drawing and layout want: nodes by index, links as typed
// arrays of endpoint indices, an adjacency list, radii, and a name for each big
// community. Built once per `graph.atlas` answer; positions live apart (the layout's).
import type { AtlasNode, AtlasResult } from '../../../../shared/api';
import type { MemoryKind } from '../../../../shared/schemas';
import { allocatePositions, setPosition } from './protocol';
import { activationDomain, LINK_BUCKETS, linkBucket, nodeRadius } from './style';

export interface CommunityInfo {
  id: number;
  size: number;
  /** The tag most of its memories share, if any: a readable name for the legend. */
  label: string | null;
}

export interface AtlasModel {
  store: string;
  nodes: readonly AtlasNode[];
  /**
   * Where meaning puts each node, [x, y] per node in world units (NaN where it has no
   * vector), or null when the map goes by links only. The layout starts there and is pulled
   * back towards it, so near means similar; the links refine it.
   */
  meaning: Float32Array | null;
  indexOf: ReadonlyMap<string, number>;
  /** [from, to] node indices per link. */
  linkEnds: Uint32Array;
  linkWeights: Float32Array;
  /** Links at node i: adjacency[adjOffsets[i] .. adjOffsets[i + 1]) are link indices. */
  adjOffsets: Uint32Array;
  adjacency: Uint32Array;
  radii: Float32Array;
  maxRadius: number;
  /** Node indices, largest radius first (label candidates in order). */
  bySize: Uint32Array;
  /**
   * Link indices grouped by opacity bucket: bucket b is linkOrder[linkBucketStarts[b] ..).
   * The links drawn apart (`contradicts`, `supersedes`) are not in it.
   */
  linkOrder: Uint32Array;
  linkBucketStarts: Uint32Array;
  /** Per link, how it is stroked among the bucketed ones (LINK_STYLES). */
  linkStyle: Uint8Array;
  /** How many bucketed links each style has (for the legend). */
  styleCounts: Uint32Array;
  /** `contradicts` links (indices into linkEnds): drawn dashed, in the contradiction colour. */
  contradicts: Uint32Array;
  /**
   * `supersedes` links: drawn as arrows from the memory that holds (linkEnds[2l]) to the
   * one it replaced (linkEnds[2l + 1]).
   */
  supersedes: Uint32Array;
  /** `causes` links: dotted arrows from the cause (linkEnds[2l]) to its effect. */
  causes: Uint32Array;
  /** Communities with two or more memories, largest first (at most NAMED_COMMUNITIES). */
  communities: readonly CommunityInfo[];
  communityCount: number;
  kindCounts: Readonly<Record<MemoryKind, number>>;
  total: number;
  truncated: boolean;
}

/** Communities given a name (legend, filter); the rest are counted, not listed. */
export const NAMED_COMMUNITIES = 40;

function topTag(counts: Map<string, number>): string | null {
  let best: string | null = null;
  let bestCount = 1;
  for (const [tag, count] of counts) {
    // A machine tag (`batch:01M8…`, `file:…`) names an import, not what it is about.
    if (tag.includes(':')) continue;
    if (count > bestCount || (count === bestCount && best !== null && tag < best)) {
      best = tag;
      bestCount = count;
    }
  }
  return best;
}

/**
 * The link types drawn among the many (not apart), each with a stroke of its own:
 * `related` in the muted link colour, the rest in their own colours and dashes.
 */
export const LINK_STYLES = ['related', 'supports', 'follows', 'structure', 'same_as'] as const;
export type LinkStyle = (typeof LINK_STYLES)[number];

export function linkStyleOf(type: string): number {
  switch (type) {
    case 'supports':
      return 1;
    case 'follows':
      return 2;
    case 'part_of':
    case 'derived_from':
      return 3;
    case 'same_as':
      return 4;
    default:
      return 0;
  }
}

export function buildModel(result: AtlasResult): AtlasModel {
  const nodes = result.nodes;
  const n = nodes.length;
  const indexOf = new Map<string, number>();
  nodes.forEach((node, i) => indexOf.set(node.id, i));

  // Links whose ends are not both drawn (should not happen: the engine filters) are skipped.
  const ends: number[] = [];
  const weights: number[] = [];
  const contradicts: number[] = [];
  const supersedes: number[] = [];
  const causes: number[] = [];
  const styles: number[] = [];
  for (const link of result.links) {
    const a = indexOf.get(link.from);
    const b = indexOf.get(link.to);
    if (a === undefined || b === undefined || a === b) continue;
    if (link.type === 'contradicts') contradicts.push(weights.length);
    else if (link.type === 'supersedes') supersedes.push(weights.length);
    else if (link.type === 'causes') causes.push(weights.length);
    ends.push(a, b);
    weights.push(link.weight);
    styles.push(linkStyleOf(link.type));
  }
  const linkStyle = Uint8Array.from(styles);
  const styleCounts = new Uint32Array(LINK_STYLES.length);
  const apart = new Uint8Array(weights.length);
  for (const l of contradicts) apart[l] = 1;
  for (const l of supersedes) apart[l] = 1;
  for (const l of causes) apart[l] = 1;
  const linkEnds = Uint32Array.from(ends);
  const linkWeights = Float32Array.from(weights);
  const m = linkWeights.length;

  // Compressed adjacency: counts per node, prefix sums, then each link under both ends.
  const adjOffsets = new Uint32Array(n + 1);
  for (let k = 0; k < linkEnds.length; k++) {
    const end = linkEnds[k]!;
    adjOffsets[end + 1] = adjOffsets[end + 1]! + 1;
  }
  for (let i = 0; i < n; i++) adjOffsets[i + 1] = adjOffsets[i + 1]! + adjOffsets[i]!;
  const adjacency = new Uint32Array(m * 2);
  const cursor = adjOffsets.slice(0, n);
  for (let k = 0; k < linkEnds.length; k++) {
    const end = linkEnds[k]!;
    const at = cursor[end]!;
    adjacency[at] = k >> 1;
    cursor[end] = at + 1;
  }

  const domain = activationDomain(nodes.map((node) => node.activation));
  const radii = new Float32Array(n);
  let maxRadius = 0;
  nodes.forEach((node, i) => {
    const r = nodeRadius(node.activation, domain);
    radii[i] = r;
    if (r > maxRadius) maxRadius = r;
  });

  const bySize = Uint32Array.from(nodes.keys()).sort((a, b) => radii[b]! - radii[a]! || a - b);

  const linkBucketStarts = new Uint32Array(LINK_BUCKETS + 1);
  const buckets = new Uint8Array(m);
  for (let l = 0; l < m; l++) {
    if (apart[l]) continue;
    styleCounts[linkStyle[l]!] = styleCounts[linkStyle[l]!]! + 1;
    const b = linkBucket(linkWeights[l]!);
    buckets[l] = b;
    linkBucketStarts[b + 1] = linkBucketStarts[b + 1]! + 1;
  }
  for (let b = 0; b < LINK_BUCKETS; b++)
    linkBucketStarts[b + 1] = linkBucketStarts[b + 1]! + linkBucketStarts[b]!;
  const linkOrder = new Uint32Array(m - contradicts.length - supersedes.length - causes.length);
  const bucketCursor = linkBucketStarts.slice(0, LINK_BUCKETS);
  for (let l = 0; l < m; l++) {
    if (apart[l]) continue;
    const b = buckets[l]!;
    linkOrder[bucketCursor[b]!] = l;
    bucketCursor[b] = bucketCursor[b]! + 1;
  }

  const sizes = new Map<number, number>();
  const kindCounts: Record<MemoryKind, number> = {
    semantic: 0,
    episodic: 0,
    procedural: 0,
    prospective: 0,
    affective: 0,
    schematic: 0,
  };
  for (const node of nodes) {
    sizes.set(node.community, (sizes.get(node.community) ?? 0) + 1);
    kindCounts[node.kind] = (kindCounts[node.kind] ?? 0) + 1;
  }
  const named = [...sizes]
    .filter(([, size]) => size >= 2)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, NAMED_COMMUNITIES);
  const tagCounts = new Map<number, Map<string, number>>(named.map(([id]) => [id, new Map()]));
  for (const node of nodes) {
    const counts = tagCounts.get(node.community);
    if (!counts) continue;
    for (const tag of node.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  const communities = named.map(([id, size]) => ({
    id,
    size,
    // Named by the engine from what its memories are about; a tag only when it had no name.
    label: result.community_names?.[String(id)] ?? topTag(tagCounts.get(id) ?? new Map()),
  }));

  let meaning: Float32Array | null = null;
  if (result.layout === 'meaning') {
    // Unit-variance coordinates spread as far as the community seeding would spread them.
    const scale = SEED_SPACING * Math.sqrt(Math.max(1, n)) * 0.55;
    meaning = new Float32Array(n * 2).fill(Number.NaN);
    nodes.forEach((node, i) => {
      if (!node.at) return;
      meaning![i * 2] = node.at[0] * scale;
      meaning![i * 2 + 1] = node.at[1] * scale;
    });
  }

  return {
    store: result.store,
    nodes,
    meaning,
    indexOf,
    linkEnds,
    linkWeights,
    adjOffsets,
    adjacency,
    radii,
    maxRadius: Math.max(maxRadius, 1),
    bySize,
    linkOrder,
    linkBucketStarts,
    linkStyle,
    styleCounts,
    contradicts: Uint32Array.from(contradicts),
    supersedes: Uint32Array.from(supersedes),
    causes: Uint32Array.from(causes),
    communities,
    communityCount: result.communities,
    kindCounts,
    total: result.total,
    truncated: result.truncated,
  };
}

/** The node at the other end of link `l` from node `i`. */
export function otherEnd(model: AtlasModel, l: number, i: number): number {
  const a = model.linkEnds[l * 2]!;
  return a === i ? model.linkEnds[l * 2 + 1]! : a;
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
/** World units between neighbouring seeds: about a node's diameter plus a gap. */
const SEED_SPACING = 9;

/** A small, repeatable offset so seeds placed at the same point do not coincide. */
function jitter(i: number, scale: number): [number, number] {
  const a = i * GOLDEN_ANGLE;
  const r = scale * (0.35 + ((i * 0.618034) % 1) * 0.65);
  return [Math.cos(a) * r, Math.sin(a) * r];
}

export interface Seeded {
  positions: Float32Array;
  /** Nodes whose position came from the previous layout. */
  kept: number;
}

/**
 * Starting positions. Memories drawn before keep their place; a new memory starts beside
 * its placed neighbours (their mean), else beside its community, else outside the rest.
 * A fresh graph is seeded by community, each a disc of its own, so the layout begins
 * near its end and big graphs settle in few ticks.
 */
export function seedPositions(
  model: AtlasModel,
  previous: ReadonlyMap<string, readonly [number, number]> | null,
): Seeded {
  const n = model.nodes.length;
  const positions = allocatePositions(n);
  const placed = new Uint8Array(n);
  let kept = 0;
  if (previous && previous.size > 0) {
    model.nodes.forEach((node, i) => {
      const p = previous.get(node.id);
      if (!p) return;
      setPosition(positions, i, p[0], p[1]);
      placed[i] = 1;
      kept++;
    });
  }
  if (kept === 0) {
    seedByCommunity(model, positions);
    // Where meaning knows a place, the memory starts there (the rest by community).
    if (model.meaning) {
      for (let i = 0; i < n; i++) {
        const x = model.meaning[i * 2]!;
        const y = model.meaning[i * 2 + 1]!;
        if (Number.isNaN(x) || Number.isNaN(y)) continue;
        const [jx, jy] = jitter(i, 1);
        setPosition(positions, i, x + jx, y + jy);
      }
    }
    return { positions, kept: 0 };
  }
  if (kept === n) return { positions, kept };

  // Community centroids and the extent of what is placed, for the fallbacks.
  const sums = new Map<number, [number, number, number]>();
  let extent = 0;
  for (let i = 0; i < n; i++) {
    if (!placed[i]) continue;
    const x = positions[i * 2]!;
    const y = positions[i * 2 + 1]!;
    extent = Math.max(extent, Math.hypot(x, y));
    const c = model.nodes[i]!.community;
    const s = sums.get(c) ?? [0, 0, 0];
    s[0] += x;
    s[1] += y;
    s[2] += 1;
    sums.set(c, s);
  }
  let outside = 0;
  // Two passes: a new memory linked only to another new one is placed after it.
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < n; i++) {
      if (placed[i]) continue;
      let sx = 0;
      let sy = 0;
      let count = 0;
      for (let k = model.adjOffsets[i]!; k < model.adjOffsets[i + 1]!; k++) {
        const j = otherEnd(model, model.adjacency[k]!, i);
        if (!placed[j]) continue;
        sx += positions[j * 2]!;
        sy += positions[j * 2 + 1]!;
        count++;
      }
      let x: number;
      let y: number;
      if (count > 0) {
        [x, y] = [sx / count, sy / count];
      } else if (pass === 0) {
        continue;
      } else {
        const c = sums.get(model.nodes[i]!.community);
        if (c) {
          [x, y] = [c[0] / c[2], c[1] / c[2]];
        } else {
          const a = outside++ * GOLDEN_ANGLE;
          [x, y] = [Math.cos(a) * (extent + 40), Math.sin(a) * (extent + 40)];
        }
      }
      const [jx, jy] = jitter(i, SEED_SPACING * 1.5);
      setPosition(positions, i, x + jx, y + jy);
      placed[i] = 1;
    }
  }
  return { positions, kept };
}

function seedByCommunity(model: AtlasModel, positions: Float32Array): void {
  const members = new Map<number, number[]>();
  model.nodes.forEach((node, i) => {
    const list = members.get(node.community);
    if (list) list.push(i);
    else members.set(node.community, [i]);
  });
  // Biggest first at the centre; each community a phyllotaxis disc, the discs themselves
  // on a spiral whose radius grows with the area already used.
  const groups = [...members.values()].sort((a, b) => b.length - a.length);
  let area = 0;
  groups.forEach((group, g) => {
    const radius = SEED_SPACING * Math.sqrt(group.length) * 0.9;
    const distance = g === 0 ? 0 : SEED_SPACING * Math.sqrt(area) * 1.05 + radius;
    area += group.length * 1.6;
    const cx = Math.cos(g * GOLDEN_ANGLE) * distance;
    const cy = Math.sin(g * GOLDEN_ANGLE) * distance;
    group.forEach((i, k) => {
      const r = SEED_SPACING * 0.9 * Math.sqrt(k + 0.5);
      const a = k * GOLDEN_ANGLE;
      setPosition(positions, i, cx + Math.cos(a) * r, cy + Math.sin(a) * r);
    });
  });
}

/** The positions of a layout by memory id, to keep them across a refresh. */
export function positionsById(
  model: AtlasModel,
  positions: Float32Array,
): Map<string, readonly [number, number]> {
  const out = new Map<string, readonly [number, number]>();
  model.nodes.forEach((node, i) => {
    const x = positions[i * 2];
    const y = positions[i * 2 + 1];
    if (x !== undefined && y !== undefined && Number.isFinite(x) && Number.isFinite(y))
      out.set(node.id, [x, y]);
  });
  return out;
}
