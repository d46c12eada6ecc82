// The preload's logic, kept apart from Electron's objects so it can be tested: the
// `window.loci` bridge (`call` and `on`, nothing else) over an ipcRenderer-like object,
// and the drop listener that turns dropped files into their real paths for the main
// process. It holds no engine logic; main validates everything again.
import { IPC_CALL, IPC_DROP, IPC_EVENT, type BridgeReply, type LociBridge } from '../shared/bridge';
import { isLociErrorData } from '../shared/errors';
import { EVENT_NAMES } from '../shared/events';

/** The part of ipcRenderer the bridge uses. */
export interface IpcLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const KNOWN_EVENTS = new Set<string>(EVENT_NAMES);

export function createBridge(ipc: IpcLike): LociBridge {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  // One IPC listener for every event; the page's listeners are kept here.
  ipc.on(IPC_EVENT, (_event, name, payload) => {
    if (typeof name !== 'string') return;
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        listener(payload);
      } catch (err) {
        console.error(`loci: a listener of ${name} failed`, err);
      }
    }
  });
  return {
    async call(method, args) {
      if (typeof method !== 'string') throw { code: 'invalid-args', message: 'No method named.' };
      const reply = (await ipc.invoke(IPC_CALL, method, args ?? {})) as BridgeReply | undefined;
      if (!reply || typeof reply !== 'object')
        throw { code: 'internal', message: 'The Loci engine gave no answer.' };
      if (reply.ok) return reply.result as never;
      // Rejected with the plain error data: contextBridge copies it to the page intact.
      throw isLociErrorData(reply.error)
        ? { code: reply.error.code, message: reply.error.message, data: reply.error.data }
        : { code: 'internal', message: 'The Loci engine failed; see its log for details.' };
    },
    on(event, listener) {
      if (typeof event !== 'string' || !KNOWN_EVENTS.has(event))
        throw new TypeError(`loci.on: there is no event "${String(event)}".`);
      if (typeof listener !== 'function')
        throw new TypeError('loci.on: the listener must be a function.');
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const entry = listener as (payload: unknown) => void;
      set.add(entry);
      return () => void set.delete(entry);
    },
  };
}

/** A dropped `File` (the preload is type-checked without the DOM library). */
export type DroppedFile = object;

/** `webUtils.getPathForFile`: '' for a file that is not on disk (dragged from a web page). */
export type PathForFile = (file: DroppedFile) => string;

/** The part of a DOM `drop` event the listener reads. */
export interface DropEventLike {
  readonly dataTransfer: { readonly files: ArrayLike<DroppedFile> } | null;
  readonly defaultPrevented: boolean;
  preventDefault(): void;
}

export interface DropTarget {
  addEventListener(type: 'drop', listener: (event: DropEventLike) => void, capture: boolean): void;
}

/**
 * Files and folders dropped anywhere on the window are imported by their real paths, into
 * the store the window shows: the
 * listener runs first (capture, on the window), sends the paths to the main process and
 * marks the drop handled (`preventDefault`), which the observatory's own drop handlers
 * take as "already imported". A drop with any file that has no path on disk is left to
 * the page, which uploads it as in a browser.
 */
export function listenForDrops(
  target: DropTarget,
  ipc: Pick<IpcLike, 'send'>,
  pathForFile: PathForFile,
  /** The store the window shows (the observatory keeps it in localStorage), if any. */
  currentStore: () => string | null = () => null,
): void {
  target.addEventListener(
    'drop',
    (event) => {
      const files = event.dataTransfer?.files;
      if (!files || files.length === 0 || event.defaultPrevented) return;
      const paths: string[] = [];
      for (const file of Array.from(files)) {
        let path = '';
        try {
          path = pathForFile(file);
        } catch {
          path = '';
        }
        if (!path) return;
        paths.push(path);
      }
      event.preventDefault();
      let store: string | null = null;
      try {
        store = currentStore();
      } catch {
        store = null;
      }
      ipc.send(IPC_DROP, paths, store);
    },
    true,
  );
}
