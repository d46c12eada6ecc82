import { EventEmitter } from 'node:events';
import type { BrowserWindow, Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import {
  denyPermissions,
  hardenWebContents,
  hideOnClose,
  isAppUrl,
  isSafeExternalUrl,
  reveal,
  windowOptions,
} from './window';

class FakeContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: string }) | null = null;
  url = 'app://loci/index.html';
  setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
    this.openHandler = h;
  }
  getURL() {
    return this.url;
  }
}

const navEvent = () => ({ preventDefault: vi.fn() });

describe('the observatory window', () => {
  it('runs the page sandboxed and isolated, without Node, with web security', () => {
    const o = windowOptions('/app/out/preload/index.cjs', '/app/icon.png');
    expect(o.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(o.show).toBe(false);
    expect(o.icon).toBe('/app/icon.png');
    expect(windowOptions('/p').icon).toBeUndefined();
  });

  it('knows its own pages and which links may open outside', () => {
    expect(isAppUrl('app://loci/index.html#/memories')).toBe(true);
    expect(isAppUrl('app://evil/index.html')).toBe(false);
    expect(isAppUrl('https://loci/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
    expect(isSafeExternalUrl('https://github.com/loci')).toBe(true);
    expect(isSafeExternalUrl('http://127.0.0.1:4747/')).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'app://loci/',
      'smb://server/share',
      'data:text/html,<b>x</b>',
      'https://user:pass@example.com/',
      'mailto:a@b.c',
      `https://example.com/${'a'.repeat(3000)}`,
      '',
    ])
      expect(isSafeExternalUrl(bad), bad).toBe(false);
  });

  it('refuses new windows and navigation; safe links go to the default browser', async () => {
    const contents = new FakeContents();
    const openExternal = vi.fn();
    hardenWebContents(contents as unknown as WebContents, { openExternal });

    expect(contents.openHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    await Promise.resolve();
    expect(openExternal.mock.calls).toEqual([['https://example.com/']]);

    for (const url of [
      'https://example.org/',
      'file:///home/me/notes.md', // a file dropped where the page did not take it
      'app://loci/other.html',
      'javascript:void 0',
    ]) {
      const e = navEvent();
      contents.emit('will-navigate', e, url);
      expect(e.preventDefault, url).toHaveBeenCalled();
    }
    await Promise.resolve();
    expect(openExternal.mock.calls).toEqual([['https://example.com/'], ['https://example.org/']]);

    for (const name of ['will-redirect', 'will-attach-webview']) {
      const e = navEvent();
      contents.emit(name, e);
      expect(e.preventDefault, name).toHaveBeenCalled();
    }
  });

  it('denies permission requests, except copying for the app itself', () => {
    const got: {
      request?: (c: unknown, p: string, cb: (ok: boolean) => void) => void;
      check?: (c: unknown, p: string, origin: string) => boolean;
    } = {};
    const session = {
      setPermissionRequestHandler: (h: typeof got.request) => (got.request = h),
      setPermissionCheckHandler: (h: typeof got.check) => (got.check = h),
    };
    denyPermissions(session as unknown as Session);
    const app = new FakeContents();
    const other = new FakeContents();
    other.url = 'https://evil.example/';
    const answers: [string, unknown, boolean][] = [];
    for (const [perm, contents] of [
      ['media', app],
      ['geolocation', app],
      ['notifications', app],
      ['openExternal', app],
      ['clipboard-read', app],
      ['clipboard-sanitized-write', app],
      ['clipboard-sanitized-write', other],
    ] as const)
      got.request?.(contents, perm, (ok) => answers.push([perm, contents.url, ok]));
    expect(answers.filter(([, , ok]) => ok)).toEqual([
      ['clipboard-sanitized-write', 'app://loci/index.html', true],
    ]);
    expect(got.check?.(app, 'media', 'app://loci')).toBe(false);
    expect(got.check?.(app, 'clipboard-sanitized-write', 'app://loci/')).toBe(true);
    expect(got.check?.(app, 'clipboard-sanitized-write', 'https://evil.example')).toBe(false);
  });

  it('hides on close until the app quits, and comes back to the front', () => {
    const win = Object.assign(new EventEmitter(), {
      hide: vi.fn(),
      show: vi.fn(),
      focus: vi.fn(),
      restore: vi.fn(),
      isMinimized: vi.fn(() => true),
      isVisible: vi.fn(() => false),
    });
    let quitting = false;
    hideOnClose(win as unknown as BrowserWindow, { quitting: () => quitting });
    const first = navEvent();
    win.emit('close', first);
    expect(first.preventDefault).toHaveBeenCalled();
    expect(win.hide).toHaveBeenCalledTimes(1);
    quitting = true;
    const second = navEvent();
    win.emit('close', second);
    expect(second.preventDefault).not.toHaveBeenCalled();
    expect(win.hide).toHaveBeenCalledTimes(1);

    reveal(win as unknown as BrowserWindow);
    expect(win.restore).toHaveBeenCalled();
    expect(win.show).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
  });
});
