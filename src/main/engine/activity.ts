// The activity feed: the most recent calls made by clients (who, which tool, how long,
// how it ended, and what they sent and received, shortened), kept in memory for the
// Activity view and `activity.list`. A ring buffer: old entries fall off the end. What
// was sent and received is kept as JSON text (far smaller than the objects it came as),
// and within a budget: past it, the oldest calls keep only the head of their payloads.
import type { ActivityItem, ActivityStatsResult, ActivitySummary } from '../../shared/api';
import { LociError } from '../../shared/errors';
import type { EngineEvents } from './events';

export const ACTIVITY_KEEP = 2000;
const MAX_PAYLOAD_CHARS = 16_000;
/** Characters of payload the feed keeps in all (a long-running daemon holds them). */
export const PAYLOAD_BUDGET_CHARS = 4 * 1024 * 1024;
/** What an old call keeps of a payload once the budget is spent. */
export const OLD_PAYLOAD_HEAD_CHARS = 200;

/** The payload as shortened JSON text (`{ truncated, chars, head }` past `max`). */
function shortenedJson(value: unknown, max = MAX_PAYLOAD_CHARS): string {
  const text = value === undefined ? undefined : JSON.stringify(value);
  if (text === undefined) return 'null';
  if (text.length <= max) return text;
  return JSON.stringify({ truncated: true, chars: text.length, head: text.slice(0, max) });
}

/** A payload shortened again to its first `max` characters (an old call's, past the budget). */
function headOnly(json: string, max: number): string {
  if (json.length <= max) return json;
  const value = JSON.parse(json) as unknown;
  const v = value as { truncated?: unknown; chars?: unknown; head?: unknown } | null;
  // Already shortened: keep its size as received, and less of its head.
  if (v && v.truncated === true && typeof v.head === 'string' && typeof v.chars === 'number') {
    return JSON.stringify({ truncated: true, chars: v.chars, head: v.head.slice(0, max) });
  }
  return JSON.stringify({ truncated: true, chars: json.length, head: json.slice(0, max) });
}

interface Entry extends ActivitySummary {
  /** JSON text. */
  args: string;
  result: string;
}

/** Per-minute counts are kept this long (the chart's widest window). */
const MINUTES_KEPT = 24 * 60;
/** Durations kept per minute for its percentiles. */
const DURATIONS_PER_MINUTE = 500;

interface Minute {
  calls: Map<string, number>;
  errors: number;
  durations: number[];
}

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

export class ActivityLog {
  private readonly items: Entry[] = [];
  private nextId = 1;
  /** Characters of payload held, and the oldest entry that still has all of its own. */
  private payloadChars = 0;
  private whole = 0;
  /** Calls per client and their durations, per minute since the epoch (the last day). */
  private readonly minutes = new Map<number, Minute>();

  constructor(private readonly events: EngineEvents) {}

  record(
    item: Omit<ActivityItem, 'id' | 'args' | 'result'> & { args?: unknown; result?: unknown },
  ): ActivitySummary {
    const { args, result, ...summary } = item;
    const entry: Entry = {
      ...summary,
      id: this.nextId++,
      args: shortenedJson(args),
      result: shortenedJson(result),
    };
    this.items.push(entry);
    this.payloadChars += entry.args.length + entry.result.length;
    if (this.items.length > ACTIVITY_KEEP) {
      const gone = this.items.splice(0, this.items.length - ACTIVITY_KEEP);
      for (const g of gone) this.payloadChars -= g.args.length + g.result.length;
      this.whole = Math.max(0, this.whole - gone.length);
    }
    // Over the budget, the oldest calls keep the head of what they sent and received.
    while (this.payloadChars > PAYLOAD_BUDGET_CHARS && this.whole < this.items.length - 1) {
      const old = this.items[this.whole++] as Entry;
      const before = old.args.length + old.result.length;
      old.args = headOnly(old.args, OLD_PAYLOAD_HEAD_CHARS);
      old.result = headOnly(old.result, OLD_PAYLOAD_HEAD_CHARS);
      this.payloadChars += old.args.length + old.result.length - before;
    }
    this.count(entry);
    const recorded = summarize(entry);
    this.events.emit('activity.recorded', recorded);
    return recorded;
  }

  /** Newest first, without payloads. */
  list(filter: {
    limit: number;
    client?: string | undefined;
    tool?: string | undefined;
    after?: number | undefined;
  }): ActivitySummary[] {
    const out: ActivitySummary[] = [];
    for (let i = this.items.length - 1; i >= 0 && out.length < filter.limit; i--) {
      const item = this.items[i] as Entry;
      if (filter.after !== undefined && item.id <= filter.after) break;
      if (filter.client && !item.actor.includes(filter.client)) continue;
      if (filter.tool && item.tool !== filter.tool) continue;
      out.push(summarize(item));
    }
    return out;
  }

  private count(entry: Entry): void {
    const minute = Math.floor(Date.parse(entry.at) / 60_000);
    if (!Number.isFinite(minute)) return;
    let m = this.minutes.get(minute);
    if (!m) {
      m = { calls: new Map(), errors: 0, durations: [] };
      this.minutes.set(minute, m);
      // Minutes arrive in order: the oldest are first in the map.
      for (const key of this.minutes.keys()) {
        if (key > minute - MINUTES_KEPT) break;
        this.minutes.delete(key);
      }
    }
    m.calls.set(entry.actor, (m.calls.get(entry.actor) ?? 0) + 1);
    if (!entry.ok) m.errors++;
    if (m.durations.length < DURATIONS_PER_MINUTE) m.durations.push(entry.duration_ms);
  }

  /**
   * Calls per client over the last `windowMinutes` (at most a day), in `buckets` equal
   * slices oldest first, each with its errors and latency percentiles.
   */
  stats(windowMinutes: number, buckets: number, now: number): ActivityStatsResult {
    const end = Math.floor(now / 60_000) + 1;
    const start = end - windowMinutes;
    const size = windowMinutes / buckets;
    const out = Array.from({ length: buckets }, (_, i) => ({
      at: new Date((start + i * size) * 60_000).toISOString(),
      calls: {} as Record<string, number>,
      total: 0,
      errors: 0,
      durations: [] as number[],
    }));
    const clients = new Map<string, number>();
    for (const [minute, m] of this.minutes) {
      if (minute < start || minute >= end) continue;
      const b = out[Math.min(buckets - 1, Math.floor((minute - start) / size))];
      if (!b) continue;
      for (const [client, n] of m.calls) {
        b.calls[client] = (b.calls[client] ?? 0) + n;
        b.total += n;
        clients.set(client, (clients.get(client) ?? 0) + n);
      }
      b.errors += m.errors;
      b.durations.push(...m.durations);
    }
    return {
      window_minutes: windowMinutes,
      bucket_minutes: size,
      clients: [...clients.entries()].sort((a, b) => b[1] - a[1]).map(([c]) => c),
      buckets: out.map(({ durations, ...b }) => {
        const sorted = durations.sort((x, y) => x - y);
        return { ...b, p50_ms: percentile(sorted, 0.5), p95_ms: percentile(sorted, 0.95) };
      }),
    };
  }

  /** One call with what was sent and received. */
  get(id: number): ActivityItem {
    // Ids increase along the buffer: binary search.
    let lo = 0;
    let hi = this.items.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const item = this.items[mid] as Entry;
      if (item.id === id) return withPayloads(item);
      if (item.id < id) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new LociError(
      'not-found',
      `No call ${id} in the activity feed (it keeps the last ${ACTIVITY_KEEP} calls of this process).`,
    );
  }
}

function summarize(item: Entry): ActivitySummary {
  const { args: _a, result: _r, ...summary } = item;
  return summary;
}

function withPayloads(item: Entry): ActivityItem {
  return { ...item, args: JSON.parse(item.args), result: JSON.parse(item.result) };
}
