// The Atlas's layout worker: d3-force off the main thread, so a 5,000-node layout never
// freezes the page. It only simulates; drawing and hit-testing stay in the view.
import type { FromLayout, ToLayout } from './protocol';
import { createLayoutRunner, yieldRatioFor } from './layoutRunner';

// The renderer's TypeScript lib is the DOM's, not the worker's: the two members used.
interface WorkerScope {
  onmessage: ((event: MessageEvent<ToLayout>) => void) | null;
  postMessage(message: FromLayout, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

const runner = createLayoutRunner((message, transfer) => scope.postMessage(message, transfer), {
  // Long enough for several ticks of a small graph, short enough that a drag message
  // waits at most one batch.
  budgetMs: 14,
  // On two cores, the page's drawing needs a share of the CPU while the layout moves.
  yieldRatio: yieldRatioFor(
    (self as unknown as { navigator?: { hardwareConcurrency?: number } }).navigator
      ?.hardwareConcurrency,
  ),
  schedule(fn, delayMs) {
    const t = setTimeout(fn, delayMs);
    return () => clearTimeout(t);
  },
});

scope.onmessage = (event) => runner.handle(event.data);
