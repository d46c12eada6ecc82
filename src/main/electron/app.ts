// The desktop app's wiring: single-instance lock, the app:// protocol, the engine and
// its HTTP/MCP server (startDaemon, as `loci serve`), the window, IPC, the tray and
// drops. Electron objects are used here and in the sibling files only; the engine,
// handlers and transports are the same as the headless daemon's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  BrowserWindow,
  Menu,
  Tray,
  app,
  clipboard,
  dialog,
  ipcMain,
  nativeImage,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import type { Daemon, DaemonOptions } from '../daemon';
import { acceptTrayDrops, createDropIngest } from './dragdrop';
import { UI_CONTEXT, registerIpc } from './ipc';
import { APP_INDEX_URL, handleAppProtocol, registerAppScheme } from './protocol';
import { safeStorageBox } from './secrets';
import { TrayController } from './trayController';
import { denyPermissions, hardenWebContents, hideOnClose, reveal, windowOptions } from './window';

export interface DesktopDeps {
  startDaemon: (options: DaemonOptions) => Promise<Daemon>;
}

/**
 * Only one app per user: a second launch hands over to the first (which shows its
 * window) and quits. Returns false in the second one.
 */
export function claimSingleInstance(
  electronApp: Pick<typeof app, 'requestSingleInstanceLock' | 'on' | 'quit'>,
  focus: () => void,
): boolean {
  if (!electronApp.requestSingleInstanceLock()) {
    electronApp.quit();
    return false;
  }
  electronApp.on('second-instance', () => focus());
  return true;
}

/** The app's files: the repository in development, app.asar when packaged. */
function appFile(...parts: string[]): string {
  return join(app.getAppPath(), ...parts);
}

export async function runDesktopApp(deps: DesktopDeps): Promise<void> {
  let win: BrowserWindow | null = null;
  let quitting = false;
  let daemon: Daemon | null = null;

  // Set once the engine runs: a second launch before that has nothing to show yet.
  let ready = false;
  const showWindow = (route?: string) => {
    if (!ready) return;
    if (!win || win.isDestroyed()) win = createWindow(route);
    // A route change within the page (hash), never a navigation.
    else if (route)
      void win.webContents.executeJavaScript(`location.hash = ${JSON.stringify(route)}`);
    reveal(win);
  };

  if (!claimSingleInstance(app, () => showWindow())) return;
  registerAppScheme(protocol);
  app.on('before-quit', () => {
    quitting = true;
  });
  // The engine keeps serving MCP with no window open; only Quit stops it.
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => showWindow());

  await app.whenReady();
  denyPermissions(session.defaultSession);
  handleAppProtocol(protocol, appFile('out', 'renderer'));

  try {
    // Encrypted stores' keys are sealed by the OS keychain (electron/secrets.ts).
    daemon = await deps.startDaemon({
      owner: 'app',
      engine: { keys: { secretBox: safeStorageBox(safeStorage) } },
    });
  } catch (err) {
    const message = (err as Error).message;
    // better-sqlite3 from node_modules is built for Node, not for this Electron.
    const hint = /NODE_MODULE_VERSION|was compiled against a different/.test(message)
      ? 'better-sqlite3 is not built for Electron here: run `npm run native:electron`, then start Loci again.'
      : 'If `loci serve` is running, stop it (the app serves the same memory), then start Loci again.';
    dialog.showErrorBox('Loci could not start its engine', `${message}\n\n${hint}`);
    app.exit(1);
    return;
  }
  const running = daemon;

  function createWindow(route?: string): BrowserWindow {
    const icon = appFile('resources', 'icon.png');
    const created = new BrowserWindow(
      windowOptions(appFile('out', 'preload', 'index.cjs'), existsSync(icon) ? icon : undefined),
    );
    hardenWebContents(created.webContents, { openExternal: (url) => shell.openExternal(url) });
    hideOnClose(created, { quitting: () => quitting });
    created.once('ready-to-show', () => created.show());
    created.on('closed', () => {
      if (win === created) win = null;
    });
    void created.loadURL(`${APP_INDEX_URL}${route ?? ''}`);
    return created;
  }

  const notify = (message: string) => {
    void dialog.showMessageBox({ type: 'warning', title: 'Loci', message });
  };
  const ingestDropped = createDropIngest({
    handlers: running.handlers,
    showIngest: () => showWindow('#/ingest'),
    notify,
  });

  const disposeIpc = registerIpc({
    ipcMain,
    handlers: running.handlers,
    events: running.engine.events,
    window: () => (win && !win.isDestroyed() ? win.webContents : null),
    onDrop: (paths, store) => void ingestDropped(paths, 'window', store),
  });

  const trayIcon = (state: string) => {
    const image = nativeImage.createFromPath(appFile('resources', `tray-${state}.png`));
    if (process.platform === 'darwin') image.setTemplateImage(false);
    return image;
  };
  const tray = new Tray(trayIcon('idle'));
  acceptTrayDrops(tray, ingestDropped);
  const controller = new TrayController({
    tray,
    icon: trayIcon,
    menu: (template) => Menu.buildFromTemplate(template),
    handlers: running.handlers,
    events: running.engine.events,
    mcpUrl: `${running.url}/mcp`,
    canDream: true,
    launchAtLogin: () => app.getLoginItemSettings().openAtLogin,
    actions: {
      openObservatory: () => showWindow(),
      setMcpPaused: (paused) => running.http.setMcpPaused(paused),
      mcpPaused: () => running.http.mcpPaused,
      dreamNow: () => running.handlers.dispatch('dream.run', {}, UI_CONTEXT),
      copyMcpUrl: () => clipboard.writeText(`${running.url}/mcp`),
      openDataFolder: () => void shell.openPath(running.engine.dataDir),
      setLaunchAtLogin: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled }),
      quit: () => app.quit(),
    },
  });
  controller.start();
  tray.on('click', () => showWindow());

  // Quit: close the engine (checkpoint, release the lock) before the process ends.
  let closed = false;
  app.on('will-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    controller.stop();
    disposeIpc();
    void running.close().finally(() => app.exit(0));
  });

  ready = true;
  // Started at login: stay in the tray. Otherwise show the observatory.
  if (!app.getLoginItemSettings().wasOpenedAtLogin) showWindow();
}
