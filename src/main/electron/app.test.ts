// The desktop app's wiring with Electron mocked at the boundary (its runtime cannot run
// here) around the real daemon: single instance, the secure window on app://, IPC, the
// tray's commands against the running HTTP server, and a clean quit.
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import type { MenuItemConstructorOptions } from 'electron';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/helpers/engine';
import { startDaemon, type Daemon } from '../daemon';

const h = await vi.hoisted(async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  class FakeApp extends Emitter {
    lock = true;
    requestSingleInstanceLock = () => this.lock;
    quit = vi.fn(() => this.emit('before-quit'));
    exit = vi.fn();
    whenReady = () => Promise.resolve();
    getAppPath = () => process.cwd();
    login = { openAtLogin: false, wasOpenedAtLogin: false };
    getLoginItemSettings = () => this.login;
    setLoginItemSettings = vi.fn((s: { openAtLogin: boolean }) => {
      this.login = { ...this.login, openAtLogin: s.openAtLogin };
    });
  }
  const windows: FakeWindow[] = [];
  class FakeWindow extends Emitter {
    visible = false;
    destroyed = false;
    loaded: string | null = null;
    webContents = Object.assign(new Emitter(), {
      setWindowOpenHandler: vi.fn(),
      send: vi.fn(),
      isDestroyed: () => false,
      mainFrame: { url: 'app://loci/index.html' },
      getURL: () => 'app://loci/index.html',
      executeJavaScript: vi.fn(async () => undefined),
    });
    constructor(readonly options: Record<string, unknown>) {
      super();
      windows.push(this);
    }
    loadURL = vi.fn(async (url: string) => {
      this.loaded = url;
      this.emit('ready-to-show');
    });
    show = vi.fn(() => {
      this.visible = true;
    });
    hide = vi.fn(() => {
      this.visible = false;
    });
    focus = vi.fn();
    restore = vi.fn();
    isMinimized = () => false;
    isVisible = () => this.visible;
    isDestroyed = () => this.destroyed;
  }
  const trays: FakeTray[] = [];
  class FakeTray extends Emitter {
    menu: MenuItemConstructorOptions[] = [];
    image: unknown = null;
    tooltip = '';
    constructor(image: unknown) {
      super();
      this.image = image;
      trays.push(this);
    }
    setImage = (i: unknown) => (this.image = i);
    setToolTip = (t: string) => (this.tooltip = t);
    setContextMenu = (m: MenuItemConstructorOptions[]) => (this.menu = m);
  }
  const ipcHandles = new Map<string, unknown>();
  return {
    app: new FakeApp(),
    windows,
    trays,
    FakeWindow,
    FakeTray,
    ipcHandles,
    clipboard: { writeText: vi.fn() },
    shell: { openExternal: vi.fn(), openPath: vi.fn(async () => '') },
    dialog: { showErrorBox: vi.fn(), showMessageBox: vi.fn(async () => ({ response: 0 })) },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
  };
});

vi.mock('electron', () => ({
  app: h.app,
  BrowserWindow: h.FakeWindow,
  Tray: h.FakeTray,
  Menu: { buildFromTemplate: (t: unknown) => t },
  nativeImage: { createFromPath: (p: string) => ({ path: p, setTemplateImage: vi.fn() }) },
  clipboard: h.clipboard,
  shell: h.shell,
  dialog: h.dialog,
  protocol: h.protocol,
  safeStorage: {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => 'gnome_libsecret',
    encryptString: (s: string) => Buffer.from(`sealed:${s}`),
    decryptString: (b: Buffer) => b.toString().replace(/^sealed:/, ''),
  },
  session: {
    defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
  },
  ipcMain: {
    handle: (ch: string, fn: unknown) => h.ipcHandles.set(ch, fn),
    removeHandler: (ch: string) => h.ipcHandles.delete(ch),
    on: (ch: string, fn: unknown) => h.ipcHandles.set(ch, fn),
    removeListener: (ch: string) => h.ipcHandles.delete(ch),
  },
}));

const { claimSingleInstance, runDesktopApp } = await import('./app');

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const menuItem = (id: string) => {
  const tray = h.trays[h.trays.length - 1];
  const found = tray?.menu.find((i) => i.id === id);
  if (!found) throw new Error(`no tray item ${id}`);
  return found;
};
const click = (id: string) => (menuItem(id).click as unknown as () => void)();

describe('single instance', () => {
  it('a second launch quits; the first one is focused by it', () => {
    const second = Object.assign(new EventEmitter(), {
      requestSingleInstanceLock: () => false,
      quit: vi.fn(),
    });
    const focus = vi.fn();
    expect(claimSingleInstance(second as never, focus)).toBe(false);
    expect(second.quit).toHaveBeenCalled();

    const first = Object.assign(new EventEmitter(), {
      requestSingleInstanceLock: () => true,
      quit: vi.fn(),
    });
    expect(claimSingleInstance(first as never, focus)).toBe(true);
    expect(first.quit).not.toHaveBeenCalled();
    first.emit('second-instance', {}, ['loci'], '/');
    expect(focus).toHaveBeenCalledTimes(1);
  });
});

describe('the desktop app', () => {
  it('runs the daemon, the secure window, IPC and the tray, and quits cleanly', async () => {
    const dataDir = tempDir('loci-app-');
    dirs.push(dataDir);
    let daemon: Daemon | null = null;
    await runDesktopApp({
      startDaemon: async (o) => (daemon = await startDaemon({ ...o, dataDir, port: 0, env: {} })),
    });
    if (!daemon) throw new Error('the daemon did not start');
    const running: Daemon = daemon;
    expect(running.engine.dataDir).toBe(dataDir);
    // Encrypted stores' keys go to the OS keychain through safeStorage.
    const enc = await running.handlers.dispatch(
      'store.encryption',
      {},
      {
        actor: { kind: 'ui', transport: 'ipc' },
      },
    );
    expect((enc as { stores: { sources: string[] }[] }).stores[0]?.sources[0]).toBe('keychain');

    // The app:// scheme, the window (secure options, its preload, app://), IPC.
    expect(h.protocol.registerSchemesAsPrivileged).toHaveBeenCalled();
    expect(h.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
    const win = h.windows[0];
    if (!win) throw new Error('no window');
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      preload: expect.stringMatching(/out[/\\]preload[/\\]index\.cjs$/),
    });
    expect(win.loaded).toBe('app://loci/index.html');
    expect(win.visible).toBe(true);
    expect([...h.ipcHandles.keys()].sort()).toEqual(['loci:call', 'loci:drop']);

    // Closing hides; a second launch brings it back.
    const close = { preventDefault: vi.fn() };
    win.emit('close', close);
    expect(close.preventDefault).toHaveBeenCalled();
    expect(win.visible).toBe(false);
    h.app.emit('second-instance');
    expect(win.visible).toBe(true);

    // The tray: counts, copies the MCP URL, pauses MCP on the real server.
    await vi.waitFor(() => expect(menuItem('status').label).toMatch(/0 memories · 0 clients/));
    click('copy-url');
    expect(h.clipboard.writeText).toHaveBeenCalledWith(`${running.url}/mcp`);
    const mcp = () =>
      fetch(`${running.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${running.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    click('mcp');
    expect(menuItem('mcp').label).toBe('Resume MCP');
    const paused = await mcp();
    expect(paused.status).toBe(503);
    expect(((await paused.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    click('mcp');
    expect((await mcp()).status).not.toBe(503);
    // Dream now runs a real dream cycle on the default store.
    const dreams: string[] = [];
    running.engine.events.on('dream.finished', (d) => dreams.push(d.status));
    expect(menuItem('dream').enabled).toBe(true);
    click('dream');
    await vi.waitFor(() => expect(dreams).toHaveLength(1), { timeout: 10_000 });
    click('data');
    expect(h.shell.openPath).toHaveBeenCalledWith(dataDir);
    click('login');
    expect(h.app.setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });

    // Quit: the window may close now, and the engine closes before the process exits.
    click('quit');
    const closing = { preventDefault: vi.fn() };
    win.emit('close', closing);
    expect(closing.preventDefault).not.toHaveBeenCalled();
    const willQuit = { preventDefault: vi.fn() };
    h.app.emit('will-quit', willQuit);
    expect(willQuit.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(h.app.exit).toHaveBeenCalledWith(0));
    expect(h.ipcHandles.size).toBe(0);
    await expect(fetch(`${running.url}/health`)).rejects.toThrow();
  });

  it('a second instance starts nothing', async () => {
    h.app.lock = false;
    const start = vi.fn();
    await runDesktopApp({ startDaemon: start });
    expect(start).not.toHaveBeenCalled();
    h.app.lock = true;
  });

  it('says why when the engine cannot start, and exits', async () => {
    h.app.exit.mockClear();
    await runDesktopApp({
      startDaemon: async () => {
        throw new Error('The data directory is in use by `loci serve` (pid 4242).');
      },
    });
    expect(h.dialog.showErrorBox).toHaveBeenCalledWith(
      'Loci could not start its engine',
      expect.stringContaining('pid 4242'),
    );
    expect(h.app.exit).toHaveBeenCalledWith(1);
    await runDesktopApp({
      startDaemon: async () => {
        throw new Error(
          'The module was compiled against a different Node.js version using NODE_MODULE_VERSION 115.',
        );
      },
    });
    expect(h.dialog.showErrorBox).toHaveBeenLastCalledWith(
      'Loci could not start its engine',
      expect.stringContaining('npm run native:electron'),
    );
  });
});
