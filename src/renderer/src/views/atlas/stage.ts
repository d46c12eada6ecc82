// The Atlas's stage: owns the canvas, the layout (worker or fallback), the camera and the
// drawing loop, apart from React so a frame never waits for a render. It draws only when
// something changed (layout motion, camera, hover, filters, colours) and sleeps when the
// layout has settled; pointer, wheel, touch and keyboard move the camera or a node.
import { boundsOf, easeCamera, fitBounds, pan, toWorld, zoomAt, type Camera } from './camera';
import {
  clearCanvas,
  drawOverlay,
  drawScene,
  paletteOrder,
  type PaletteOrder,
  type Scene,
} from './draw';
import { FpsMeter } from './fpsMeter';
import { attachInput, type InputHandle } from './input';
import { GridIndex } from './hitTest';
import { LayerCache } from './layerCache';
import { createLayoutHost, type LayoutHost, type LayoutListener } from './layoutHost';
import { positionsById, seedPositions, type AtlasModel } from './model';
import { Motion } from './motion';
import type { ColourMode } from './style';
import { publishStats, type AtlasStats } from './stats';
import type { ThemeColours } from './themeColours';

export interface StageCallbacks {
  /** The memory under the pointer changed (-1: none), with the pointer's place in the canvas. */
  onHover(index: number, x: number, y: number): void;
  /** A memory was clicked (pressed and released without dragging). */
  onOpen(index: number): void;
  /** The layout failed (in the worker and the fallback). */
  onLayoutError?(message: string): void;
}

export type HostFactory = (listener: LayoutListener) => LayoutHost;

/** How far the pointer may miss a small node and still hover it (CSS px). */
const HOVER_SLOP = 4;
/** After the camera stops this long, a zoomed (soft) bitmap is redrawn sharp. */
const SHARPEN_MS = 150;
/**
 * While the layout moves, a frame that arrives later than this (ms, about 30 fps)
 * thins the links drawn, strongest kept, and one well inside it brings them back; the
 * way big-graph viewers hide edges in motion. A settled map always draws every link.
 */
const LATE_FRAME_MS = 1000 / 30 + 2;
const QUICK_FRAME_MS = 1000 / 45;
const MIN_LINK_LIMIT = 1500;

export class AtlasStage {
  private readonly ctx: CanvasRenderingContext2D | null;
  private readonly host: LayoutHost;
  private readonly meter = new FpsMeter();
  private readonly cleanup: (() => void)[] = [];
  private model: AtlasModel | null = null;
  private motion: Motion | null = null;
  private generation = 0;
  private visible: Uint8Array = new Uint8Array(0);
  private highlight: Uint8Array | null = null;
  private palette: PaletteOrder | null = null;
  private mode: ColourMode = 'kind';
  private colours: ThemeColours | null = null;
  private font = '12px sans-serif';
  private camera: Camera = { x: 0, y: 0, k: 1 };
  private width = 0;
  private height = 0;
  private dpr = 1;
  /** Follow the layout with the camera until the person moves it themselves. */
  private autoFit = true;
  private fitMask: Uint8Array | null = null;
  private hovered = -1;
  private input: InputHandle | null = null;
  private index: GridIndex | null = null;
  private indexVersion = -1;
  private dirty = true;
  private raf = 0;
  private frames = 0;
  private lastDraw = { nodes: 0, links: 0, labels: 0 };
  private readonly reducedMotion: boolean;
  private readonly cache: LayerCache;
  /** Bumped whenever the base layer's content changes (not the camera, not hover). */
  private baseVersion = 0;
  private cameraMovedAt = 0;
  private sharpenTimer: ReturnType<typeof setTimeout> | null = null;
  private layoutError: string | null = null;
  /** Links a moving frame may draw (null: all); see LATE_FRAME_MS. */
  private linkLimit: number | null = null;
  /** When the last full (moving) frame was drawn, and the smoothed interval between them. */
  private lastFullFrame = -Infinity;
  private frameInterval = 0;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly callbacks: StageCallbacks,
    hostFactory: HostFactory = (listener) => createLayoutHost(listener),
  ) {
    this.ctx = canvas.getContext('2d', { alpha: true });
    this.cache = new LayerCache(canvas.ownerDocument);
    this.host = hostFactory((message) => {
      if (message.type === 'error') {
        this.layoutError = message.message;
        this.callbacks.onLayoutError?.(message.message);
        return;
      }
      if (message.generation !== this.generation || !this.motion) return;
      this.motion.receive(message, performance.now());
      this.requestDraw();
    });
    this.reducedMotion =
      typeof window.matchMedia === 'function' &&
      window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.listen();
    // The rolling FPS decays to 0 while nothing is drawn: keep the published figure true.
    const timer = setInterval(() => this.publish(), 500);
    this.cleanup.push(() => clearInterval(timer));
  }

  // ------------------------------------------------------------------ inputs from React

  /** A new answer from the engine: keeps the places of memories drawn before. */
  setModel(model: AtlasModel): void {
    const previous =
      this.model && this.motion ? positionsById(this.model, this.motion.current) : null;
    const seeded = seedPositions(model, previous);
    this.model = model;
    this.generation++;
    this.motion = new Motion(seeded.positions);
    this.index = null;
    this.palette = paletteOrder(model, this.mode);
    if (this.visible.length !== model.nodes.length)
      this.visible = new Uint8Array(model.nodes.length).fill(1);
    if (this.highlight && this.highlight.length !== model.nodes.length) this.highlight = null;
    this.hover(-1, 0, 0);
    const n = model.nodes.length;
    const alpha = seeded.kept === 0 ? 1 : seeded.kept >= n * 0.95 ? 0.15 : 0.4;
    this.layoutError = null;
    this.host.send({
      type: 'init',
      generation: this.generation,
      positions: seeded.positions,
      links: model.linkEnds,
      weights: model.linkWeights,
      ...(model.meaning ? { targets: model.meaning.slice() } : {}),
      alpha: n === 0 ? 0 : alpha,
    });
    this.invalidateBase();
  }

  setVisible(mask: Uint8Array): void {
    this.visible = mask;
    this.index = null;
    if (this.hovered >= 0 && !mask[this.hovered]) this.hover(-1, 0, 0);
    this.invalidateBase();
  }

  setHighlight(mask: Uint8Array | null): void {
    this.highlight = mask;
    this.invalidateBase();
  }

  setColourMode(mode: ColourMode): void {
    this.mode = mode;
    if (this.model) this.palette = paletteOrder(this.model, mode);
    this.invalidateBase();
  }

  setColours(colours: ThemeColours, font: string): void {
    this.colours = colours;
    this.font = font;
    this.invalidateBase();
  }

  resize(width: number, height: number, dpr: number): void {
    if (width === this.width && height === this.height && dpr === this.dpr) return;
    const first = this.width === 0 || this.height === 0;
    this.width = width;
    this.height = height;
    this.dpr = dpr;
    this.canvas.width = Math.max(1, Math.round(width * dpr));
    this.canvas.height = Math.max(1, Math.round(height * dpr));
    if (first) this.camera = { x: width / 2, y: height / 2, k: 1 };
    this.invalidateBase();
  }

  /** Shows everything drawn (or only `mask`), and follows the layout again. */
  fit(mask: Uint8Array | null = null): void {
    this.autoFit = true;
    this.fitMask = mask;
    this.invalidate();
  }

  zoomBy(factor: number): void {
    this.userCamera(zoomAt(this.camera, this.width / 2, this.height / 2, factor));
  }

  panBy(dx: number, dy: number): void {
    this.userCamera(pan(this.camera, dx, dy));
  }

  /** Pauses the layout (the page is hidden) or lets it carry on. */
  setActive(active: boolean): void {
    if (!active) this.host.send({ type: 'pause' });
    else if (this.motion && !this.motion.settled)
      this.host.send({ type: 'reheat', generation: this.generation, alpha: 0 });
  }

  stats(): AtlasStats {
    const now = performance.now();
    return {
      fps: Math.round(this.meter.fps(now) * 10) / 10,
      drawMs: Math.round(this.meter.meanDrawMs(now) * 100) / 100,
      frames: this.frames,
      nodes: this.model?.nodes.length ?? 0,
      links: this.model ? this.model.linkWeights.length : 0,
      drawnNodes: this.lastDraw.nodes,
      drawnLinks: this.lastDraw.links,
      settled: this.motion ? this.motion.settled && !this.motion.moving : false,
      ticks: this.motion?.ticks ?? 0,
      tickMs: Math.round((this.motion?.tickMs ?? 0) * 100) / 100,
      offThread: this.host.offThread,
      zoom: Math.round(this.camera.k * 1000) / 1000,
      linkLimit: this.linkLimit,
      error: this.layoutError,
    };
  }

  dispose(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    if (this.sharpenTimer) clearTimeout(this.sharpenTimer);
    this.raf = 0;
    for (const off of this.cleanup) off();
    this.host.dispose();
  }

  // ------------------------------------------------------------------ drawing

  requestDraw(): void {
    if (this.raf) return;
    this.raf = requestAnimationFrame(this.frame);
  }

  /** Something drawn changed: draw again. */
  private invalidate(): void {
    this.dirty = true;
    this.requestDraw();
  }

  /** Something in the base layer changed: its bitmap is out of date. */
  private invalidateBase(): void {
    this.baseVersion++;
    this.invalidate();
  }

  private cameraMoved(): void {
    this.cameraMovedAt = performance.now();
    if (this.sharpenTimer) clearTimeout(this.sharpenTimer);
    this.sharpenTimer = setTimeout(() => {
      this.sharpenTimer = null;
      this.invalidate();
    }, SHARPEN_MS + 10);
  }

  private readonly frame = (now: number) => {
    this.raf = 0;
    const model = this.model;
    const motion = this.motion;
    if (!model || !motion || this.width === 0) return;
    let changed = this.dirty;
    if (motion.step(now)) changed = true;
    let fitting = false;
    if (this.autoFit) {
      const target = fitBounds(
        boundsOf(motion.current, model.radii, this.fitMask ?? this.visible),
        this.width,
        this.height,
      );
      const done =
        Math.abs(Math.log(target.k / this.camera.k)) < 0.002 &&
        Math.abs(target.x - this.camera.x) < 0.5 &&
        Math.abs(target.y - this.camera.y) < 0.5;
      if (!done) {
        this.camera = this.reducedMotion ? target : easeCamera(this.camera, target, 0.2);
        this.cameraMoved();
        fitting = true;
        changed = true;
      }
    }
    if (changed && this.ctx && this.colours && this.palette) {
      const start = performance.now();
      const scene: Scene = {
        width: this.width,
        height: this.height,
        dpr: this.dpr,
        camera: this.camera,
        model,
        positions: motion.current,
        visible: this.visible,
        highlight: this.highlight,
        hovered: this.hovered,
        palette: this.palette,
        colours: this.colours,
        font: this.font,
        linkLimit: null,
      };
      // While nothing in the base moves, the camera and the hover only need a copy of
      // its bitmap and a fresh overlay.
      const still = !motion.moving && !this.input?.dragging();
      if (still && this.cache.available) {
        const key = `${this.baseVersion}:${motion.version}`;
        const resting = now - this.cameraMovedAt >= SHARPEN_MS;
        if (
          !this.cache.covers(key, this.camera, this.width, this.height, this.dpr) ||
          (resting && !this.cache.sharpAt(this.camera))
        ) {
          this.cache.render(key, scene);
        }
        clearCanvas(this.ctx);
        this.cache.blit(this.ctx, this.camera, this.dpr);
        this.lastDraw = { ...this.cache.drawn, labels: drawOverlay(this.ctx, scene) };
        this.linkLimit = null;
        this.lastFullFrame = -Infinity;
      } else {
        this.cache.invalidate();
        if (still) this.linkLimit = null;
        else this.adaptLinkLimit(now, model.linkWeights.length);
        scene.linkLimit = this.linkLimit;
        this.lastDraw = drawScene(this.ctx, scene);
        this.lastFullFrame = now;
      }
      this.frames++;
      this.meter.frame(now, performance.now() - start);
      this.dirty = false;
      this.publish();
    }
    if (motion.moving || fitting || this.dirty) this.requestDraw();
  };

  /** Thins links when moving frames run late, brings them back when they are quick. */
  private adaptLinkLimit(now: number, total: number): void {
    const gap = now - this.lastFullFrame;
    // Only back-to-back moving frames say how long one takes; smoothed, so one missed
    // display refresh does not cut the links.
    if (gap > 250) {
      this.frameInterval = 0;
      return;
    }
    this.frameInterval = this.frameInterval === 0 ? gap : this.frameInterval * 0.75 + gap * 0.25;
    const interval = this.frameInterval;
    const drawn = this.linkLimit ?? total;
    if (interval > LATE_FRAME_MS && drawn > MIN_LINK_LIMIT) {
      this.linkLimit = Math.max(MIN_LINK_LIMIT, Math.round(drawn * 0.8));
    } else if (interval < QUICK_FRAME_MS && this.linkLimit !== null) {
      const more = Math.round(this.linkLimit * 1.15);
      this.linkLimit = more >= total ? null : more;
    }
  }

  private publish(): void {
    publishStats(this.stats());
  }

  private userCamera(next: Camera): void {
    this.autoFit = false;
    this.fitMask = null;
    this.camera = next;
    this.cameraMoved();
    this.invalidate();
  }

  // ------------------------------------------------------------------ pointer and keys

  private hitAt(x: number, y: number): number {
    const model = this.model;
    const motion = this.motion;
    if (!model || !motion) return -1;
    if (!this.index || this.indexVersion !== motion.version) {
      this.index = GridIndex.build(motion.current, model.radii, this.visible, model.maxRadius);
      this.indexVersion = motion.version;
    }
    const [wx, wy] = toWorld(this.camera, x, y);
    return this.index.hit(wx, wy, HOVER_SLOP / this.camera.k);
  }

  private hover(index: number, x: number, y: number): void {
    if (index === this.hovered && index < 0) return;
    const changed = index !== this.hovered;
    this.hovered = index;
    this.canvas.style.cursor = index >= 0 ? 'pointer' : '';
    if (changed) this.invalidate();
    this.callbacks.onHover(index, x, y);
  }

  private listen(): void {
    const input = attachInput(this.canvas, {
      camera: () => this.camera,
      height: () => this.height,
      hitAt: (x, y) => this.hitAt(x, y),
      hover: (index, x, y) => this.hover(index, x, y),
      moveCamera: (next) => this.userCamera(next),
      dragNode: (index, x, y) => {
        if (!this.motion) return;
        const [wx, wy] = toWorld(this.camera, x, y);
        this.motion.place(index, wx, wy);
        this.baseVersion++;
        this.host.send({ type: 'drag', generation: this.generation, index, x: wx, y: wy });
        this.hover(index, x, y);
        this.invalidate();
      },
      releaseNode: (index) =>
        this.host.send({ type: 'release', generation: this.generation, index }),
      open: (index) => this.callbacks.onOpen(index),
      zoomBy: (factor) => this.zoomBy(factor),
      panBy: (dx, dy) => this.panBy(dx, dy),
      fit: () => this.fit(),
    });
    this.input = input;
    this.cleanup.push(() => input.dispose());
  }
}
