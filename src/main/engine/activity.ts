// The activity feed: the most recent calls made by clients (who, which tool, how long,
// how it ended, and what they sent and received, shortened), kept in memory for the
// Activity view and `activity.list`. A ring buffer: old entries fall off the end.
import type { ActivityItem } from '../../shared/api';
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

  constructor(private readonly events: EngineEvents) {}

  record(item: Omit<ActivityItem, 'args' | 'result'> & { args?: unknown; result?: unknown }): void {
    const entry: ActivityItem = { ...item, args: shorten(item.args), result: shorten(item.result) };
    this.items.push(entry);
    if (this.items.length > ACTIVITY_KEEP) this.items.splice(0, this.items.length - ACTIVITY_KEEP);
    const { args: _a, result: _r, ...summary } = entry;
    this.events.emit('activity.recorded', summary);
  }

  /** Newest first. */
  list(filter: {
    limit: number;
    client?: string | undefined;
    tool?: string | undefined;
  }): ActivityItem[] {
    const out: ActivityItem[] = [];
    for (let i = this.items.length - 1; i >= 0 && out.length < filter.limit; i--) {
      const item = this.items[i] as ActivityItem;
      if (filter.client && !item.actor.includes(filter.client)) continue;
      if (filter.tool && item.tool !== filter.tool) continue;
      out.push(item);
    }
    return out;
  }
}
