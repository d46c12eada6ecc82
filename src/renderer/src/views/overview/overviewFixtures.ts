// Contract-shaped stats.overview answers for the Overview's chart tests.
import type { OverviewResult } from '../../../../shared/api';

const DAY_MS = 86_400_000;

/** `days` days ending today (UTC), with the given counts on days counted back from today. */
export function overviewFixture(
  counts: Record<number, number> = { 0: 5, 1: 2, 10: 8 },
  overrides: Partial<OverviewResult> = {},
  days = 90,
): OverviewResult {
  const today = Math.floor(Date.UTC(2026, 2, 3) / DAY_MS);
  return {
    store: 'default',
    days,
    created_per_day: Array.from({ length: days }, (_, i) => {
      const back = days - 1 - i;
      return {
        day: new Date((today - back) * DAY_MS).toISOString().slice(0, 10),
        count: counts[back] ?? 0,
      };
    }),
    by_kind: {
      semantic: 20,
      episodic: 10,
      procedural: 7,
      prospective: 2,
      affective: 2,
      schematic: 1,
    },
    by_source: [
      { source: 'mcp:cursor', count: 25 },
      { source: 'cli', count: 12 },
      { source: 'ui', count: 5 },
    ],
    by_speaker: [],
    sessions: [],
    recall: {
      count: 120,
      p50_ms: 4.2,
      p95_ms: 38,
      histogram: [
        { le_ms: 1, count: 0 },
        { le_ms: 2, count: 10 },
        { le_ms: 5, count: 60 },
        { le_ms: 10, count: 30 },
        { le_ms: 20, count: 10 },
        { le_ms: 50, count: 8 },
        { le_ms: 100, count: 2 },
        { le_ms: 200, count: 0 },
        { le_ms: 500, count: 0 },
        { le_ms: 1000, count: 0 },
        { le_ms: null, count: 0 },
      ],
    },
    ...overrides,
  };
}
