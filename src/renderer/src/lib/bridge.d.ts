// The preload bridge the Electron window will expose as `window.loci` (src/preload, a
// later issue). The renderer never touches it directly: lib/engineClient.ts does.
import type { MethodArgs, MethodName, MethodResult } from '../../../shared/api';
import type { EventMap, EventName } from '../../../shared/events';

export interface LociBridge {
  /** Rejects with the contract's error data (`{ code, message, data? }`). */
  call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>>;
  /** Returns a function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}

declare global {
  interface Window {
    loci?: LociBridge;
  }
}
