// The activity feed: the most recent calls made by clients (who, which tool, how long,
// how it ended, and what they sent and received, shortened), kept in memory for the
// Activity view and `activity.list`. A ring buffer: old entries fall off the end.
import type { ActivityItem, ActivitySummary } from '../../shared/api';
import { LociError } from '../../shared/errors';
import type { EngineEvents } from './events';

export const ACTIVITY_KEEP = 2000;
const MAX_PAYLOAD_CHARS = 16_000;

/** Keeps a JSON-able value under a size, replacing what does not fit by a note. */
export function shorten(value: unknown): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  if (text === undefined || text.length <= MAX_PAYLOAD_CHARS) return value;
  return { truncated: true, chars: text.length, head: text.slice(0, MAX_PAYLOAD_CHARS) };
}

export class ActivityLog {
  private readonly items: ActivityItem[] = [];
  private nextId = 1;

  constructor(private readonly events: EngineEvents) {}

  record(
    item: Omit<ActivityItem, 'id' | 'args' | 'result'> & { args?: unknown; result?: unknown },
  ): ActivityItem {
    const entry: ActivityItem = {
      ...item,
      id: this.nextId++,
      args: shorten(item.args),
      result: shorten(item.result),
    };
    this.items.push(entry);
    if (this.items.length > ACTIVITY_KEEP) this.items.splice(0, this.items.length - ACTIVITY_KEEP);
    this.events.emit('activity.recorded', summarize(entry));
    return entry;
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
      const item = this.items[i] as ActivityItem;
      if (filter.after !== undefined && item.id <= filter.after) break;
      if (filter.client && !item.actor.includes(filter.client)) continue;
      if (filter.tool && item.tool !== filter.tool) continue;
      out.push(summarize(item));
    }
    return out;
  }

  /** One call with what was sent and received. */
  get(id: number): ActivityItem {
    // Ids increase along the buffer: binary search.
    let lo = 0;
    let hi = this.items.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const item = this.items[mid] as ActivityItem;
      if (item.id === id) return item;
      if (item.id < id) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new LociError(
      'not-found',
      `No call ${id} in the activity feed (it keeps the last ${ACTIVITY_KEEP} calls of this process).`,
    );
  }
}

function summarize(item: ActivityItem): ActivitySummary {
  const { args: _a, result: _r, ...summary } = item;
  return summary;
}
