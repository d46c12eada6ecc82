// What the Atlas reports about its own drawing, on `window.__atlasStats` for end-to-end
// tests and the FPS overlay. Measured, never estimated: `fps` counts frames actually
// drawn in the last second (an idle, settled Atlas draws none and reads 0).

export interface AtlasStats {
  /** Frames drawn in the last second. */
  fps: number;
  /** Mean milliseconds one of those frames took to draw. */
  drawMs: number;
  /** Frames drawn since the view opened. */
  frames: number;
  /** Memories and links in the layout (filters do not change these). */
  nodes: number;
  links: number;
  /** What the last frame drew (on screen and let through by the filters). */
  drawnNodes: number;
  drawnLinks: number;
  /** The layout has cooled and nothing moves. */
  settled: boolean;
  /** Layout ticks since the graph arrived, and milliseconds per tick. */
  ticks: number;
  tickMs: number;
  /** The layout runs in a Web Worker (false: time-sliced on the main thread). */
  offThread: boolean;
  zoom: number;
  /** Links a moving frame may draw, the strongest first, when frames ran late (null: all). */
  linkLimit: number | null;
  /** The layout's failure, if it failed. */
  error: string | null;
}

declare global {
  interface Window {
    __atlasStats?: AtlasStats;
  }
}

export function publishStats(stats: AtlasStats): void {
  window.__atlasStats = stats;
}

export function clearStats(): void {
  delete window.__atlasStats;
}
