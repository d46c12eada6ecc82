import { describe, expect, it, vi } from 'vitest';
import { atlasFixture, atlasNode, nodeId } from './atlasFixture';
import { arrowGeometry, drawBase, linkTake, paletteOrder } from './draw';
import { buildModel } from './model';
import type { ThemeColours } from './themeColours';

// Buckets of 5, 3, 0 and 4 links (weakest first).
const starts = Uint32Array.from([0, 5, 8, 8, 12]);

describe('linkTake', () => {
  it('draws every link without a limit', () => {
    expect(linkTake(starts, null)).toEqual([5, 3, 0, 4]);
  });

  it('keeps the strongest buckets whole and cuts into the next', () => {
    expect(linkTake(starts, 6)).toEqual([0, 2, 0, 4]);
    expect(linkTake(starts, 4)).toEqual([0, 0, 0, 4]);
    expect(linkTake(starts, 2)).toEqual([0, 0, 0, 2]);
  });

  it('never takes more than there is, nor less than nothing', () => {
    expect(linkTake(starts, 100)).toEqual([5, 3, 0, 4]);
    expect(linkTake(starts, -3)).toEqual([0, 0, 0, 0]);
    expect(linkTake(starts, 7.9).reduce((a, b) => a + b, 0)).toBe(7);
  });
});

describe('arrowGeometry', () => {
  it('runs from the edge of the one that holds to a head touching the one it replaced', () => {
    // Along the x axis, radii 2 and 3, at zoom 1: the head is 8 px long, 8 px wide.
    const g = arrowGeometry(0, 0, 2, 100, 0, 3, 1)!;
    expect(g.shaft).toEqual([2, 0, 89, 0]);
    expect(g.head.map((v) => +v.toFixed(6) || 0)).toEqual([97, 0, 89, 4, 89, -4]);
  });

  it('keeps the head the same size on screen at any zoom', () => {
    const g = arrowGeometry(0, 0, 1, 0, 100, 1, 4)!;
    // 8 screen px at k = 4 is 2 world units.
    expect(g.head[1] - g.head[3]).toBeCloseTo(2);
  });

  it('draws nothing for memories that overlap', () => {
    expect(arrowGeometry(0, 0, 5, 6, 0, 5, 1)).toBeNull();
  });
});

/** A Path2D that keeps its commands (happy-dom has no canvas). */
class FakePath {
  ops: string[] = [];
  moveTo(x: number, y: number) {
    this.ops.push(`M${x},${y}`);
  }
  lineTo(x: number, y: number) {
    this.ops.push(`L${x},${y}`);
  }
  closePath() {
    this.ops.push('Z');
  }
  arc() {
    this.ops.push('A');
  }
  rect() {
    this.ops.push('R');
  }
}

function fakeContext() {
  const strokes: { style: string; dash: number[]; ops: string[] }[] = [];
  const fills: { style: string; ops: string[] }[] = [];
  let dash: number[] = [];
  const ctx = {
    strokeStyle: '',
    fillStyle: '',
    lineWidth: 1,
    globalAlpha: 1,
    setTransform: () => undefined,
    setLineDash: (d: number[]) => {
      dash = d;
    },
    stroke: (p: FakePath) => strokes.push({ style: String(ctx.strokeStyle), dash, ops: p.ops }),
    fill: (p: FakePath) => fills.push({ style: String(ctx.fillStyle), ops: p.ops }),
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, strokes, fills };
}

describe('drawBase', () => {
  const colours: ThemeColours = {
    kind: Array.from({ length: 6 }, () => 'kind'),
    community: Array.from({ length: 9 }, () => 'community'),
    link: 'grey',
    text: 'text',
    halo: 'bg',
    accent: 'accent',
    highlight: 'warn',
    contradicts: 'red',
    supersedes: 'teal',
    causes: 'rust',
    linkStyles: ['grey', 'green', 'violet', 'brown', 'pink'],
  };

  it('strokes each other link type in its own colour', () => {
    vi.stubGlobal('Path2D', FakePath);
    const result = atlasFixture(
      [atlasNode(0), atlasNode(1), atlasNode(2), atlasNode(3)],
      [[0, 1, 0.9]],
    );
    result.links.push(
      { from: nodeId(1), to: nodeId(2), type: 'supports', weight: 0.9 },
      { from: nodeId(2), to: nodeId(3), type: 'follows', weight: 0.9 },
      { from: nodeId(3), to: nodeId(0), type: 'part_of', weight: 0.9 },
      { from: nodeId(0), to: nodeId(2), type: 'derived_from', weight: 0.9 },
    );
    const model = buildModel(result);
    expect(Array.from(model.styleCounts)).toEqual([1, 1, 1, 2, 0]);
    const positions = Float32Array.from([0, 0, 100, 0, 100, 100, 0, 100]);
    const { ctx, strokes } = fakeContext();
    drawBase(ctx, {
      width: 400,
      height: 400,
      dpr: 1,
      camera: { x: 150, y: 150, k: 1 },
      model,
      positions,
      visible: new Uint8Array(4).fill(1),
      highlight: null,
      hovered: -1,
      palette: paletteOrder(model, 'kind'),
      colours,
      font: '12px sans-serif',
    });
    const by = (style: string) => strokes.filter((s) => s.style === style);
    expect(by('grey').flatMap((s) => s.ops)).toEqual(['M0,0', 'L100,0']);
    expect(by('green')[0]).toMatchObject({ dash: [], ops: ['M100,0', 'L100,100'] });
    expect(by('violet')[0]).toMatchObject({ dash: [], ops: ['M100,100', 'L0,100'] });
    // Part of and derived from share the structure colour.
    expect(by('brown')[0]?.dash).toEqual([]);
    expect(by('brown').flatMap((s) => s.ops)).toHaveLength(4);
  });

  it('draws contradictions dashed and supersessions as arrows, apart from other links', () => {
    vi.stubGlobal('Path2D', FakePath);
    const result = atlasFixture([atlasNode(0), atlasNode(1), atlasNode(2)], [[0, 1, 0.9]]);
    result.links.push(
      { from: nodeId(1), to: nodeId(2), type: 'contradicts', weight: 0.5 },
      { from: nodeId(2), to: nodeId(0), type: 'supersedes', weight: 1 },
    );
    const model = buildModel(result);
    expect(Array.from(model.contradicts)).toEqual([1]);
    expect(Array.from(model.supersedes)).toEqual([2]);
    // The ordinary links, by opacity bucket, leave those two out.
    expect(Array.from(model.linkOrder)).toEqual([0]);
    const positions = Float32Array.from([0, 0, 100, 0, 100, 100]);
    const { ctx, strokes, fills } = fakeContext();
    const drawn = drawBase(ctx, {
      width: 400,
      height: 400,
      dpr: 1,
      camera: { x: 150, y: 150, k: 1 },
      model,
      positions,
      visible: new Uint8Array(3).fill(1),
      highlight: null,
      hovered: -1,
      palette: paletteOrder(model, 'kind'),
      colours,
      font: '12px sans-serif',
    });
    expect(drawn.links).toBe(3);
    const grey = strokes.filter((s) => s.style === 'grey');
    expect(grey.flatMap((s) => s.ops)).toEqual(['M0,0', 'L100,0']);
    const red = strokes.find((s) => s.style === 'red')!;
    expect(red.dash.length).toBe(2);
    expect(red.ops).toEqual(['M100,0', 'L100,100']);
    const teal = strokes.find((s) => s.style === 'teal')!;
    expect(teal.dash).toEqual([]);
    expect(teal.ops).toHaveLength(2);
    // One arrow head, pointing at the memory it replaced (node 0, at the origin).
    const head = fills.find((f) => f.style === 'teal')!;
    expect(head.ops).toHaveLength(4);
    expect(head.ops[3]).toBe('Z');
    const [tx, ty] = head.ops[0]!.slice(1).split(',').map(Number);
    expect(Math.hypot(tx!, ty!)).toBeCloseTo(model.radii[0]!, 4);
    vi.unstubAllGlobals();
  });

  it('draws a cause and its effect as a dotted arrow in its own colour, apart from the rest', () => {
    vi.stubGlobal('Path2D', FakePath);
    const result = atlasFixture([atlasNode(0), atlasNode(1)], []);
    result.links.push({ from: nodeId(0), to: nodeId(1), type: 'causes', weight: 0.8 });
    const model = buildModel(result);
    expect(Array.from(model.causes)).toEqual([0]);
    expect(Array.from(model.linkOrder)).toEqual([]);
    const { ctx, strokes, fills } = fakeContext();
    drawBase(ctx, {
      width: 400,
      height: 400,
      dpr: 1,
      camera: { x: 50, y: 0, k: 1 },
      model,
      positions: Float32Array.from([0, 0, 100, 0]),
      visible: new Uint8Array(2).fill(1),
      highlight: null,
      hovered: -1,
      palette: paletteOrder(model, 'kind'),
      colours,
      font: '12px sans-serif',
    });
    const rust = strokes.find((s) => s.style === 'rust')!;
    expect(rust.dash.length).toBe(2);
    // The head points at the effect (node 1, at x = 100).
    const head = fills.find((f) => f.style === 'rust')!;
    const [tx] = head.ops[0]!.slice(1).split(',').map(Number);
    expect(100 - tx!).toBeCloseTo(model.radii[1]!, 4);
    vi.unstubAllGlobals();
  });
});
