// Smooth motion between layout updates: the layout reports positions as fast as it can
// tick (for 5,000 nodes, slower than the screen refreshes), and the view draws every
// frame in between, easing from what it showed towards the latest positions over about
// one update interval. So drawing never waits for the layout, and the layout never waits
// for drawing.
import type { TickMessage } from './protocol';

/** Bounds on the easing time: quick updates still ease, slow ones do not lag behind. */
const MIN_EASE_MS = 16;
const MAX_EASE_MS = 150;

export class Motion {
  /** What the next frame draws: [x, y] per node. */
  current: Float32Array;
  private from: Float32Array;
  private to: Float32Array;
  private startedAt = 0;
  private easeMs = MIN_EASE_MS;
  private lastUpdate = -Infinity;
  private easing = false;
  /** Bumped whenever `current` changes, so a hit-test index knows it is stale. */
  version = 0;
  settled = false;
  ticks = 0;
  alpha = 1;
  tickMs = 0;

  constructor(initial: Float32Array) {
    this.current = initial.slice();
    this.from = initial.slice();
    this.to = initial.slice();
  }

  /** Takes a layout update: eases from what is on screen towards it. */
  receive(tick: TickMessage, now: number): void {
    if (tick.positions.length !== this.current.length) return;
    this.from.set(this.current);
    this.to = tick.positions;
    const interval = now - this.lastUpdate;
    this.easeMs = Math.min(MAX_EASE_MS, Math.max(MIN_EASE_MS, interval));
    this.lastUpdate = now;
    this.startedAt = now;
    this.easing = true;
    this.settled = tick.settled;
    this.ticks = tick.ticks;
    this.alpha = tick.alpha;
    this.tickMs = tick.tickMs;
  }

  /** Moves `current` for a frame at `now`; false when nothing moved. */
  step(now: number): boolean {
    if (!this.easing) return false;
    const t = Math.min(1, Math.max(0, (now - this.startedAt) / this.easeMs));
    const from = this.from;
    const to = this.to;
    const cur = this.current;
    if (t >= 1) {
      cur.set(to);
      this.easing = false;
    } else {
      for (let i = 0; i < cur.length; i++) cur[i] = from[i]! + (to[i]! - from[i]!) * t;
    }
    this.version++;
    return true;
  }

  /** Still easing towards the last update, or the layout still moving. */
  get moving(): boolean {
    return this.easing || !this.settled;
  }

  /** Puts a node where the pointer is, at once (while it is dragged). */
  place(index: number, x: number, y: number): void {
    for (const buffer of [this.current, this.from, this.to]) {
      buffer[index * 2] = x;
      buffer[index * 2 + 1] = y;
    }
    this.version++;
  }
}
