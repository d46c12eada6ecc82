// Contract-shaped answers for the Memories view's tests: list pages of any length (made
// up on demand, so a 100,000-memory store costs nothing), full memory views and histories.
import type {
  HistoryResult,
  ListResult,
  MemorySummary,
  MemoryView,
  NeighborsResult,
} from '../../../../shared/api';
import type { ListArgs } from '../../../../shared/schemas';
import { KINDS } from '../../components/KindBadge';

/** A 26-character id that reads as its index (tests look rows up by it). */
export const idOf = (i: number) => `M${String(i).padStart(25, '0')}`;

export function summaryFixture(i: number, overrides: Partial<MemorySummary> = {}): MemorySummary {
  return {
    id: idOf(i),
    title: `Memory number ${i}`,
    preview: `The text of memory ${i}, which says something worth keeping.`,
    kind: KINDS[i % KINDS.length] ?? 'semantic',
    tags: i % 2 ? ['odd'] : ['even', 'ops'],
    source: i % 3 ? 'agent:cursor' : 'user',
    trust: 'trusted',
    visibility: 'shared',
    pinned: i % 10 === 0,
    created_at: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString(),
    updated_at: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString(),
    deleted_at: null,
    version: 1,
    occurred_at: null,
    session: null,
    speaker: null,
    ...overrides,
  };
}

/** memory.list over a made-up store of `total` memories. */
export function listHandler(total: number, make = summaryFixture) {
  return (args: ListArgs): ListResult => {
    const offset = args.offset ?? 0;
    const limit = args.limit ?? 50;
    const items: MemorySummary[] = [];
    for (let i = offset; i < Math.min(total, offset + limit); i++) items.push(make(i));
    return { items, total, next_cursor: offset + limit < total ? 'next' : null };
  };
}

export function viewFixture(overrides: Partial<MemoryView> = {}): MemoryView {
  return {
    id: idOf(1),
    title: 'Deploys go through ops/deploy.sh',
    content: 'Production deploys run ops/deploy.sh from the release branch.',
    kind: 'procedural',
    tags: ['deploy', 'ops'],
    source: 'agent:cursor',
    trust: 'trusted',
    visibility: 'shared',
    pinned: false,
    created_at: '2026-01-01T09:00:00Z',
    updated_at: '2026-01-02T09:00:00Z',
    deleted_at: null,
    version: 2,
    occurred_at: null,
    session: null,
    speaker: null,
    layer: 'long_term',
    owner: null,
    quarantine_reasons: [],
    salience: 0.6,
    valence: 0.1,
    arousal: 0.2,
    valid_from: null,
    valid_to: null,
    content_hash: 'abcdef0123456789abcdef0123456789',
    evidence: [{ quote: 'The user said deploys use the script.', class: 'USER' }],
    activation: 1.25,
    retrievability: 0.87,
    access: {
      count: 3,
      last_at: '2026-01-03T09:00:00Z',
      recent: ['2026-01-03T09:00:00Z', '2026-01-02T09:00:00Z'],
    },
    fsrs: {
      state: 'review',
      stability: 12.5,
      difficulty: 5,
      reps: 3,
      lapses: 0,
      last_review: '2026-01-03T09:00:00Z',
      due: '2026-01-15T09:00:00Z',
    },
    links: {
      outgoing: [
        {
          from: idOf(1),
          to: idOf(2),
          type: 'related',
          weight: 0.6,
          traversals: 0,
          last_traversed: null,
          created_at: '2026-01-01T09:00:00Z',
        },
      ],
      incoming: [],
    },
    ...overrides,
  };
}

export function historyFixture(overrides: Partial<HistoryResult> = {}): HistoryResult {
  return {
    id: idOf(1),
    current_version: 2,
    versions: [
      {
        version: 1,
        title: 'Deploys go through ops/deploy.sh',
        content: 'Production deploys run the old script from main.',
        kind: 'procedural',
        tags: ['deploy'],
        changed_at: '2026-01-02T09:00:00Z',
        actor: 'mcp:cursor',
      },
    ],
    valid_from: null,
    valid_to: null,
    current: true,
    superseded_by: [],
    supersedes: [],
    conflicts: [],
    timeline: [
      { at: '2026-01-01T09:00:00Z', kind: 'created', text: 'written' },
      {
        at: '2026-01-02T09:00:00Z',
        kind: 'edited',
        text: 'version 2 (by mcp:cursor)',
        version: 2,
      },
    ],
    ...overrides,
  };
}

export function neighborsFixture(): NeighborsResult {
  return {
    root: idOf(1),
    nodes: [{ ...summaryFixture(2, { title: 'Rolling back a release' }), depth: 1, path: [] }],
    edges: [],
    truncated: false,
  };
}
