// Frames drawn per second over a rolling window (1 s by default), with the mean time a
// frame's drawing took: what the overlay shows and what `window.__atlasStats` reports.
// Only frames that were drawn count: an idle Atlas draws nothing and reads 0, and the
// first second of drawing reads low while the window fills.

export class FpsMeter {
  private readonly times: number[] = [];
  private readonly costs: number[] = [];

  constructor(private readonly windowMs = 1000) {}

  /** Records a frame drawn at `now` (ms) that took `drawMs` to draw. */
  frame(now: number, drawMs = 0): void {
    this.times.push(now);
    this.costs.push(drawMs);
    this.trim(now);
  }

  /** Frames per second over the window ending at `now`. */
  fps(now: number): number {
    this.trim(now);
    return (this.times.length * 1000) / this.windowMs;
  }

  /** Mean drawing time of the frames in the window. */
  meanDrawMs(now: number): number {
    this.trim(now);
    if (this.costs.length === 0) return 0;
    let sum = 0;
    for (const c of this.costs) sum += c;
    return sum / this.costs.length;
  }

  reset(): void {
    this.times.length = 0;
    this.costs.length = 0;
  }

  private trim(now: number): void {
    let drop = 0;
    while (drop < this.times.length && this.times[drop]! <= now - this.windowMs) drop++;
    if (drop > 0) {
      this.times.splice(0, drop);
      this.costs.splice(0, drop);
    }
  }
}
