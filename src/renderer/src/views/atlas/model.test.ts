import { describe, expect, it } from 'vitest';
import { atlasFixture, atlasNode, nodeId, smallAtlas } from './atlasFixture';
import { buildModel, otherEnd, positionsById, seedPositions } from './model';
import { LINK_BUCKETS, MIN_RADIUS } from './style';

describe('buildModel', () => {
  const model = buildModel(smallAtlas());

  it('indexes nodes and turns links into endpoint indices with weights', () => {
    expect(model.indexOf.get(nodeId(3))).toBe(3);
    expect(Array.from(model.linkEnds)).toEqual([0, 1, 0, 2, 1, 2, 3, 4, 2, 3]);
    expect(Array.from(model.linkWeights).map((w) => +w.toFixed(2))).toEqual([
      0.9, 0.6, 0.3, 0.5, 0.1,
    ]);
  });

  it('lists the links at each node', () => {
    const neighbours = (i: number) => {
      const out: number[] = [];
      for (let k = model.adjOffsets[i]!; k < model.adjOffsets[i + 1]!; k++)
        out.push(otherEnd(model, model.adjacency[k]!, i));
      return out.sort();
    };
    expect(neighbours(2)).toEqual([0, 1, 3]);
    expect(neighbours(5)).toEqual([]);
    expect(model.adjOffsets[model.nodes.length]).toBe(10);
  });

  it('sizes by activation, largest first in bySize', () => {
    expect(model.radii[5]).toBe(MIN_RADIUS);
    expect(model.bySize[0]).toBe(0);
    expect(model.radii[0]).toBe(model.maxRadius);
  });

  it('groups links by opacity bucket', () => {
    let total = 0;
    for (let b = 0; b < LINK_BUCKETS; b++) {
      for (let o = model.linkBucketStarts[b]!; o < model.linkBucketStarts[b + 1]!; o++) {
        const w = model.linkWeights[model.linkOrder[o]!]!;
        expect(Math.min(LINK_BUCKETS - 1, Math.floor(w * LINK_BUCKETS))).toBe(b);
        total++;
      }
    }
    expect(total).toBe(5);
  });

  it('names communities by a tag most of them share (none if no tag is shared)', () => {
    expect(model.communities.map((c) => [c.id, c.size, c.label])).toEqual([
      [0, 3, 'deploy'],
      [1, 2, null],
    ]);
    expect(model.kindCounts.procedural).toBe(2);
    expect(model.kindCounts.schematic).toBe(0);
  });

  it('skips links to memories it does not draw', () => {
    const result = atlasFixture([atlasNode(0), atlasNode(1)], [[0, 1]]);
    result.links.push({ from: nodeId(0), to: nodeId(9), type: 'related', weight: 1 });
    expect(buildModel(result).linkWeights.length).toBe(1);
  });
});

describe('seedPositions', () => {
  it('seeds a fresh graph by community, finite and distinct', () => {
    const model = buildModel(smallAtlas());
    const { positions, kept } = seedPositions(model, null);
    expect(kept).toBe(0);
    expect(Array.from(positions).every(Number.isFinite)).toBe(true);
    const keys = new Set<string>();
    for (let i = 0; i < 6; i++) keys.add(`${positions[i * 2]},${positions[i * 2 + 1]}`);
    expect(keys.size).toBe(6);
    // Same data, same start.
    expect(seedPositions(model, null).positions).toEqual(positions);
  });

  it('keeps known memories where they were and puts a new one beside its neighbours', () => {
    const before = buildModel(smallAtlas());
    const { positions } = seedPositions(before, null);
    const previous = positionsById(before, positions);
    const grown = smallAtlas();
    grown.nodes.push(atlasNode(6, { title: 'New', community: 0, degree: 2 }));
    grown.links.push(
      { from: nodeId(6), to: nodeId(0), type: 'related', weight: 0.5 },
      { from: nodeId(6), to: nodeId(1), type: 'related', weight: 0.5 },
    );
    const after = buildModel(grown);
    const seeded = seedPositions(after, previous);
    expect(seeded.kept).toBe(6);
    for (let i = 0; i < 6; i++) {
      expect(seeded.positions[i * 2]).toBe(positions[i * 2]);
      expect(seeded.positions[i * 2 + 1]).toBe(positions[i * 2 + 1]);
    }
    const mx = (positions[0]! + positions[2]!) / 2;
    const my = (positions[1]! + positions[3]!) / 2;
    const d = Math.hypot(seeded.positions[12]! - mx, seeded.positions[13]! - my);
    expect(d).toBeGreaterThan(0);
    expect(d).toBeLessThan(20);
  });

  it('places a new unlinked memory near its community, or outside the rest', () => {
    const before = buildModel(smallAtlas());
    const previous = positionsById(before, seedPositions(before, null).positions);
    const grown = smallAtlas();
    grown.nodes.push(atlasNode(7, { community: 1 }), atlasNode(8, { community: 99 }));
    const seeded = seedPositions(buildModel(grown), previous);
    expect(seeded.kept).toBe(6);
    expect(Array.from(seeded.positions).every(Number.isFinite)).toBe(true);
  });
});
