// The IPC transport of the observatory window: `loci:call` runs one contract method
// through the handler registry (which validates the arguments with the shared schemas),
// engine events are relayed to the window, and dropped paths go to the drop handler.
// Only the app's own top frame (app://loci/) is answered; no business logic here.
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import type { CallContext } from '../../shared/api';
import { IPC_CALL, IPC_DROP, IPC_EVENT, type BridgeReply } from '../../shared/bridge';
import { toErrorData } from '../../shared/errors';
import { StoreNameSchema } from '../../shared/schemas';
import { EVENT_NAMES, type EventMap, type EventName } from '../../shared/events';
import { isAppUrl } from './window';

export const UI_CONTEXT: CallContext = { actor: { kind: 'ui', transport: 'ipc' } };

/** What the IPC layer needs of the handler registry (HandlerRegistry.dispatch). */
export interface Dispatcher {
  dispatch(method: string, args: unknown, ctx: CallContext): Promise<unknown>;
}

export interface EventSource {
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}

/**
 * The sender is the app's window, its main frame, showing app://loci/: not a subframe,
 * not a page that navigated elsewhere, not another window.
 */
export function isTrustedSender(
  event: Pick<IpcMainEvent | IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  window: () => WebContents | null,
): boolean {
  const frame = event.senderFrame;
  const contents = window();
  if (!frame || !contents || contents.isDestroyed()) return false;
  if (event.sender !== contents) return false;
  if (frame !== contents.mainFrame) return false;
  return isAppUrl(frame.url);
}

export interface IpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'on' | 'removeHandler' | 'removeListener'>;
  handlers: Dispatcher;
  events: EventSource;
  /** The observatory window's webContents (null while there is none). */
  window: () => WebContents | null;
  /** Real paths dropped on the window (already checked to come from it), and its store. */
  onDrop: (paths: string[], store: string | undefined) => void;
}

const refusal: BridgeReply = {
  ok: false,
  error: { code: 'forbidden', message: 'This frame may not call the Loci engine.' },
};

/** Registers the handlers; returns the function that removes them again. */
export function registerIpc(options: IpcOptions): () => void {
  const { ipcMain, handlers, events, window } = options;

  ipcMain.handle(IPC_CALL, async (event, method: unknown, args: unknown): Promise<BridgeReply> => {
    if (!isTrustedSender(event, window)) return refusal;
    if (typeof method !== 'string')
      return { ok: false, error: { code: 'invalid-args', message: 'The method must be a name.' } };
    try {
      return { ok: true, result: await handlers.dispatch(method, args, UI_CONTEXT) };
    } catch (err) {
      return { ok: false, error: toErrorData(err) };
    }
  });

  const onDrop = (event: IpcMainEvent, paths: unknown, store: unknown) => {
    if (!isTrustedSender(event, window)) return;
    if (!Array.isArray(paths) || paths.length === 0) return;
    if (!paths.every((p): p is string => typeof p === 'string' && p.length > 0)) return;
    // A name that is not a store name is ignored: the engine's default store is used.
    const named = StoreNameSchema.safeParse(store);
    options.onDrop(paths, named.success ? named.data : undefined);
  };
  ipcMain.on(IPC_DROP, onDrop);

  const offs = EVENT_NAMES.map((name) =>
    events.on(name, (payload) => {
      const contents = window();
      if (contents && !contents.isDestroyed()) contents.send(IPC_EVENT, name, payload);
    }),
  );

  return () => {
    ipcMain.removeHandler(IPC_CALL);
    ipcMain.removeListener(IPC_DROP, onDrop);
    for (const off of offs) off();
  };
}
