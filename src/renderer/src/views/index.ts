// The observatory's views, registered in one place: the navigation, the router and the
// command palette all read this list. To add a view: write `<Name>View.tsx` in this
// folder (default export, taking ViewProps) and add one entry below, in menu order.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { IconName } from '../components/Icon';
import { ConflictsBadge } from './conflicts/ConflictsBadge';

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
  /** A count beside the label in the navigation (what waits there); renders nothing when none. */
  badge?: ComponentType;
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

const memories: ViewDefinition = {
  id: 'memories',
  label: 'Memories',
  icon: 'memories',
  path: '/memories',
  description: 'Browse, search, filter and curate every memory: edit, tag, link, pin, forget',
  keywords: ['browse', 'list', 'edit', 'tags', 'versions', 'forget', 'erase', 'quarantine'],
  component: lazy(() => import('./MemoriesView')),
};

const recall: ViewDefinition = {
  id: 'recall',
  label: 'Recall lab',
  icon: 'recall',
  path: '/recall',
  description: 'Run a query as an agent would: scores, why, abstention, a replay of the pipeline',
  keywords: ['search', 'query', 'explain', 'trace', 'replay', 'abstain', 'score', 'as client'],
  component: lazy(() => import('./RecallLabView')),
};

const atlas: ViewDefinition = {
  id: 'atlas',
  label: 'Atlas',
  icon: 'atlas',
  path: '/atlas',
  description: 'Every memory as a map: clusters, links and activation, with search and filters',
  keywords: ['graph', 'map', 'network', 'clusters', 'communities', 'links', 'visualise'],
  component: lazy(() => import('./AtlasView')),
};

const conflicts: ViewDefinition = {
  id: 'conflicts',
  label: 'Conflicts',
  icon: 'conflicts',
  path: '/conflicts',
  description: 'Memories that contradict each other: decide what holds now, keep both, or dismiss',
  keywords: [
    'contradictions',
    'supersede',
    'outdated',
    'stale',
    'true now',
    'resolve',
    'scan',
    'context',
  ],
  component: lazy(() => import('./ConflictsView')),
  badge: ConflictsBadge,
};

const ingest: ViewDefinition = {
  id: 'ingest',
  label: 'Ingest',
  icon: 'ingest',
  path: '/ingest',
  description: 'Drop files and folders to turn them into memories: progress per file, undo',
  keywords: ['import', 'upload', 'files', 'folder', 'drop', 'pdf', 'markdown', 'csv', 'undo'],
  component: lazy(() => import('./IngestView')),
};

const dreams: ViewDefinition = {
  id: 'dreams',
  label: 'Dreams',
  icon: 'dreams',
  path: '/dreams',
  description:
    'Consolidation cycles: run now or dry run, what each phase changed, the review inbox',
  keywords: ['consolidate', 'dream', 'review', 'inbox', 'merge', 'schema', 'decay', 'proposals'],
  component: lazy(() => import('./DreamsView')),
};

const journals: ViewDefinition = {
  id: 'journals',
  label: 'Journals',
  icon: 'journals',
  path: '/journals',
  description: 'Agent sessions turn by turn, and what was distilled from them with its evidence',
  keywords: ['sessions', 'transcripts', 'distill', 'evidence', 'gate', 'hooks', 'claude', 'codex'],
  component: lazy(() => import('./JournalsView')),
};

const activity: ViewDefinition = {
  id: 'activity',
  label: 'Activity',
  icon: 'activity',
  path: '/activity',
  description: 'The live feed of MCP calls: client, tool, duration, outcome, what it received',
  keywords: ['calls', 'feed', 'log', 'mcp', 'clients', 'tools', 'live', 'requests'],
  component: lazy(() => import('./ActivityView')),
};

const quality: ViewDefinition = {
  id: 'quality',
  label: 'Quality',
  icon: 'quality',
  path: '/quality',
  description: 'Recall measured on the recalls you marked: trend with intervals, compare configs',
  keywords: ['eval', 'evaluation', 'ndcg', 'mrr', 'benchmark', 'marked', 'missed', 'wrong'],
  component: lazy(() => import('./QualityView')),
};

const connect: ViewDefinition = {
  id: 'connect',
  label: 'Connect',
  icon: 'connect',
  path: '/connect',
  description: 'Connect editors and agents: the MCP URL and token, config per client, live clients',
  keywords: ['mcp', 'setup', 'token', 'editor', 'cursor', 'claude', 'vscode', 'clients', 'url'],
  component: lazy(() => import('./ConnectView')),
};

const audit: ViewDefinition = {
  id: 'audit',
  label: 'Audit',
  icon: 'audit',
  path: '/audit',
  description: 'The signed chain of every change: filter, verify, first broken entry, client reads',
  keywords: ['chain', 'verify', 'hmac', 'anchor', 'tamper', 'history', 'who', 'reads', 'export'],
  component: lazy(() => import('./AuditView')),
};

const doctor: ViewDefinition = {
  id: 'doctor',
  label: 'Doctor',
  icon: 'doctor',
  path: '/doctor',
  description: 'Health checks of the store, indexes, model, endpoint and editors, with safe fixes',
  keywords: ['health', 'check', 'fix', 'problems', 'diagnose', 'fts', 'lock', 'disk', 'wal'],
  component: lazy(() => import('./DoctorView')),
};

const settings: ViewDefinition = {
  id: 'settings',
  label: 'Settings',
  icon: 'settings',
  path: '/settings',
  description: 'Stores, the embedding model, the port, token and data directory, and about',
  keywords: ['stores', 'rename', 'create', 'model', 'embedding', 'calibrate', 'port', 'about'],
  component: lazy(() => import('./SettingsView')),
};

export const VIEWS: readonly ViewDefinition[] = [
  overview,
  memories,
  recall,
  atlas,
  conflicts,
  ingest,
  dreams,
  journals,
  activity,
  quality,
  connect,
  audit,
  doctor,
  settings,
];

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
