// What background indexing gives way to: large writes that follow one another. While
// one is under way, or the last ended less than WRITES_QUIET_MS ago, the daemon's
// backfill waits before its next batch and the recogniser before taking in new memories
// (semantic.ts): a bulk load is written at full speed and indexed when it pauses. Each
// wait lasts WRITES_YIELD_MAX_MS at most in a row, so a store written to without pause
// is still indexed, and anyone waiting for the background (`hurry`) ends the waits.
// It counts writes and times only; it does not know what waits or why.

export const WRITES_QUIET_MS = 100;
export const WRITES_YIELD_MAX_MS = 2000;

export class WriteBursts {
  /** When the last large write ended (performance.now()). */
  private lastLargeWrite = Number.NEGATIVE_INFINITY;
  /** Large writes under way (writing()). */
  private largeWrites = 0;
  /** Callers waiting for the background now: nothing gives way to writes. */
  private hurrying = 0;
  /** Ends the waits under way (one per task that waits). */
  private readonly waiting = new Set<() => void>();
  private closed = false;

  /** @param largerThan a write of more memories than this is large. */
  constructor(private readonly largerThan: number) {}

  /** A write of `count` memories begins; returns its end (safe to call twice). */
  writing(count: number): () => void {
    if (count <= this.largerThan) return () => {};
    this.largeWrites++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.largeWrites--;
      this.lastLargeWrite = performance.now();
    };
  }

  /** A write of `count` memories ended that writing() did not see begin. */
  wrote(count: number): void {
    if (count > this.largerThan) this.lastLargeWrite = performance.now();
  }

  /** Waits while large writes follow one another, or until `stopped()` says so. */
  async giveWay(stopped: () => boolean): Promise<void> {
    const started = performance.now();
    for (;;) {
      const now = performance.now();
      const quietIn =
        this.largeWrites > 0 ? WRITES_QUIET_MS : this.lastLargeWrite + WRITES_QUIET_MS - now;
      const left = started + WRITES_YIELD_MAX_MS - now;
      if (this.closed || stopped() || this.hurrying > 0 || quietIn <= 0 || left <= 0) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(quietIn, left));
        this.waiting.add(done);
      });
    }
  }

  /** Ends every wait now (each looks again at why it waits). */
  endWaits(): void {
    for (const done of [...this.waiting]) done();
  }

  /** Someone waits for the background: nothing gives way to writes until `p` settles. */
  async hurry<T>(p: Promise<T>): Promise<T> {
    this.hurrying++;
    this.endWaits();
    try {
      return await p;
    } finally {
      this.hurrying--;
    }
  }

  close(): void {
    this.closed = true;
    this.endWaits();
  }
}
