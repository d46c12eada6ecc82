// For sync tests: a transport that keeps the log in this process (the hub and folder
// transports have their own tests against PostgreSQL and real folders), with switches
// to make it fail, and a dump of a replica that two devices must agree on.
import type { Db } from '../../src/main/engine/store/database';
import type {
  PullResult,
  SyncDevice,
  SyncTransport,
  WireOp,
} from '../../src/main/engine/sync/wire';
import { LociError } from '../../src/shared/errors';

/** The shared log of an in-process hub: one per test, shared by every device's transport. */
export class MemoryLog {
  readonly ops: WireOp[] = [];
  readonly devices = new Map<string, SyncDevice>();
  /** Fail the next N pushes (after storing half the batch: a cut mid-batch is all-or-none). */
  failPushes = 0;
  failPulls = 0;
  down = false;

  transport(store: string, device: string): SyncTransport {
    return transportOf(this, store, device);
  }
}

function transportOf(log: MemoryLog, store: string, device: string): SyncTransport {
  return {
    kind: 'hub',
    target: `memory://${store}`,
    async open() {
      if (log.down) throw new LociError('unavailable', 'the test hub is down');
      if (!log.devices.has(device)) {
        log.devices.set(device, {
          id: device,
          name: device,
          last_seen: Date.now(),
          last_push: null,
          ops: 0,
          clock_skew_ms: 0,
          version: 'test',
        });
      }
    },
    async push(ops) {
      if (log.down) throw new LociError('unavailable', 'the test hub is down');
      if (log.failPushes > 0) {
        log.failPushes--;
        throw new LociError('unavailable', 'the test hub went away mid-batch');
      }
      const have = new Set(log.ops.map((o) => o.h));
      // Like the hub: a tombstone purges the older operations that mention its memory,
      // and one of those arriving late is refused.
      const stoneOf = (id: string) => log.ops.find((o) => o.x && o.e === `m:${id}`)?.h;
      for (const op of ops) {
        if (have.has(op.h)) continue;
        if (!op.x && op.r.some((id) => (stoneOf(id) ?? '') > op.h)) continue;
        have.add(op.h);
        if (op.x) {
          const id = op.e.slice(2);
          for (let i = log.ops.length - 1; i >= 0; i--) {
            const o = log.ops[i] as WireOp;
            if (!o.x && o.h < op.h && o.r.includes(id)) log.ops.splice(i, 1);
          }
        }
        log.ops.push(structuredClone(op));
      }
      const d = log.devices.get(device);
      if (d) {
        d.last_push = Date.now();
        d.ops += ops.length;
      }
    },
    async pull(cursor, limit): Promise<PullResult> {
      if (log.down) throw new LociError('unavailable', 'the test hub is down');
      if (log.failPulls > 0) {
        log.failPulls--;
        throw new LociError('unavailable', 'the test hub went away');
      }
      // The cursor is the number of operations seen; purges only remove older ones, so
      // an index past them can skip: keep it as the clock of the last op seen instead.
      const seen = cursor ? new Set(JSON.parse(cursor) as string[]) : new Set<string>();
      const fresh = log.ops.filter((o) => !seen.has(o.h));
      const batch = fresh.slice(0, limit);
      for (const o of batch) seen.add(o.h);
      return {
        ops: batch.filter((o) => o.d !== device).map((o) => structuredClone(o)),
        cursor: JSON.stringify([...seen]),
        more: fresh.length > limit,
        problems: [],
      };
    },
    async devices() {
      return [...log.devices.values()];
    },
    async leave() {
      log.devices.delete(device);
    },
    async close() {},
  };
}

export interface ReplicaDump {
  memories: Record<string, unknown>[];
  versions: Record<string, unknown>[];
  links: Record<string, unknown>[];
  outcomes: Record<string, unknown>[];
  tombstones: string[];
}

/** What every device of a store must hold alike once quiescent. */
export function dumpReplica(db: Db): ReplicaDump {
  const all = (sql: string) => db.prepare(sql).all() as Record<string, unknown>[];
  return {
    memories: all(
      `SELECT m.id, m.title, m.content, m.kind, m.layer, m.source, m.evidence, m.pinned,
              m.valid_from, m.valid_to, m.occurred_at, m.session, m.speaker, m.deleted_at,
              m.created_at, m.version,
              (SELECT json_group_array(tag) FROM (SELECT tag FROM memory_tag t WHERE t.rid = m.rid ORDER BY tag)) AS tags
         FROM memory m WHERE m.visibility = 'shared' AND m.trust = 'trusted' ORDER BY m.id`,
    ),
    versions: all(
      `SELECT m.id, v.version, v.title, v.content, v.kind, v.tags, v.changed_at, v.actor
         FROM memory_version v JOIN memory m ON m.rid = v.rid
        WHERE m.visibility = 'shared' AND m.trust = 'trusted' ORDER BY m.id, v.version`,
    ),
    links: all(
      `SELECT s.id AS src, d.id AS dst, l.type, l.weight FROM link l
         JOIN memory s ON s.rid = l.src JOIN memory d ON d.rid = l.dst
        WHERE s.visibility = 'shared' AND d.visibility = 'shared'
          AND s.trust = 'trusted' AND d.trust = 'trusted'
        ORDER BY s.id, d.id, l.type`,
    ),
    outcomes: all(
      `SELECT m.id, o.at, o.success, o.niche, o.actor FROM procedure_outcome o
         JOIN memory m ON m.rid = o.rid WHERE m.visibility = 'shared' AND m.trust = 'trusted'
        ORDER BY m.id, o.at, o.success, o.niche`,
    ),
    tombstones: (
      db.prepare('SELECT id FROM sync_tombstone ORDER BY id').all() as { id: string }[]
    ).map((r) => r.id),
  };
}
