// Runs the force layout in batches and reports positions after each: the body of the
// layout worker, and of the main-thread fallback (with a smaller budget per batch so the
// page keeps drawing). It schedules itself only while the layout is moving.
import { ForceLayout } from './forceLayout';
import type { FromLayout, ToLayout } from './protocol';

export interface LayoutRunnerOptions {
  /** Milliseconds of ticking per batch (at least one tick runs). */
  budgetMs: number;
  /** Runs `fn` after `delayMs` (0: soon); returns a function that cancels it. */
  schedule(fn: () => void, delayMs: number): () => void;
  /**
   * After a batch that took t ms, rest `yieldRatio × t` ms before the next (default 0).
   * On a machine with few cores the layout otherwise takes a whole core while the page,
   * its compositor and the rasteriser share what is left, and frames are drawn late.
   */
  yieldRatio?: number;
  now?: () => number;
}

/** How much of each batch's time the layout worker rests, by the machine's cores. */
export function yieldRatioFor(cores: number | undefined): number {
  if (!cores || cores <= 2) return 0.5;
  return cores <= 4 ? 0.2 : 0;
}

export interface LayoutRunner {
  handle(message: ToLayout): void;
  dispose(): void;
}

export function createLayoutRunner(
  post: (message: FromLayout, transfer: Transferable[]) => void,
  options: LayoutRunnerOptions,
): LayoutRunner {
  const now = options.now ?? (() => performance.now());
  let layout: ForceLayout | null = null;
  let generation = -1;
  let cancel: (() => void) | null = null;
  let paused = false;

  const step = () => {
    cancel = null;
    if (!layout || paused) return;
    try {
      const start = now();
      const ran = layout.run(options.budgetMs, now);
      const tickMs = ran > 0 ? (now() - start) / ran : 0;
      const positions = layout.positions();
      const settled = layout.settled;
      post(
        {
          type: 'tick',
          generation,
          positions,
          alpha: layout.alpha,
          settled,
          ticks: layout.ticks,
          tickMs,
        },
        [positions.buffer],
      );
      const rest = (options.yieldRatio ?? 0) * (now() - start);
      if (!settled) cancel = options.schedule(step, rest);
    } catch (err) {
      layout = null;
      post({ type: 'error', message: err instanceof Error ? err.message : String(err) }, []);
    }
  };

  const wake = () => {
    paused = false;
    cancel ??= options.schedule(step, 0);
  };

  return {
    handle(message) {
      switch (message.type) {
        case 'init':
          try {
            layout = new ForceLayout(message);
            generation = message.generation;
          } catch (err) {
            layout = null;
            post({ type: 'error', message: err instanceof Error ? err.message : String(err) }, []);
            return;
          }
          wake();
          return;
        case 'drag':
          if (!layout || message.generation !== generation) return;
          layout.drag(message.index, message.x, message.y);
          wake();
          return;
        case 'release':
          if (!layout || message.generation !== generation) return;
          layout.release(message.index);
          wake();
          return;
        case 'reheat':
          if (!layout || message.generation !== generation) return;
          layout.reheat(message.alpha);
          wake();
          return;
        case 'pause':
          paused = true;
          cancel?.();
          cancel = null;
          return;
      }
    },
    dispose() {
      cancel?.();
      cancel = null;
      layout = null;
    },
  };
}
