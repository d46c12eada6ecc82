// Which memories the Atlas draws (filters: kinds, minimum links, pinned only, one
// community) and which it highlights (a search: title or tag substring, plus memories
// recall returned). Both are masks over node indices; hiding never moves the layout.
import type { MemoryKind } from '../../../../shared/schemas';
import { KINDS } from '../../components/KindBadge';
import type { AtlasModel } from './model';

export interface AtlasFilters {
  /** Kinds drawn. */
  kinds: readonly MemoryKind[];
  /** Fewest links a drawn memory has (1 hides the unlinked). */
  minDegree: number;
  pinnedOnly: boolean;
  /** One community only, or all (null). */
  community: number | null;
}

export const DEFAULT_FILTERS: AtlasFilters = {
  kinds: KINDS,
  minDegree: 0,
  pinnedOnly: false,
  community: null,
};

/** How many filters differ from showing everything (for the Filters button's badge). */
export function activeFilterCount(filters: AtlasFilters): number {
  return (
    (filters.kinds.length < KINDS.length ? 1 : 0) +
    (filters.minDegree > 0 ? 1 : 0) +
    (filters.pinnedOnly ? 1 : 0) +
    (filters.community !== null ? 1 : 0)
  );
}

/** 1 for each node the filters let through. */
export function visibleMask(model: AtlasModel, filters: AtlasFilters): Uint8Array {
  const mask = new Uint8Array(model.nodes.length);
  const kinds = new Set(filters.kinds);
  model.nodes.forEach((node, i) => {
    if (!kinds.has(node.kind)) return;
    if (node.degree < filters.minDegree) return;
    if (filters.pinnedOnly && !node.pinned) return;
    if (filters.community !== null && node.community !== filters.community) return;
    mask[i] = 1;
  });
  return mask;
}

export function countMask(mask: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < mask.length; i++) count += mask[i]!;
  return count;
}

// Lower-cased "title \n tag \n tag" per node, built once per model.
const haystacks = new WeakMap<AtlasModel, string[]>();

function haystackOf(model: AtlasModel): string[] {
  let list = haystacks.get(model);
  if (!list) {
    list = model.nodes.map((node) => [node.title, ...node.tags].join('\n').toLowerCase());
    haystacks.set(model, list);
  }
  return list;
}

export interface SearchHighlight {
  /** 1 for each highlighted node. */
  mask: Uint8Array;
  count: number;
  /** Highlighted because recall returned them (and their text did not match). */
  byRecall: number;
}

/**
 * Nodes whose title or a tag contains the query (case-insensitive), together with the
 * ids recall returned; null when there is nothing to highlight by (an empty query).
 */
export function searchHighlight(
  model: AtlasModel,
  query: string,
  recallIds: Iterable<string> = [],
): SearchHighlight | null {
  const needle = query.trim().toLowerCase();
  if (!needle) return null;
  const mask = new Uint8Array(model.nodes.length);
  let count = 0;
  haystackOf(model).forEach((text, i) => {
    if (text.includes(needle)) {
      mask[i] = 1;
      count++;
    }
  });
  let byRecall = 0;
  for (const id of recallIds) {
    const i = model.indexOf.get(id);
    if (i === undefined || mask[i]) continue;
    mask[i] = 1;
    count++;
    byRecall++;
  }
  return { mask, count, byRecall };
}
