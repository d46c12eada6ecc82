// The Atlas's base layer (links, nodes, rings) kept as a bitmap while nothing in it moves:
// panning and zooming a settled map then costs one image copy per frame instead of
// redrawing thousands of shapes. Drawn with a margin around the view so a pan stays
// inside it; redrawn when the view leaves it, when anything in it changes, and crisp
// again shortly after a zoom (a scaled copy is a little soft).
import type { Camera } from './camera';
import { clearCanvas, drawBase, type Scene } from './draw';

/** The margin around the view, as a share of its longer side. */
const MARGIN = 0.25;

export class LayerCache {
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private key: string | null = null;
  /** The camera the bitmap was drawn with, in the bitmap's own CSS pixels. */
  private camera: Camera = { x: 0, y: 0, k: 1 };
  private cssWidth = 0;
  private cssHeight = 0;
  private dpr = 1;
  drawn = { nodes: 0, links: 0 };

  constructor(doc: Document = document) {
    this.canvas = doc.createElement('canvas');
    this.ctx = this.canvas.getContext('2d');
  }

  get available(): boolean {
    return this.ctx !== null;
  }

  /** Forgets the bitmap (its content is out of date). */
  invalidate(): void {
    this.key = null;
  }

  /** The bitmap shows this content (`key`) and the whole view of `camera`. */
  covers(key: string, camera: Camera, width: number, height: number, dpr: number): boolean {
    if (key !== this.key || dpr !== this.dpr) return false;
    const s = camera.k / this.camera.k;
    const dx = camera.x - this.camera.x * s;
    const dy = camera.y - this.camera.y * s;
    return (
      dx <= 0.5 &&
      dy <= 0.5 &&
      dx + this.cssWidth * s >= width - 0.5 &&
      dy + this.cssHeight * s >= height - 0.5
    );
  }

  /** Drawn at this zoom (a copy at another zoom is scaled, so soft). */
  sharpAt(camera: Camera): boolean {
    return Math.abs(camera.k / this.camera.k - 1) < 1e-6;
  }

  /** Draws the base of `scene` into the bitmap, with a margin around the view. */
  render(key: string, scene: Scene): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const margin = Math.round(MARGIN * Math.max(scene.width, scene.height));
    const width = scene.width + 2 * margin;
    const height = scene.height + 2 * margin;
    const pw = Math.max(1, Math.round(width * scene.dpr));
    const ph = Math.max(1, Math.round(height * scene.dpr));
    if (this.canvas.width !== pw || this.canvas.height !== ph) {
      this.canvas.width = pw;
      this.canvas.height = ph;
    } else {
      clearCanvas(ctx);
    }
    const camera = { x: scene.camera.x + margin, y: scene.camera.y + margin, k: scene.camera.k };
    this.drawn = drawBase(ctx, { ...scene, width, height, camera });
    this.key = key;
    this.camera = camera;
    this.cssWidth = width;
    this.cssHeight = height;
    this.dpr = scene.dpr;
  }

  /** Copies the bitmap onto `ctx` as seen through `camera`. */
  blit(ctx: CanvasRenderingContext2D, camera: Camera, dpr: number): void {
    const s = camera.k / this.camera.k;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.globalAlpha = 1;
    ctx.drawImage(
      this.canvas,
      camera.x - this.camera.x * s,
      camera.y - this.camera.y * s,
      this.cssWidth * s,
      this.cssHeight * s,
    );
  }
}
