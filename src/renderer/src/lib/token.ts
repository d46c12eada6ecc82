// The daemon's bearer token in the browser: it arrives once in the URL fragment
// (`loci serve` prints `http://127.0.0.1:<port>/#token=…`; fragments never reach a
// server or a log), is kept in sessionStorage for this tab only, and is removed from the
// address bar at once so it cannot be bookmarked, shared or seen over a shoulder.

const KEY = 'loci.token';

/** Whatever storage is at hand: a private window or a sandbox may refuse sessionStorage. */
function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStoredToken(): string | null {
  try {
    return storage()?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  try {
    if (token) storage()?.setItem(KEY, token);
    else storage()?.removeItem(KEY);
  } catch {
    // The token then lives in memory only: a reload asks for it again.
  }
}

/**
 * A token pasted by the user: the bare token, or a whole observatory URL carrying one.
 * Returns null for something that cannot be a token (empty, spaces inside, too long).
 */
export function parseTokenInput(input: string): string | null {
  const text = input.trim();
  const fromUrl = /[#&?]token=([^&\s]+)/.exec(text)?.[1];
  let token = fromUrl ?? text;
  try {
    token = decodeURIComponent(token);
  } catch {
    return null;
  }
  return /^[\x21-\x7e]{1,512}$/.test(token) ? token : null;
}

/**
 * Reads `#token=` from the address once, keeps it, and rewrites the address without it
 * (keeping any route that followed, e.g. `#token=…&route=/memories`). Returns the token
 * to use: the new one, or the one this tab kept earlier.
 */
export function takeTokenFromLocation(win: Window = window): string | null {
  const hash = win.location.hash.replace(/^#/, '');
  if (!/(^|&)token=/.test(hash)) return readStoredToken();
  const token = parseTokenInput(`#${hash}`);
  let route = '/';
  try {
    route = decodeURIComponent(/(?:^|&)route=([^&]*)/.exec(hash)?.[1] ?? '/');
  } catch {
    // A malformed route is dropped; the token matters more.
  }
  const rest = route.startsWith('/') ? `#${route}` : '#/';
  win.history.replaceState(
    win.history.state,
    '',
    `${win.location.pathname}${win.location.search}${rest}`,
  );
  if (token) storeToken(token);
  return token ?? readStoredToken();
}
