// The preload script of the observatory window (sandboxed, context-isolated): exposes
// `window.loci = { call, on }` and nothing else, and sends the real paths of files
// dropped on the window to the main process. No engine logic and no Node API here.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createBridge, listenForDrops, type DropTarget } from './bridge';

type FileArg = Parameters<typeof webUtils.getPathForFile>[0];

contextBridge.exposeInMainWorld('loci', createBridge(ipcRenderer));
// The page's window (this script runs in an isolated world of the same document).
const page = globalThis as unknown as DropTarget;
// The observatory keeps the store it shows in localStorage ('loci.store'); the
// isolated world shares the document's storage. Main validates the name again.
const storage = (
  globalThis as unknown as { localStorage?: { getItem(key: string): string | null } }
).localStorage;
listenForDrops(
  page,
  ipcRenderer,
  (file) => webUtils.getPathForFile(file as FileArg),
  () => storage?.getItem('loci.store') ?? null,
);
