// Where the Atlas's layout runs: in a module Web Worker when the browser allows one, else
// time-sliced on the main thread (short batches between frames), so the view works the
// same either way. A worker that fails to start or dies mid-way is replaced by the
// fallback, which picks up from the last graph sent.
import { createLayoutRunner, type LayoutRunner } from './layoutRunner';
import type { FromLayout, InitMessage, ToLayout } from './protocol';

export interface LayoutHost {
  /** True while the layout runs in a worker. */
  readonly offThread: boolean;
  send(message: ToLayout): void;
  dispose(): void;
}

export type LayoutListener = (message: FromLayout) => void;

function startWorker(): Worker | null {
  if (typeof Worker !== 'function') return null;
  try {
    return new Worker(new URL('./atlas.worker.ts', import.meta.url), {
      type: 'module',
      name: 'atlas-layout',
    });
  } catch {
    // A content security policy or an old browser: lay out on the main thread.
    return null;
  }
}

/** The layout on the main thread: 8 ms of ticks per batch, one batch per ~frame. */
export function createInlineRunner(onMessage: LayoutListener): LayoutRunner {
  return createLayoutRunner((message) => onMessage(message), {
    budgetMs: 8,
    schedule(fn) {
      const t = setTimeout(fn, 16);
      return () => clearTimeout(t);
    },
  });
}

export function createLayoutHost(
  onMessage: LayoutListener,
  { useWorker = true }: { useWorker?: boolean } = {},
): LayoutHost {
  let worker = useWorker ? startWorker() : null;
  let inline: LayoutRunner | null = worker ? null : createInlineRunner(onMessage);
  // Kept (a copy: the worker's may be transferred) to replay on the fallback.
  let lastInit: InitMessage | null = null;
  let disposed = false;

  const fallBack = () => {
    if (disposed || inline) return;
    worker?.terminate();
    worker = null;
    inline = createInlineRunner(onMessage);
    if (lastInit) inline.handle(lastInit);
  };

  if (worker) {
    worker.onmessage = (event: MessageEvent<FromLayout>) => onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      fallBack();
    };
    worker.onmessageerror = () => fallBack();
  }

  return {
    get offThread() {
      return worker !== null;
    },
    send(message) {
      if (disposed) return;
      if (message.type === 'init') lastInit = message;
      if (worker) worker.postMessage(message);
      else inline?.handle(message);
    },
    dispose() {
      disposed = true;
      worker?.terminate();
      worker = null;
      inline?.dispose();
      inline = null;
      lastInit = null;
    },
  };
}
