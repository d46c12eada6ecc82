// Contract-shaped answers for renderer tests.
import type { RecallHit, RecallResult, StatsResult, StoreListResult } from '../../../shared/api';

export function statsFixture(overrides: Partial<StatsResult['memories']> = {}): StatsResult {
  return {
    store: 'default',
    memories: {
      live: 42,
      deleted: 3,
      quarantined: 1,
      pinned: 5,
      by_kind: {
        semantic: 20,
        episodic: 10,
        procedural: 7,
        prospective: 2,
        affective: 2,
        schematic: 1,
      },
      ...overrides,
    },
    links: 17,
    versions: 50,
    audit_entries: 61,
    vectors: { model: 'hash-384', semantic: 'off', embedded: 40, pending: 2 },
    oldest: '2026-01-01T09:00:00Z',
    newest: '2026-03-01T09:00:00Z',
    database: {
      path: '/home/me/.config/Loci/stores/default/loci.db',
      size_bytes: 1_572_864,
      wal_bytes: 32_768,
      schema_version: 4,
      sqlite_version: '3.53.0',
    },
  };
}

export function storeListFixture(names: string[] = ['default']): StoreListResult {
  return {
    data_dir: '/home/me/.config/Loci',
    stores: names.map((name, i) => ({
      name,
      path: `/home/me/.config/Loci/stores/${name}`,
      created_at: '2026-01-01T09:00:00Z',
      is_default: i === 0,
    })),
  };
}

export function hitFixture(
  id: string,
  title: string,
  overrides: Partial<RecallHit> = {},
): RecallHit {
  return {
    id,
    title,
    content: `${title}: details`,
    truncated: false,
    tags: [],
    kind: 'semantic',
    created_at: '2026-02-01T09:00:00Z',
    score: 0.82,
    confidence: 0.75,
    why: 'matched 2 of 2 terms',
    pinned: false,
    quarantined: false,
    ...overrides,
  };
}

export function recallFixture(results: RecallHit[]): RecallResult {
  return {
    store: 'default',
    how: 'lexical',
    abstained: results.length === 0,
    confidence:
      results.length === 0
        ? { value: 0.05, level: 'low', basis: "0 % of the query's weight in words" }
        : { value: 0.8, level: 'high', basis: "100 % of the query's weight in words" },
    semantic: 'off',
    degraded: [],
    results,
    omitted: 0,
    tokens: { used: 10, max: null },
    timings: {},
  };
}
