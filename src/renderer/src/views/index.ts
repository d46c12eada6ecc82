// The observatory's views, registered in one place: the navigation, the router and the
// command palette all read this list. To add a view: write `<Name>View.tsx` in this
// folder (default export, taking ViewProps) and add one entry below, in menu order.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { IconName } from '../components/Icon';

export interface ViewProps {
  /** The path after the view's own: `#/memories/01J…` gives the Memories view `['01J…']`. */
  rest: string[];
  /** The route's query: `#/recall?q=deploy` gives `q=deploy`. */
  query: URLSearchParams;
}

export interface ViewDefinition {
  /** Stable id: used in test hooks and screenshots (`docs/screenshots/<id>.png`). */
  id: string;
  label: string;
  icon: IconName;
  /** The route it owns, with everything under it: `/memories` also gets `/memories/<id>`. */
  path: `/${string}`;
  /** One line for the command palette. */
  description: string;
  /** Extra words the command palette matches. */
  keywords?: readonly string[];
  /** Loaded on first visit, so the shell starts fast however many views there are. */
  component: LazyExoticComponent<ComponentType<ViewProps>>;
}

const overview: ViewDefinition = {
  id: 'overview',
  label: 'Overview',
  icon: 'overview',
  path: '/overview',
  description: 'The current store at a glance: memories, kinds, vectors and the database',
  keywords: ['stats', 'statistics', 'dashboard', 'home', 'counts'],
  component: lazy(() => import('./OverviewView')),
};

export const VIEWS: readonly ViewDefinition[] = [overview];

/** Where `#/` (and the observatory's first load) goes. */
export const DEFAULT_VIEW: ViewDefinition = overview;

/** The view that owns a route path, and the rest of the path below its own. */
export function matchView(
  segments: readonly string[],
  views: readonly ViewDefinition[] = VIEWS,
): { view: ViewDefinition; rest: string[] } | null {
  for (const view of views) {
    const own = view.path.split('/').filter(Boolean);
    if (own.every((part, i) => segments[i] === part))
      return { view, rest: segments.slice(own.length) };
  }
  return null;
}

export function findView(id: string): ViewDefinition | undefined {
  return VIEWS.find((v) => v.id === id);
}
