// The Atlas's canvas colours, read from the theme tokens (styles/tokens.css) so the
// drawing follows light and dark like the rest of the page. A canvas cannot use CSS
// custom properties, and tokens are light-dark() pairs: a hidden probe element resolves
// each to the computed colour of the current scheme.
import { useEffect, useState } from 'react';
import { COMMUNITY_TOKENS, KIND_TOKENS } from './style';

export interface ThemeColours {
  kind: string[];
  community: string[];
  link: string;
  /** Labels, pinned rings. */
  text: string;
  /** Behind labels (the page's background), so they read over links. */
  halo: string;
  /** The hovered memory and its links. */
  accent: string;
  /** Search matches' rings. */
  highlight: string;
  /** `contradicts` links (dashed) and `supersedes` links (arrows). */
  contradicts: string;
  supersedes: string;
  /** `causes` links (dotted arrows). */
  causes: string;
  /** The bucketed links, by LINK_STYLES (index 0, related, is `link`). */
  linkStyles: string[];
}

const FALLBACK = '#808080';

export function readThemeColours(probe: HTMLElement): ThemeColours {
  const view = probe.ownerDocument.defaultView;
  const resolve = (token: string) => {
    probe.style.color = `var(${token})`;
    const value = view?.getComputedStyle(probe).color ?? '';
    return value && !value.includes('var(') ? value : FALLBACK;
  };
  const colours: ThemeColours = {
    kind: KIND_TOKENS.map(resolve),
    community: COMMUNITY_TOKENS.map(resolve),
    link: resolve('--text-muted'),
    text: resolve('--text'),
    halo: resolve('--bg'),
    accent: resolve('--accent'),
    highlight: resolve('--warn'),
    contradicts: resolve('--atlas-contradicts'),
    supersedes: resolve('--atlas-supersedes'),
    causes: resolve('--atlas-causes'),
    linkStyles: [
      resolve('--text-muted'),
      resolve('--atlas-supports'),
      resolve('--atlas-follows'),
      resolve('--atlas-structure'),
      resolve('--atlas-same-as'),
    ],
  };
  probe.style.color = '';
  return colours;
}

/**
 * A number that changes whenever the colour scheme may have: the theme picked in the
 * observatory (data-theme on <html>) or the system's preference.
 */
export function useSchemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme'],
    });
    const media =
      typeof window.matchMedia === 'function'
        ? window.matchMedia('(prefers-color-scheme: dark)')
        : null;
    media?.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      media?.removeEventListener('change', bump);
    };
  }, []);
  return version;
}
