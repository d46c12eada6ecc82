// Real daemons (`loci serve`, separate data directories) on one real PostgreSQL hub:
// concurrent writers converge to identical replicas, private memories never reach the
// hub (checked by querying it), and neither a SIGKILL of a daemon nor a restart of
// PostgreSQL during sync loses an acknowledged write or brings an erased one back.
import Database from 'better-sqlite3-multiple-ciphers';
import pg from 'pg';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDir, STORE_FILE } from '../src/main/engine/store/paths';
import { startDaemon, tempHome, type DaemonHandle } from '../scripts/sync/daemons';
import { postgresAvailable, startPostgres } from './helpers/postgres';
import { dumpReplica, type ReplicaDump } from './helpers/sync';
import { mulberry32 } from '../src/shared/random';

const available = postgresAvailable();
const FAST = { LOCI_SYNC_INTERVAL_MS: '250' };

function dumpOf(d: DaemonHandle): ReplicaDump {
  const db = new Database(join(storeDir(d.home, 'default'), STORE_FILE), { readonly: true });
  try {
    return dumpReplica(db as never);
  } finally {
    db.close();
  }
}

/** Syncs every daemon until their replicas agree (or the time is up). */
async function quiesce(daemons: DaemonHandle[], timeoutMs = 90_000): Promise<ReplicaDump[]> {
  const deadline = Date.now() + timeoutMs;
  let dumps: ReplicaDump[] = [];
  for (;;) {
    for (const d of daemons) {
      try {
        await d.api('sync.now', {});
      } catch {
        // A hub coming back: the next round tries again.
      }
    }
    dumps = daemons.map(dumpOf);
    const same = dumps.every((x) => JSON.stringify(x) === JSON.stringify(dumps[0]));
    const pending = await Promise.all(
      daemons.map(async (d) => {
        const s = await d.api<{ stores: { pending: number }[] }>('sync.status', {});
        return s.stores[0]?.pending ?? 0;
      }),
    );
    if (same && pending.every((p) => p === 0)) return dumps;
    if (Date.now() > deadline) return dumps;
    await new Promise((r) => setTimeout(r, 300));
  }
}

interface Remembered {
  id: string;
}

// Without PostgreSQL the suite is skipped, and its name says why.
const suite = available.ok ? describe : describe.skip;
suite(
  `daemons on one PostgreSQL hub${available.ok ? '' : ` (needs PostgreSQL: ${available.reason})`}`,
  () => {
    let cluster: Awaited<ReturnType<typeof startPostgres>>;
    const daemons: DaemonHandle[] = [];

    beforeAll(async () => {
      cluster = await startPostgres();
    }, 120_000);
    afterAll(async () => {
      await Promise.all(daemons.map((d) => d.stop().catch(() => undefined)));
      await cluster?.stop();
    }, 120_000);

    it('three daemons writing at once end identical, and none of their private memories reaches PostgreSQL', async () => {
      const url = await cluster.createDatabase('loci_three');
      const three = await Promise.all([0, 1, 2].map(() => startDaemon(tempHome(), FAST)));
      daemons.push(...three);
      for (const d of three) await d.api('sync.connect', { url });
      // Each writes for a bounded time: shared and private memories, edits of its own and
      // of others' memories, tags, links, forgets and erases.
      const until = Date.now() + 6_000;
      await Promise.all(
        three.map(async (d, i) => {
          const random = mulberry32(100 + i);
          const known: string[] = [];
          for (let k = 0; k < 80 && Date.now() < until; k++) {
            const roll = random();
            if (roll < 0.35 || known.length < 3) {
              const r = await d.api<Remembered>('memory.remember', {
                content: `Device ${i} learnt fact ${k}: the build step ${k} runs on runner ${i}.`,
                tags: [`device-${i}`],
              });
              known.push(r.id);
            } else if (roll < 0.45) {
              await d.api('memory.remember', {
                content: `PRIVATE-${i}-${k}: my own note, never for the team.`,
                visibility: 'private',
              });
            } else if (roll < 0.6) {
              const listed = await d.api<{ items: { id: string }[] }>('memory.list', { limit: 50 });
              const pick = listed.items[Math.floor(random() * listed.items.length)];
              if (pick) {
                await d
                  .api('memory.update', {
                    id: pick.id,
                    content: `Edited on device ${i} at step ${k}.`,
                  })
                  .catch(() => undefined); // erased meanwhile by another device
              }
            } else if (roll < 0.7) {
              const a = known[Math.floor(random() * known.length)] as string;
              const b = known[Math.floor(random() * known.length)] as string;
              if (a !== b)
                await d
                  .api('link.create', { from: a, to: b, type: 'related' })
                  .catch(() => undefined);
            } else if (roll < 0.8) {
              const a = known[Math.floor(random() * known.length)] as string;
              await d.api('memory.tag', { id: a, add: [`step-${k}`] }).catch(() => undefined);
            } else if (roll < 0.9) {
              const a = known.splice(Math.floor(random() * known.length), 1)[0] as string;
              await d.api('memory.forget', { id: a }).catch(() => undefined);
            } else {
              const a = known.splice(Math.floor(random() * known.length), 1)[0] as string;
              await d.api('memory.erase', { id: a }).catch(() => undefined);
            }
          }
        }),
      );
      const dumps = await quiesce(three);
      expect(dumps[0]?.memories.length).toBeGreaterThan(10);
      // Every kind of change took part.
      expect(dumps[0]?.versions.length).toBeGreaterThan(0);
      expect(dumps[0]?.links.length).toBeGreaterThan(0);
      expect(dumps[0]?.tombstones.length).toBeGreaterThan(0);
      expect(dumps[0]?.memories.some((m) => m.deleted_at !== null)).toBe(true);
      expect(dumps[1]).toEqual(dumps[0]);
      expect(dumps[2]).toEqual(dumps[0]);
      // PostgreSQL, queried directly: shared content is there, private content never.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const all = await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM loci.ops`);
        expect(Number(all.rows[0]?.n)).toBeGreaterThan(10);
        const leaked = await client.query<{ n: string }>(
          `SELECT COUNT(*) AS n FROM loci.ops WHERE b::text LIKE '%PRIVATE-%'`,
        );
        expect(Number(leaked.rows[0]?.n)).toBe(0);
      } finally {
        await client.end();
      }
      for (const d of three) {
        const mine = await d.api<{ items: unknown[] }>('memory.list', { limit: 500 });
        expect(mine.items.length).toBeGreaterThanOrEqual(
          dumps[0]?.memories.filter((m) => m.deleted_at === null).length ?? 0,
        );
      }
    }, 300_000);

    it('loses nothing acknowledged and brings nothing erased back through a SIGKILL and a PostgreSQL restart', async () => {
      const url = await cluster.createDatabase('loci_crash');
      const homeA = tempHome();
      let a = await startDaemon(homeA, FAST);
      const b = await startDaemon(tempHome(), FAST);
      daemons.push(b);
      await a.api('sync.connect', { url });
      await b.api('sync.connect', { url });
      const acknowledged: string[] = [];
      for (let k = 0; k < 30; k++) {
        acknowledged.push(
          (await a.api<Remembered>('memory.remember', { content: `Before the crash: fact ${k}.` }))
            .id,
        );
      }
      const erased = acknowledged.splice(0, 5);
      for (const id of erased) await a.api('memory.erase', { id });
      // Writes keep coming while the daemon is killed: those acknowledged must survive.
      let writing = true;
      const during = (async () => {
        for (let k = 0; writing; k++) {
          try {
            acknowledged.push(
              (
                await a.api<Remembered>('memory.remember', {
                  content: `During the crash: fact ${k}.`,
                })
              ).id,
            );
          } catch {
            return; // the daemon is gone: this write was never acknowledged
          }
        }
      })();
      await new Promise((r) => setTimeout(r, 400));
      await a.kill();
      writing = false;
      await during;
      // PostgreSQL restarts while the other daemon syncs.
      await Promise.all([cluster.restart(), b.api('sync.now', {}).catch(() => undefined)]);
      a = await startDaemon(homeA, FAST);
      daemons.push(a);
      const writtenDuring = acknowledged.length - 25;
      expect(writtenDuring).toBeGreaterThan(0);
      const [da, db] = await quiesce([a, b]);
      expect(db).toEqual(da);
      const ids = new Set(db?.memories.map((m) => m.id as string));
      for (const id of acknowledged) expect(ids.has(id)).toBe(true);
      for (const id of erased) expect(ids.has(id)).toBe(false);
      expect(db?.tombstones).toEqual(expect.arrayContaining(erased));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const back = await client.query<{ n: string }>(
          `SELECT COUNT(*) AS n FROM loci.ops WHERE NOT x AND r && $1::text[]`,
          [erased],
        );
        expect(Number(back.rows[0]?.n)).toBe(0);
      } finally {
        await client.end();
      }
    }, 300_000);
  },
);
