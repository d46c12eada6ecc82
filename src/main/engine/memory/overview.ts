// The Overview view's figures: memories created per day, by kind and by source, and how
// fast this process has been answering recalls (a ring of the last 1,000 latencies).
import type { Actor, OverviewResult } from '../../../shared/api';
import { MEMORY_KINDS, type MemoryKind } from '../../../shared/schemas';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { visibilityFilter } from './model';

const DAY_MS = 86_400_000;
export const LATENCY_KEEP = 1000;
/** Histogram bucket upper bounds, ms; a last bucket takes the rest. */
export const LATENCY_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export class RecallLatencies {
  private readonly ring = new Float64Array(LATENCY_KEEP);
  private count = 0;

  add(ms: number): void {
    this.ring[this.count % LATENCY_KEEP] = ms;
    this.count++;
  }

  summary(): OverviewResult['recall'] {
    const n = Math.min(this.count, LATENCY_KEEP);
    const values = Array.from(this.ring.subarray(0, n)).sort((a, b) => a - b);
    const pct = (p: number) =>
      n === 0
        ? null
        : Math.round((values[Math.min(n - 1, Math.floor(p * n))] as number) * 100) / 100;
    const histogram = [...LATENCY_BUCKETS, null].map((le) => ({ le_ms: le, count: 0 }));
    for (const v of values) {
      const i = LATENCY_BUCKETS.findIndex((le) => v <= le);
      (histogram[i === -1 ? LATENCY_BUCKETS.length : i] as { count: number }).count++;
    }
    return { count: n, p50_ms: pct(0.5), p95_ms: pct(0.95), histogram };
  }
}

export function overview(
  store: OpenStore,
  actor: Actor,
  days: number,
  now: number,
  latencies: RecallLatencies,
): OverviewResult {
  const vis = visibilityFilter(actor);
  const live = `m.deleted_at IS NULL AND ${vis.sql}`;
  const today = Math.floor(now / DAY_MS);
  const first = today - days + 1;
  const perDay = new Map(
    (
      stmt(
        store.db,
        `SELECT m.created_at / ${DAY_MS} AS day, COUNT(*) AS n FROM memory m
          WHERE ${live} AND m.created_at >= ? GROUP BY day`,
      ).all(...vis.params, first * DAY_MS) as { day: number; n: number }[]
    ).map((r) => [r.day, r.n]),
  );
  const created_per_day = Array.from({ length: days }, (_, i) => ({
    day: new Date((first + i) * DAY_MS).toISOString().slice(0, 10),
    count: perDay.get(first + i) ?? 0,
  }));
  const by_kind = Object.fromEntries(MEMORY_KINDS.map((k) => [k, 0])) as Record<MemoryKind, number>;
  for (const r of stmt(
    store.db,
    `SELECT m.kind AS kind, COUNT(*) AS n FROM memory m WHERE ${live} GROUP BY m.kind`,
  ).all(...vis.params) as { kind: MemoryKind; n: number }[]) {
    by_kind[r.kind] = r.n;
  }
  const by_source = (
    stmt(
      store.db,
      `SELECT m.source AS source, COUNT(*) AS count FROM memory m WHERE ${live}
        GROUP BY m.source ORDER BY count DESC, source LIMIT 12`,
    ).all(...vis.params) as { source: string; count: number }[]
  ).map((r) => ({ source: r.source, count: r.count }));
  // Conversations: who speaks most, and the sessions most recently spoken in.
  const by_speaker = stmt(
    store.db,
    `SELECT m.speaker AS speaker, COUNT(*) AS count FROM memory m
      WHERE m.speaker IS NOT NULL AND ${live}
      GROUP BY m.speaker ORDER BY count DESC, speaker LIMIT 50`,
  ).all(...vis.params) as { speaker: string; count: number }[];
  const sessions = (
    stmt(
      store.db,
      `SELECT m.session AS session, COUNT(*) AS count,
              MIN(COALESCE(m.occurred_at, m.created_at)) AS first,
              MAX(COALESCE(m.occurred_at, m.created_at)) AS last
         FROM memory m WHERE m.session IS NOT NULL AND ${live}
        GROUP BY m.session ORDER BY last DESC, session LIMIT 50`,
    ).all(...vis.params) as { session: string; count: number; first: number; last: number }[]
  ).map((r) => ({
    session: r.session,
    count: r.count,
    first: new Date(r.first).toISOString(),
    last: new Date(r.last).toISOString(),
  }));
  return {
    store: store.name,
    days,
    created_per_day,
    by_kind,
    by_source,
    by_speaker,
    sessions,
    recall: latencies.summary(),
  };
}
