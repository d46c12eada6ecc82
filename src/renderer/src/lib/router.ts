// Hash routing (`#/memories/<id>?q=…`): the daemon serves one page at `/`, the Electron
// window will load a file, and a fragment never reaches a server, so routes work the
// same everywhere without server support.
import { useMemo, useSyncExternalStore } from 'react';

export interface Route {
  /** `/memories/01J…`, always starting with `/`. */
  path: string;
  /** The path's decoded parts: `['memories', '01J…']`. */
  segments: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const pathPart = q < 0 ? raw : raw.slice(0, q);
  const segments = pathPart
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  return {
    path: `/${segments.join('/')}`,
    segments,
    query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)),
  };
}

/** `#/memories/<id>`, with each segment encoded. */
export function routeHref(path: string, query?: Record<string, string>): string {
  const encoded = path
    .split('/')
    .filter(Boolean)
    .map((s) => encodeURIComponent(s))
    .join('/');
  const search = query && Object.keys(query).length ? `?${new URLSearchParams(query)}` : '';
  return `#/${encoded}${search}`;
}

export function navigate(
  path: string,
  options: { replace?: boolean; query?: Record<string, string> } = {},
): void {
  const href = routeHref(path, options.query);
  if (options.replace) {
    window.history.replaceState(window.history.state, '', href);
    // replaceState fires no hashchange: tell the subscribers ourselves.
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = href;
  }
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};
const snapshot = () => window.location.hash;

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, snapshot, () => '');
  return useMemo(() => parseRoute(hash), [hash]);
}
