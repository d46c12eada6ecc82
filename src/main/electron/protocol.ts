// The `app://loci/` protocol: serves the built observatory (out/renderer) to the window
// with a strict Content-Security-Policy, correct MIME types and a path-traversal check.
// It serves files only from that one folder, never the API (the window uses IPC).
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { Protocol } from 'electron';

export const APP_SCHEME = 'app';
export const APP_HOST = 'loci';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`;

/**
 * The page may run only its own scripts and talk to nothing: the engine is reached over
 * IPC. Inline styles stay allowed (React sets style attributes); images may be data URLs
 * (the Atlas exports); the Atlas worker is a file of the app.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "worker-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** Must run before the app is ready: `app://` is a standard, secure origin of its own. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

function plain(status: number, message: string): Response {
  return new Response(message, {
    status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'content-security-policy': APP_CSP,
    },
  });
}

const inside = (base: string, file: string) => file === base || file.startsWith(base + sep);

/** Answers one request for `app://loci/<path>` from the files under `root`. */
export async function serveAppRequest(
  root: string,
  request: Pick<Request, 'url' | 'method'>,
): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return plain(400, 'Malformed address.');
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return plain(404, 'Not found.');
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Only GET.');
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return plain(400, 'Malformed path.');
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return plain(400, 'Malformed path.');
  let base: string;
  try {
    base = await realpath(root);
  } catch {
    return plain(500, 'The observatory is not built (npm run build).');
  }
  let file = resolve(base, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`);
  if (!inside(base, file)) return plain(403, 'Outside the observatory.');
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    // Client-side routes fall back to the app shell; a missing asset is a 404.
    if (extname(decoded)) return plain(404, 'Not found.');
    file = join(base, 'index.html');
    real = file;
  }
  // A symbolic link inside must not lead outside either.
  if (!inside(base, real)) return plain(403, 'Outside the observatory.');
  try {
    if (!(await stat(real)).isFile()) return plain(404, 'Not found.');
    const body = await readFile(real);
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: {
        'content-type': MIME_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream',
        'content-length': String(body.length),
        'x-content-type-options': 'nosniff',
        'content-security-policy': APP_CSP,
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache',
      },
    });
  } catch {
    return plain(404, 'Not found.');
  }
}

/** After `app.whenReady()`: serves `root` on `app://loci/`. */
export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, root: string): void {
  protocol.handle(APP_SCHEME, (request) => serveAppRequest(root, request));
}
