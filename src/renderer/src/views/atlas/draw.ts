// Draws one frame of the Atlas on a 2D canvas. Built for thousands of nodes: links are
// one path per opacity bucket, nodes one path per colour, anything off screen is
// skipped, tiny nodes are squares (cheaper than arcs), and labels are few and only for
// big, hovered or matching nodes once zoomed in enough to read them.
import { toWorld, type Camera } from './camera';
import { otherEnd, type AtlasModel } from './model';
import { bucketAlpha, colourSlot, LINK_BUCKETS, paletteSize, type ColourMode } from './style';
import type { ThemeColours } from './themeColours';

/** Nodes grouped by palette slot, so each colour is one fill. */
export interface PaletteOrder {
  mode: ColourMode;
  /** Node indices grouped by slot: slot s is order[starts[s] .. starts[s + 1]). */
  order: Uint32Array;
  starts: Uint32Array;
}

export function paletteOrder(model: AtlasModel, mode: ColourMode): PaletteOrder {
  const slots = paletteSize(mode);
  const starts = new Uint32Array(slots + 1);
  const slotOf = new Uint8Array(model.nodes.length);
  model.nodes.forEach((node, i) => {
    const s = colourSlot(node, mode);
    slotOf[i] = s;
    starts[s + 1] = starts[s + 1]! + 1;
  });
  for (let s = 0; s < slots; s++) starts[s + 1] = starts[s + 1]! + starts[s]!;
  const cursor = starts.slice(0, slots);
  const order = new Uint32Array(model.nodes.length);
  for (let i = 0; i < model.nodes.length; i++) {
    const s = slotOf[i]!;
    order[cursor[s]!] = i;
    cursor[s] = cursor[s]! + 1;
  }
  return { mode, order, starts };
}

export interface Scene {
  /** CSS pixels. */
  width: number;
  height: number;
  dpr: number;
  camera: Camera;
  model: AtlasModel;
  positions: Float32Array;
  visible: Uint8Array;
  /** Search matches, or null when nothing is searched. */
  highlight: Uint8Array | null;
  hovered: number;
  palette: PaletteOrder;
  colours: ThemeColours;
  font: string;
  /**
   * At most this many links, the strongest first (null: all). Only while the layout
   * moves and frames run late; a settled map always draws every link.
   */
  linkLimit?: number | null;
}

export interface DrawResult {
  nodes: number;
  links: number;
  labels: number;
}

/** Screen pixels: below this a node is a square, above it a disc. */
const DISC_MIN_PX = 1.6;
/** Labels appear for nodes at least this big on screen… */
const LABEL_MIN_PX = 6;
/** …and at most this many at once (text is the slowest thing a canvas draws). */
const MAX_LABELS = 60;
const DIM = 0.16;

type Rect = [number, number, number, number];

/** The world rectangle on screen, widened by the biggest node (and ring). */
function viewRect(scene: Scene): Rect {
  const { camera, width, height, model } = scene;
  const [vx0, vy0] = toWorld(camera, 0, 0);
  const [vx1, vy1] = toWorld(camera, width, height);
  const pad = model.maxRadius + 4 / camera.k;
  return [vx0 - pad, vy0 - pad, vx1 + pad, vy1 + pad];
}

function worldTransform(ctx: CanvasRenderingContext2D, scene: Scene): void {
  const { dpr, camera } = scene;
  ctx.setTransform(dpr * camera.k, 0, 0, dpr * camera.k, dpr * camera.x, dpr * camera.y);
}

export function clearCanvas(ctx: CanvasRenderingContext2D): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
}

/** A whole frame: the base (links, nodes, rings) and the overlay (hover, labels). */
export function drawScene(ctx: CanvasRenderingContext2D, scene: Scene): DrawResult {
  clearCanvas(ctx);
  const base = drawBase(ctx, scene);
  return { ...base, labels: drawOverlay(ctx, scene) };
}

/**
 * The dash of each link style (LINK_STYLES), in screen pixels: none for solid. The many
 * links are told apart by colour only: dashing thousands of them costs the rasteriser
 * while the layout moves (bench:atlas with follows and structure dashed: 29.9 and 40.0
 * fps laying out, against 36.6 and 37.7 solid). Dashes and arrows stay for the few links
 * drawn apart (contradicts, supersedes, causes), which also have their own shapes.
 */
export const LINK_STYLE_STROKES: readonly (readonly number[])[] = [[], [], [], [], []];

/**
 * Links, nodes and rings: everything that changes only when the layout, the filters,
 * the search or the colours do (so it can be kept as a bitmap while the camera moves).
 * Draws over what is there; clear first.
 */
export function drawBase(
  ctx: CanvasRenderingContext2D,
  scene: Scene,
): { nodes: number; links: number } {
  const { camera, model, positions, visible, highlight } = scene;
  const { colours } = scene;
  const k = camera.k;
  const p = positions;
  const result = { nodes: 0, links: 0 };
  worldTransform(ctx, scene);
  const [x0, y0, x1, y1] = viewRect(scene);

  // Links: one stroke per opacity bucket and style (and per dimmed one while searching).
  ctx.lineWidth = 1 / k;
  const ends = model.linkEnds;
  const styleOf = model.linkStyle;
  const styleColours = colours.linkStyles ?? [colours.link];
  const take = linkTake(model.linkBucketStarts, scene.linkLimit ?? null);
  const styles = LINK_STYLE_STROKES.length;
  for (let b = 0; b < LINK_BUCKETS; b++) {
    const from = model.linkBucketStarts[b]!;
    const to = from + take[b]!;
    if (from === to) continue;
    const strong: (Path2D | null)[] = new Array<Path2D | null>(styles).fill(null);
    const dim: (Path2D | null)[] = new Array<Path2D | null>(styles).fill(null);
    for (let o = from; o < to; o++) {
      const l = model.linkOrder[o]!;
      const a = ends[l * 2]!;
      const c = ends[l * 2 + 1]!;
      if (!visible[a] || !visible[c]) continue;
      const ax = p[a * 2]!;
      const ay = p[a * 2 + 1]!;
      const cx = p[c * 2]!;
      const cy = p[c * 2 + 1]!;
      if ((ax < x0 && cx < x0) || (ax > x1 && cx > x1)) continue;
      if ((ay < y0 && cy < y0) || (ay > y1 && cy > y1)) continue;
      const st = styleOf ? styleOf[l]! : 0;
      const set = highlight && !(highlight[a] && highlight[c]) ? dim : strong;
      const path = (set[st] ??= new Path2D());
      path.moveTo(ax, ay);
      path.lineTo(cx, cy);
      result.links++;
    }
    const alpha = bucketAlpha(b);
    for (const [set, a] of [
      [dim, alpha * DIM],
      [strong, alpha],
    ] as const) {
      for (let st = 0; st < styles; st++) {
        const path = set[st];
        if (!path) continue;
        ctx.globalAlpha = a;
        ctx.strokeStyle = styleColours[st] ?? colours.link;
        const dash = LINK_STYLE_STROKES[st]!;
        if (dash.length) ctx.setLineDash(dash.map((d) => d / k));
        ctx.stroke(path);
        if (dash.length) ctx.setLineDash([]);
      }
    }
  }

  result.links += drawTypedLinks(ctx, scene, [x0, y0, x1, y1]);

  // Nodes: one fill per colour; dimmed ones first so matches sit on top.
  const radii = model.radii;
  const { order, starts } = scene.palette;
  const palette = scene.palette.mode === 'kind' ? colours.kind : colours.community;
  const passes = highlight ? [0, 1] : [1];
  for (const pass of passes) {
    ctx.globalAlpha = pass === 0 ? DIM : 1;
    for (let s = 0; s + 1 < starts.length; s++) {
      const from = starts[s]!;
      const to = starts[s + 1]!;
      if (from === to) continue;
      const path = new Path2D();
      let count = 0;
      for (let o = from; o < to; o++) {
        const i = order[o]!;
        if (!visible[i]) continue;
        if (highlight && (highlight[i] ? 1 : 0) !== pass) continue;
        const x = p[i * 2]!;
        const y = p[i * 2 + 1]!;
        if (x < x0 || x > x1 || y < y0 || y > y1) continue;
        const r = radii[i]!;
        if (r * k < DISC_MIN_PX) {
          path.rect(x - r, y - r, 2 * r, 2 * r);
        } else {
          path.moveTo(x + r, y);
          path.arc(x, y, r, 0, Math.PI * 2);
        }
        count++;
      }
      if (count === 0) continue;
      ctx.fillStyle = palette[s] ?? colours.link;
      ctx.fill(path);
      result.nodes += count;
    }
  }
  ctx.globalAlpha = 1;

  // Rings: pinned memories (the text colour), search matches (the highlight colour).
  const pinned = new Path2D();
  let pinnedCount = 0;
  const matched = highlight ? new Path2D() : null;
  for (let i = 0; i < model.nodes.length; i++) {
    if (!visible[i]) continue;
    const x = p[i * 2]!;
    const y = p[i * 2 + 1]!;
    if (x < x0 || x > x1 || y < y0 || y > y1) continue;
    const r = radii[i]!;
    if (model.nodes[i]!.pinned && (!highlight || highlight[i])) {
      pinned.moveTo(x + r + 1.5 / k, y);
      pinned.arc(x, y, r + 1.5 / k, 0, Math.PI * 2);
      pinnedCount++;
    }
    if (matched && highlight![i]) {
      matched.moveTo(x + r + 3.5 / k, y);
      matched.arc(x, y, r + 3.5 / k, 0, Math.PI * 2);
    }
  }
  if (pinnedCount > 0) {
    ctx.strokeStyle = colours.text;
    ctx.lineWidth = 1.25 / k;
    ctx.stroke(pinned);
  }
  if (matched) {
    ctx.strokeStyle = colours.highlight;
    ctx.lineWidth = 2 / k;
    ctx.stroke(matched);
  }
  return result;
}

/** Screen pixels of a supersedes arrow's head. */
const ARROW_LENGTH_PX = 8;
const ARROW_HALF_WIDTH_PX = 4;
const TYPED_ALPHA = 0.9;

/**
 * Where a supersedes arrow is drawn, in world units: the shaft from the edge of the
 * memory that holds to the head's base, and the head whose tip touches the edge of the
 * one it replaced. Null when the two overlap (nothing to point along).
 */
export function arrowGeometry(
  ax: number,
  ay: number,
  ar: number,
  cx: number,
  cy: number,
  cr: number,
  k: number,
): {
  shaft: [number, number, number, number];
  head: [number, number, number, number, number, number];
} | null {
  const dx = cx - ax;
  const dy = cy - ay;
  const d = Math.hypot(dx, dy);
  const len = ARROW_LENGTH_PX / k;
  const half = ARROW_HALF_WIDTH_PX / k;
  if (d <= ar + cr + len * 0.5) return null;
  const ux = dx / d;
  const uy = dy / d;
  const tipX = cx - ux * cr;
  const tipY = cy - uy * cr;
  const baseX = tipX - ux * len;
  const baseY = tipY - uy * len;
  return {
    shaft: [ax + ux * ar, ay + uy * ar, baseX, baseY],
    head: [tipX, tipY, baseX - uy * half, baseY + ux * half, baseX + uy * half, baseY - ux * half],
  };
}

/**
 * The links that say what is true now, over the others and always all of them (there
 * are few): contradictions dashed in their colour, supersessions as arrows from the
 * memory that holds to the one it replaced. One stroke (and one fill) per type.
 */
function drawTypedLinks(
  ctx: CanvasRenderingContext2D,
  scene: Scene,
  [x0, y0, x1, y1]: Rect,
): number {
  const { camera, model, positions: p, visible, highlight, colours } = scene;
  if (model.contradicts.length === 0 && model.supersedes.length === 0 && model.causes.length === 0)
    return 0;
  const k = camera.k;
  const ends = model.linkEnds;
  const radii = model.radii;
  let drawn = 0;
  const inView = (a: number, c: number) => {
    if (!visible[a] || !visible[c]) return false;
    const ax = p[a * 2]!;
    const ay = p[a * 2 + 1]!;
    const cx = p[c * 2]!;
    const cy = p[c * 2 + 1]!;
    if ((ax < x0 && cx < x0) || (ax > x1 && cx > x1)) return false;
    return !((ay < y0 && cy < y0) || (ay > y1 && cy > y1));
  };
  const dimmed = (a: number, c: number) => highlight !== null && !(highlight[a] && highlight[c]);
  ctx.lineWidth = 1.5 / k;
  for (const pass of highlight ? [true, false] : [false]) {
    ctx.globalAlpha = pass ? TYPED_ALPHA * DIM : TYPED_ALPHA;
    if (model.contradicts.length) {
      const path = new Path2D();
      let n = 0;
      for (const l of model.contradicts) {
        const a = ends[l * 2]!;
        const c = ends[l * 2 + 1]!;
        if (!inView(a, c) || dimmed(a, c) !== pass) continue;
        path.moveTo(p[a * 2]!, p[a * 2 + 1]!);
        path.lineTo(p[c * 2]!, p[c * 2 + 1]!);
        n++;
      }
      if (n) {
        ctx.strokeStyle = colours.contradicts;
        ctx.setLineDash([5 / k, 4 / k]);
        ctx.stroke(path);
        ctx.setLineDash([]);
        drawn += n;
      }
    }
    // Arrows: supersessions (solid, from what holds to what it replaced) and causes
    // (dotted, from the cause to its effect).
    for (const [list, colour, dash] of [
      [model.supersedes, colours.supersedes, null],
      [model.causes, colours.causes, [2 / k, 3 / k]],
    ] as const) {
      if (!list.length) continue;
      const shafts = new Path2D();
      const heads = new Path2D();
      let n = 0;
      for (const l of list) {
        const a = ends[l * 2]!;
        const c = ends[l * 2 + 1]!;
        if (!inView(a, c) || dimmed(a, c) !== pass) continue;
        const g = arrowGeometry(
          p[a * 2]!,
          p[a * 2 + 1]!,
          radii[a]!,
          p[c * 2]!,
          p[c * 2 + 1]!,
          radii[c]!,
          k,
        );
        n++;
        if (!g) continue;
        shafts.moveTo(g.shaft[0], g.shaft[1]);
        shafts.lineTo(g.shaft[2], g.shaft[3]);
        heads.moveTo(g.head[0], g.head[1]);
        heads.lineTo(g.head[2], g.head[3]);
        heads.lineTo(g.head[4], g.head[5]);
        heads.closePath();
      }
      if (n) {
        ctx.strokeStyle = colour;
        ctx.fillStyle = colour;
        if (dash) ctx.setLineDash([...dash]);
        ctx.stroke(shafts);
        ctx.setLineDash([]);
        ctx.fill(heads);
        drawn += n;
      }
    }
  }
  ctx.globalAlpha = 1;
  return drawn;
}

/**
 * How many links of each opacity bucket a frame draws under `limit`: the strongest
 * buckets whole, then the first links of the next (null: every link).
 */
export function linkTake(bucketStarts: Uint32Array, limit: number | null): number[] {
  const take: number[] = [];
  for (let b = 0; b < LINK_BUCKETS; b++) take.push(bucketStarts[b + 1]! - bucketStarts[b]!);
  if (limit === null) return take;
  let left = Math.max(0, Math.floor(limit));
  for (let b = LINK_BUCKETS - 1; b >= 0; b--) {
    take[b] = Math.min(take[b]!, left);
    left -= take[b]!;
  }
  return take;
}

/** The hovered memory (its links and a ring) and the labels, over the base. */
export function drawOverlay(ctx: CanvasRenderingContext2D, scene: Scene): number {
  const { camera, model, positions: p, visible, hovered, colours } = scene;
  const k = camera.k;
  const radii = model.radii;
  worldTransform(ctx, scene);
  // The hovered memory: its links and a ring, in the accent colour.
  if (hovered >= 0 && hovered < model.nodes.length && visible[hovered]) {
    const hx = p[hovered * 2]!;
    const hy = p[hovered * 2 + 1]!;
    const around = new Path2D();
    for (let a = model.adjOffsets[hovered]!; a < model.adjOffsets[hovered + 1]!; a++) {
      const j = otherEnd(model, model.adjacency[a]!, hovered);
      if (!visible[j]) continue;
      around.moveTo(hx, hy);
      around.lineTo(p[j * 2]!, p[j * 2 + 1]!);
    }
    ctx.strokeStyle = colours.accent;
    ctx.globalAlpha = 0.85;
    ctx.lineWidth = 1.5 / k;
    ctx.stroke(around);
    ctx.globalAlpha = 1;
    const r = radii[hovered]! + 2.5 / k;
    ctx.lineWidth = 2.5 / k;
    ctx.beginPath();
    ctx.arc(hx, hy, r, 0, Math.PI * 2);
    ctx.stroke();
  }
  return drawLabels(ctx, scene, viewRect(scene));
}

function truncateTitle(title: string): string {
  const t = title.trim();
  return t.length > 36 ? `${t.slice(0, 35)}…` : t;
}

/** Labels in screen space, biggest first, never overlapping one another. */
function drawLabels(ctx: CanvasRenderingContext2D, scene: Scene, [x0, y0, x1, y1]: Rect): number {
  const { model, positions: p, visible, highlight, hovered, camera, dpr, colours } = scene;
  const k = camera.k;
  const candidates: number[] = [];
  if (hovered >= 0 && visible[hovered]) candidates.push(hovered);
  const inView = (i: number) => {
    const x = p[i * 2]!;
    const y = p[i * 2 + 1]!;
    return x >= x0 && x <= x1 && y >= y0 && y <= y1;
  };
  // Matches first when searching (the few that fit), then the biggest nodes.
  for (let o = 0; o < model.bySize.length && candidates.length < MAX_LABELS; o++) {
    const i = model.bySize[o]!;
    if (!visible[i] || !highlight?.[i] || i === hovered || !inView(i)) continue;
    if (model.radii[i]! * k < LABEL_MIN_PX / 2) break;
    candidates.push(i);
  }
  for (let o = 0; o < model.bySize.length && candidates.length < MAX_LABELS; o++) {
    const i = model.bySize[o]!;
    if (model.radii[i]! * k < LABEL_MIN_PX) break;
    if (!visible[i] || (highlight && !highlight[i]) || i === hovered || !inView(i)) continue;
    candidates.push(i);
  }
  if (candidates.length === 0) return 0;

  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = scene.font;
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = colours.halo;
  ctx.fillStyle = colours.text;
  const taken: [number, number, number, number][] = [];
  let drawn = 0;
  for (const i of candidates) {
    const text = truncateTitle(model.nodes[i]!.title);
    if (!text) continue;
    const sx = p[i * 2]! * k + camera.x + model.radii[i]! * k + 4;
    const sy = p[i * 2 + 1]! * k + camera.y;
    const w = ctx.measureText(text).width;
    const box: [number, number, number, number] = [sx - 2, sy - 8, sx + w + 2, sy + 8];
    if (
      i !== hovered &&
      taken.some((t) => box[0] < t[2] && box[2] > t[0] && box[1] < t[3] && box[3] > t[1])
    )
      continue;
    taken.push(box);
    ctx.strokeText(text, sx, sy);
    ctx.fillText(text, sx, sy);
    drawn++;
  }
  return drawn;
}
