// The read log: which MCP client read which memories, and when ("Cursor read these 37
// memories today"). Lighter than the audit chain: no hashes, buffered in memory and
// written about once a second, bounded by age and row count. A crash loses at most the
// last second of reads, never a memory or an audit entry.
import type { AccessResult } from '../../../shared/api';
import type { OpenStore } from '../store/registry';

export const READ_LOG_RETENTION_DAYS = 90;
export const READ_LOG_MAX_ROWS = 500_000;
const DAY = 86_400_000;

interface Pending {
  at: number;
  client: string;
  method: string;
  memoryId: string | null;
}

export class ReadLog {
  private readonly pending = new Map<OpenStore, Pending[]>();
  private timer: NodeJS.Timeout | null = null;
  private lastPrune = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly flushMs = 1000,
  ) {}

  /** Notes that `client` read these memories (none: it read an index, like the map). */
  record(store: OpenStore, client: string, method: string, memoryIds: readonly string[]): void {
    let list = this.pending.get(store);
    if (!list) {
      list = [];
      this.pending.set(store, list);
    }
    const at = this.now();
    if (memoryIds.length === 0) list.push({ at, client, method, memoryId: null });
    for (const id of memoryIds) list.push({ at, client, method, memoryId: id });
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes what is buffered, one transaction per store. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batches = [...this.pending.entries()];
    this.pending.clear();
    for (const [store, rows] of batches) {
      if (!store.db.open) continue;
      const insert = store.db.prepare(
        'INSERT INTO read_log (at, client, method, memory_id) VALUES (?, ?, ?, ?)',
      );
      store.db.transaction(() => {
        for (const r of rows) insert.run(r.at, r.client, r.method, r.memoryId);
      })();
      this.prune(store);
    }
  }

  /** Drops rows past the retention age, and the oldest past the row cap (hourly). */
  prune(store: OpenStore, force = false): number {
    const now = this.now();
    const last = this.lastPrune.get(store.name) ?? 0;
    if (!force && now - last < 3_600_000) return 0;
    this.lastPrune.set(store.name, now);
    let removed = store.db
      .prepare('DELETE FROM read_log WHERE at < ?')
      .run(now - READ_LOG_RETENTION_DAYS * DAY).changes;
    const excess =
      (store.db.prepare('SELECT COUNT(*) AS n FROM read_log').get() as { n: number }).n -
      READ_LOG_MAX_ROWS;
    if (excess > 0) {
      removed += store.db
        .prepare('DELETE FROM read_log WHERE id IN (SELECT id FROM read_log ORDER BY id LIMIT ?)')
        .run(excess).changes;
    }
    return removed;
  }
}

export interface AccessQuery {
  days: number;
  client?: string | undefined;
  day?: string | undefined;
  limit: number;
}

/** Reads grouped per client and UTC day; with a client and a day, the memories read. */
export function accessReport(store: OpenStore, q: AccessQuery, now: number): AccessResult {
  const since = q.day
    ? Date.parse(`${q.day}T00:00:00Z`)
    : Date.parse(new Date(now - (q.days - 1) * DAY).toISOString().slice(0, 10) + 'T00:00:00Z');
  const until = q.day ? since + DAY : now + DAY;
  const clientCond = q.client !== undefined ? 'AND client = ?' : '';
  const params: unknown[] = [since, until, ...(q.client !== undefined ? [q.client] : [])];
  const groups = store.db
    .prepare(
      `SELECT client, strftime('%Y-%m-%d', at / 1000, 'unixepoch') AS day,
              COUNT(*) AS reads, COUNT(DISTINCT memory_id) AS memories,
              json_group_array(DISTINCT method) AS methods, MAX(at) AS last_at
         FROM read_log WHERE at >= ? AND at < ? ${clientCond}
        GROUP BY client, day ORDER BY day DESC, memories DESC, client`,
    )
    .all(...params) as {
    client: string;
    day: string;
    reads: number;
    memories: number;
    methods: string;
    last_at: number;
  }[];
  let memories: AccessResult['memories'] = null;
  if (q.client !== undefined && q.day !== undefined) {
    memories = (
      store.db
        .prepare(
          `SELECT r.memory_id AS id, m.title AS title, COUNT(*) AS reads, MAX(r.at) AS last_at,
                  m.deleted_at IS NOT NULL AS forgotten
             FROM read_log r LEFT JOIN memory m ON m.id = r.memory_id
            WHERE r.at >= ? AND r.at < ? AND r.client = ? AND r.memory_id IS NOT NULL
            GROUP BY r.memory_id ORDER BY last_at DESC LIMIT ?`,
        )
        .all(since, until, q.client, q.limit) as {
        id: string;
        title: string | null;
        reads: number;
        last_at: number;
        forgotten: number | null;
      }[]
    ).map((r) => ({
      id: r.id,
      // An erased memory leaves no title behind: only its id is shown.
      title: r.title,
      reads: r.reads,
      last_at: new Date(r.last_at).toISOString(),
      erased: r.title === null,
      forgotten: r.forgotten === 1,
    }));
  }
  return {
    store: store.name,
    since: new Date(since).toISOString(),
    groups: groups.map((g) => ({
      client: g.client,
      day: g.day,
      reads: g.reads,
      memories: g.memories,
      methods: (JSON.parse(g.methods) as string[]).sort(),
      last_at: new Date(g.last_at).toISOString(),
    })),
    memories,
  };
}
