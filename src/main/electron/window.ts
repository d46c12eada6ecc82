// The observatory window: sandboxed, context-isolated, no Node in the page; it loads
// only app://loci/ and never navigates away; new windows, navigation and permission
// requests are refused, and http(s) links open in the default browser after a check.
import type {
  BrowserWindow,
  BrowserWindowConstructorOptions,
  Session,
  WebContents,
} from 'electron';
import { APP_HOST, APP_SCHEME } from './protocol';

export function windowOptions(preload: string, icon?: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Loci',
    backgroundColor: '#111318',
    ...(icon ? { icon } : {}),
    webPreferences: {
      preload,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: true,
    },
  };
}

/** A page of the app itself: `app://loci/…`. */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Links that may leave the app for the default browser: http(s), no credentials. */
export function isSafeExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password || !url.hostname) return false;
  return raw.length <= 2048;
}

export interface HardenOptions {
  openExternal: (url: string) => Promise<void> | void;
}

/** Navigation and new windows are refused; a safe external link opens in the browser. */
export function hardenWebContents(contents: WebContents, options: HardenOptions): void {
  const openOutside = (url: string) => {
    if (isSafeExternalUrl(url))
      void Promise.resolve(options.openExternal(url)).catch(() => undefined);
  };
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  // Any navigation, including a file dropped where the page did not take it, is refused:
  // the app is one page; hash routes do not navigate.
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    if (!isAppUrl(url)) openOutside(url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Copying (the Connect view's buttons) is the one permission the app's own page gets. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((contents, permission, callback) => {
    callback(ALLOWED_PERMISSIONS.has(permission) && isAppUrl(contents.getURL()));
  });
  session.setPermissionCheckHandler(
    (_contents, permission, origin) => ALLOWED_PERMISSIONS.has(permission) && isAppUrl(origin),
  );
}

export interface HideOnClose {
  /** Set when the app really quits: then closing closes. */
  quitting: () => boolean;
}

/** Closing the window hides it; the engine keeps serving (the tray brings it back). */
export function hideOnClose(win: BrowserWindow, options: HideOnClose): void {
  win.on('close', (event) => {
    if (options.quitting()) return;
    event.preventDefault();
    win.hide();
  });
}

/** Brings the window to the front (second launch, tray, a drop on the tray). */
export function reveal(win: BrowserWindow): void {
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}
