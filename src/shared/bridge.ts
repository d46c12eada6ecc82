// The Electron preload bridge: what `window.loci` offers the observatory, and the IPC
// channel names and reply shape between the preload and the main process. Types and
// constants only; the preload (src/preload) and src/main/electron/ipc.ts implement it.
import type { MethodArgs, MethodName, MethodResult } from './api';
import type { LociErrorData } from './errors';
import type { EventMap, EventName } from './events';

/** `ipcRenderer.invoke(IPC_CALL, method, args)` → BridgeReply. */
export const IPC_CALL = 'loci:call';
/** Main → window: `(name, payload)` for every engine event. */
export const IPC_EVENT = 'loci:event';
/** Preload → main: the real paths of files or folders dropped on the window. */
export const IPC_DROP = 'loci:drop';

/** Errors cross IPC as data: Electron would flatten a thrown error into a message. */
export type BridgeReply = { ok: true; result: unknown } | { ok: false; error: LociErrorData };

export interface LociBridge {
  /** Rejects with the contract's error data (`{ code, message, data? }`). */
  call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>>;
  /** Returns a function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}
