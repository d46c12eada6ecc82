import { describe, expect, it } from 'vitest';
import { atlasFixture, atlasNode, nodeId, smallAtlas } from './atlasFixture';
import {
  activeFilterCount,
  countMask,
  DEFAULT_FILTERS,
  searchHighlight,
  visibleMask,
} from './filters';
import { buildModel } from './model';

const model = buildModel(smallAtlas());
const on = (mask: Uint8Array) => Array.from(mask.keys()).filter((i) => mask[i]);

describe('filters', () => {
  it('show everything by default', () => {
    expect(on(visibleMask(model, DEFAULT_FILTERS))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(activeFilterCount(DEFAULT_FILTERS)).toBe(0);
  });

  it('hide kinds that are switched off', () => {
    const filters = { ...DEFAULT_FILTERS, kinds: ['procedural', 'affective'] as const };
    expect(on(visibleMask(model, filters))).toEqual([0, 1, 4]);
    expect(activeFilterCount(filters)).toBe(1);
  });

  it('hide memories with fewer links than the minimum (1 hides the unlinked)', () => {
    expect(on(visibleMask(model, { ...DEFAULT_FILTERS, minDegree: 1 }))).toEqual([0, 1, 2, 3, 4]);
    expect(on(visibleMask(model, { ...DEFAULT_FILTERS, minDegree: 3 }))).toEqual([2]);
  });

  it('keep pinned only, or one community, and combine', () => {
    expect(on(visibleMask(model, { ...DEFAULT_FILTERS, pinnedOnly: true }))).toEqual([0]);
    expect(on(visibleMask(model, { ...DEFAULT_FILTERS, community: 1 }))).toEqual([3, 4]);
    const both = { ...DEFAULT_FILTERS, community: 0, minDegree: 2, kinds: ['semantic'] as const };
    expect(on(visibleMask(model, both))).toEqual([2]);
    expect(activeFilterCount(both)).toBe(3);
    expect(countMask(visibleMask(model, both))).toBe(1);
  });
});

describe('search highlight', () => {
  it('is nothing for an empty query', () => {
    expect(searchHighlight(model, '   ')).toBeNull();
  });

  it('matches titles and tags, case-insensitively', () => {
    const byTitle = searchHighlight(model, 'ROLLING back')!;
    expect(on(byTitle.mask)).toEqual([1]);
    const byTag = searchHighlight(model, 'databa')!;
    expect(on(byTag.mask)).toEqual([2, 3]);
    expect(byTag.count).toBe(2);
    expect(byTag.byRecall).toBe(0);
    expect(searchHighlight(model, 'nothing like this')!.count).toBe(0);
  });

  it('adds what recall returned, counting those the words missed', () => {
    const result = searchHighlight(model, 'deploy', [nodeId(4), nodeId(0), 'not-drawn'])!;
    // deploy: titles 0 and 2, tags of 0 and 1; recall adds 4 (0 already matched).
    expect(on(result.mask)).toEqual([0, 1, 2, 4]);
    expect(result.byRecall).toBe(1);
    expect(result.count).toBe(4);
  });

  it('follows a new model (its own titles, not a stale cache)', () => {
    const other = buildModel(atlasFixture([atlasNode(0, { title: 'Deploy freeze' })]));
    expect(searchHighlight(other, 'freeze')!.count).toBe(1);
    expect(searchHighlight(model, 'freeze')!.count).toBe(0);
  });
});
