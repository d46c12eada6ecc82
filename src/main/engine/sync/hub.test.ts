// The PostgreSQL team hub against a real cluster (test/helpers/postgres.ts: CI's, or one
// of this file's own): its schema and migrations, push and pull between devices, commit
// order under concurrent pushers, tombstone purges, row-level security between roles,
// cuts mid-push, and the errors a person sees for an unreachable hub or wrong
// credentials. Skipped, with the reason, where no PostgreSQL can be started.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LociError } from '../../../shared/errors';
import {
  postgresAvailable,
  startPostgres,
  type TestPostgres,
} from '../../../../test/helpers/postgres';
import { formatHlc } from './hlc';
import { HUB_SCHEMA_VERSION, PostgresHub, type PostgresHubOptions } from './hub';
import type { WireOp } from './wire';

const available = postgresAvailable();
if (!available.ok) process.stderr.write(`PostgreSQL hub tests skipped: ${available.reason}\n`);

const BASE = Date.parse('2026-03-01T09:00:00Z');
const A = 'deva0000';
const B = 'devb0000';
const C = 'devc0000';

function op(device: string, n: number, memory: string, body: object = {}): WireOp {
  return {
    h: formatHlc({ wall: BASE + n, counter: n % 7, device }),
    d: device,
    e: `m:${memory}`,
    r: [memory],
    b: { k: 'change', n, text: `note ${n} of ${device}`, ...body },
  };
}

function tombstone(device: string, n: number, memory: string): WireOp {
  return {
    ...op(device, n, memory),
    x: true,
    b: { k: 'gone', id: memory, why: 'erased', a: 'cli' },
  };
}

function batch(device: string, from: number, count: number, body: object = {}): WireOp[] {
  return Array.from({ length: count }, (_, i) => op(device, from + i, `mem${from + i}`, body));
}

function urlAs(url: string, role: string, password: string): string {
  const u = new URL(url);
  u.username = role;
  u.password = password;
  return u.toString();
}

async function sql<R extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 30_000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

async function failure(p: Promise<unknown>): Promise<LociError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LociError);
  return err as LociError;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const suffix = randomBytes(4).toString('hex');

describe.skipIf(!available.ok)(
  `PostgreSQL team hub${available.ok ? '' : ` (skipped: ${available.reason})`}`,
  () => {
    let cluster: TestPostgres;
    /** The database most tests share, each with stores of its own. */
    let db: string;
    const alice = `loci_alice_${suffix}`;
    const bob = `loci_bob_${suffix}`;
    const carol = `loci_carol_${suffix}`;
    const dave = `loci_dave_${suffix}`;
    const secret = 'correct horse battery';

    beforeAll(async () => {
      cluster = await startPostgres();
      db = await cluster.createDatabase();
      for (const role of [alice, bob, carol, dave]) await cluster.createRole(role, secret);
    }, 240_000);
    afterAll(async () => {
      await cluster?.stop();
    }, 120_000);

    const hubs: PostgresHub[] = [];
    afterEach(async () => {
      await Promise.all(hubs.splice(0).map((h) => h.close().catch(() => {})));
    });

    function make(
      url: string,
      store: string,
      device: string,
      extra: Partial<PostgresHubOptions> = {},
    ): PostgresHub {
      const h = new PostgresHub({
        url,
        store,
        self: { id: device, name: `host of ${device}`, version: '0.1.0' },
        connectTimeoutMs: 30_000,
        ...extra,
      });
      hubs.push(h);
      return h;
    }
    async function opened(
      url: string,
      store: string,
      device: string,
      extra: Partial<PostgresHubOptions> = {},
    ): Promise<PostgresHub> {
      const h = make(url, store, device, extra);
      await h.open();
      return h;
    }
    async function pullAll(h: PostgresHub, limit = 1000): Promise<WireOp[]> {
      const all: WireOp[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 1000; i++) {
        const page = await h.pull(cursor, limit);
        all.push(...page.ops);
        cursor = page.cursor;
        if (!page.more) return all;
      }
      throw new Error('pull never ended');
    }
    const count = async (url: string, store: string) =>
      Number(
        (
          await sql<{ n: string }>(url, 'SELECT count(*) AS n FROM loci.ops WHERE store = $1', [
            store,
          ])
        )[0]?.n,
      );
    /** Adds a login role to a store as the README tells an admin to. */
    const addMember = (store: string, role: string) =>
      sql(db, `GRANT loci_member TO ${pg.escapeIdentifier(role)}`).then(() =>
        sql(db, 'INSERT INTO loci.members (store, role) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
          store,
          role,
        ]),
      );

    it('creates its schema, records its version, and a second open changes nothing', async () => {
      const url = await cluster.createDatabase();
      const first = await opened(url, 'team', A);
      const versions = await sql<{ version: number }>(
        url,
        'SELECT version FROM loci.schema_version ORDER BY version',
      );
      expect(versions.map((v) => v.version)).toEqual(
        Array.from({ length: HUB_SCHEMA_VERSION }, (_, i) => i + 1),
      );
      const rls = await sql<{ relname: string; relrowsecurity: boolean }>(
        url,
        `SELECT c.relname, c.relrowsecurity FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'loci' AND c.relname IN ('stores', 'members', 'devices', 'ops')
          ORDER BY c.relname`,
      );
      expect(rls).toEqual(
        ['devices', 'members', 'ops', 'stores'].map((relname) => ({
          relname,
          relrowsecurity: true,
        })),
      );
      expect(await sql(url, "SELECT 1 FROM pg_roles WHERE rolname = 'loci_member'")).toHaveLength(
        1,
      );
      const before = await sql(url, 'SELECT * FROM loci.devices');
      await first.close();

      // The same device again: no new version, the same device row (first seen kept).
      await opened(url, 'team', A);
      expect(await sql(url, 'SELECT version, applied_at FROM loci.schema_version')).toHaveLength(
        HUB_SCHEMA_VERSION,
      );
      const after = await sql(url, 'SELECT * FROM loci.devices');
      expect(after).toHaveLength(1);
      expect(after[0]?.first_seen).toEqual(before[0]?.first_seen);
      expect(await sql(url, 'SELECT * FROM loci.members')).toHaveLength(1);
    });

    it('lets several daemons open a new hub at once, migrating it once', async () => {
      const url = await cluster.createDatabase();
      await Promise.all([A, B, C].map((d) => opened(url, 'team', d)));
      expect(await sql(url, 'SELECT version FROM loci.schema_version')).toHaveLength(
        HUB_SCHEMA_VERSION,
      );
      expect(await sql(url, 'SELECT id FROM loci.devices ORDER BY id')).toEqual([
        { id: A },
        { id: B },
        { id: C },
      ]);
    }, 60_000);

    it('refuses a hub whose schema is newer than it knows', async () => {
      const url = await cluster.createDatabase();
      await (await opened(url, 'team', A)).close();
      await sql(
        url,
        "INSERT INTO loci.schema_version (version, description) VALUES ($1, 'future')",
        [HUB_SCHEMA_VERSION + 1],
      );
      const err = await failure(make(url, 'team', B).open());
      expect(err.code).toBe('environment');
      expect(err.message).toContain(`schema version ${HUB_SCHEMA_VERSION + 1}`);
      expect(err.message).toContain('update Loci');
    });

    it("hands each device the others' operations in pages, passing its own", async () => {
      const a = await opened(db, 'round', A);
      const b = await opened(db, 'round', B);
      const sent = batch(A, 0, 25);
      sent[3] = { ...op(A, 3, 'mem3'), r: ['mem3', 'mem4'], e: 'l:mem3|mem4|related' };
      await a.push(sent);

      const pages: number[] = [];
      const got: WireOp[] = [];
      let cursor: string | null = null;
      for (;;) {
        const page = await b.pull(cursor, 10);
        pages.push(page.ops.length);
        got.push(...page.ops);
        expect(page.problems).toEqual([]);
        if (page.cursor !== null && cursor !== null) {
          expect(BigInt(page.cursor)).toBeGreaterThan(BigInt(cursor));
        }
        cursor = page.cursor;
        if (!page.more) break;
      }
      expect(pages).toEqual([10, 10, 5]);
      expect(got).toEqual(sent);
      // Nothing new: the cursor stays.
      const idle = await b.pull(cursor, 10);
      expect(idle).toEqual({ ops: [], cursor, more: false, problems: [] });

      // A sees B's operations only, and its cursor passes its own 25 rows.
      const fromB = batch(B, 100, 3);
      await b.push(fromB);
      const atA = await a.pull(null, 10);
      expect(atA.ops).toEqual(fromB);
      expect(atA.more).toBe(false);
      const top = await sql<{ top: string }>(
        db,
        "SELECT max(seq)::text AS top FROM loci.ops WHERE store = 'round'",
      );
      expect(atA.cursor).toBe(top[0]?.top);
      expect((await a.pull(atA.cursor, 10)).ops).toEqual([]);
      // Own operations only after the cursor: a full page of nothing, the cursor moved past.
      await a.push(batch(A, 200, 30));
      const ownOnly = await a.pull(atA.cursor, 10);
      expect(ownOnly.ops).toEqual([]);
      expect(ownOnly.more).toBe(false);
      expect(BigInt(ownOnly.cursor ?? '0')).toBeGreaterThan(BigInt(atA.cursor ?? '0'));

      const devices = await a.devices();
      expect(devices.map((d) => [d.id, d.ops])).toEqual([
        [A, 55],
        [B, 3],
      ]);
      expect(devices.every((d) => d.last_push !== null && d.version === '0.1.0')).toBe(true);
    });

    it("wakes a listening device when another pushes to its store, and not for its own pushes or another store's", async () => {
      const a = await opened(db, 'notify', A);
      const b = await opened(db, 'notify', B);
      const other = await opened(db, 'notify-other', B);
      let woken = 0;
      const stop = await a.watch(
        () => woken++,
        () => {},
      );
      try {
        await a.push(batch(A, 0, 3));
        await other.push(batch(B, 0, 3));
        await new Promise((r) => setTimeout(r, 300));
        expect(woken).toBe(0);
        await b.push(batch(B, 10, 3));
        const deadline = Date.now() + 10_000;
        while (woken === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(woken).toBe(1);
      } finally {
        await stop();
      }
    }, 60_000);

    it('stores each operation once when a batch is replayed or overlaps another', async () => {
      const a = await opened(db, 'replay', A);
      const b = await opened(db, 'replay', B);
      const ops = batch(A, 0, 1200);
      await a.push(ops);
      await a.push(ops);
      await a.push([...batch(A, 1000, 400), ...batch(A, 1100, 50)]);
      expect(await count(db, 'replay')).toBe(1400);
      const got = await pullAll(b, 500);
      expect(got.map((o) => o.h)).toEqual(batch(A, 0, 1400).map((o) => o.h));
      const self = (await b.devices()).find((d) => d.id === A);
      expect(self?.ops).toBe(1400);
    }, 60_000);

    it('gives a puller every operation of concurrent pushers once, in commit order', async () => {
      const store = 'concurrent';
      const pushers = await Promise.all([A, B, C].map((d) => opened(db, store, d, { poolMax: 2 })));
      const puller = await opened(db, store, 'devp0000');
      const BATCHES = 8;
      const SIZE = 40;
      const total = 3 * BATCHES * SIZE;
      const seen = new Map<string, number>();
      const order: string[] = [];
      let pushing = true;
      const pull = (async () => {
        let cursor: string | null = null;
        const deadline = Date.now() + 90_000;
        while (Date.now() < deadline) {
          // Done only when a pull that began after the last push ended finds no more.
          const last = !pushing;
          const page = await puller.pull(cursor, 37);
          for (const o of page.ops) {
            seen.set(o.h, (seen.get(o.h) ?? 0) + 1);
            order.push(o.h);
          }
          cursor = page.cursor;
          if (last && !page.more) return;
          if (!page.more) await new Promise((r) => setTimeout(r, 5));
        }
      })();
      await Promise.all(
        pushers.map(async (h, i) => {
          const device = [A, B, C][i] as string;
          for (let k = 0; k < BATCHES; k++) await h.push(batch(device, k * SIZE, SIZE));
        }),
      );
      pushing = false;
      await pull;

      expect(order).toHaveLength(total);
      expect([...seen.values()].every((n) => n === 1)).toBe(true);
      // The order pulled is the hub's seq order, and each device's operations come in
      // the order it pushed them.
      const hub = await sql<{ h: string }>(
        db,
        'SELECT h FROM loci.ops WHERE store = $1 ORDER BY seq',
        [store],
      );
      expect(order).toEqual(hub.map((r) => r.h));
      for (const device of [A, B, C]) {
        const mine = order.filter((h) => h.endsWith(`-${device}`));
        expect(mine).toEqual(batch(device, 0, BATCHES * SIZE).map((o) => o.h));
      }
    }, 120_000);

    it("purges an erased memory's older operations, also those arriving later, and keeps the tombstone", async () => {
      const store = 'erase';
      await (await opened(db, store, A)).close();
      await addMember(store, carol);
      const url = urlAs(db, carol, secret);
      const a = await opened(url, store, A);
      const b = await opened(url, store, B);
      const link: WireOp = { ...op(A, 5, 'gone'), e: 'l:gone|kept|related', r: ['gone', 'kept'] };
      await a.push([op(A, 1, 'gone'), op(A, 2, 'gone'), op(A, 3, 'kept'), op(A, 4, 'kept'), link]);
      const stone = tombstone(B, 10, 'gone');
      await b.push([op(B, 9, 'kept'), stone]);
      // A device that had not heard of the erase pushes an older change of the erased
      // memory: purged. One with a later clock (a withdrawn memory shared again) stays:
      // the replicas decide, and one that erased answers it with a newer tombstone.
      await a.push([op(A, 8, 'gone'), op(A, 11, 'gone'), op(A, 12, 'kept')]);
      // Replaying the tombstone's batch is harmless.
      await b.push([stone]);

      const rows = await sql<{ h: string; x: boolean }>(
        db,
        'SELECT h, x FROM loci.ops WHERE store = $1 ORDER BY seq',
        [store],
      );
      expect(rows.map((r) => r.h)).toEqual(
        [
          op(A, 3, 'kept'),
          op(A, 4, 'kept'),
          op(B, 9, 'kept'),
          stone,
          op(A, 11, 'gone'),
          op(A, 12, 'kept'),
        ].map((o) => o.h),
      );
      const later = tombstone(B, 13, 'gone');
      await b.push([later]);
      const c = await opened(url, store, C);
      const got = await pullAll(c);
      expect(got.filter((o) => o.x)).toEqual([stone, later]);
      // A row that says it is a tombstone without being one is refused by the hub itself.
      await expect(
        sql(
          url,
          `INSERT INTO loci.ops (store, h, d, e, r, x, b) VALUES ($1, 'forged', $2, 'm:kept', '{kept}', true, '{"k":"mem"}')`,
          [store, A],
        ),
      ).rejects.toThrow(/check constraint/);
      expect(got.some((o) => !o.x && o.r.includes('gone'))).toBe(false);
    });

    it('keeps each role to the stores it was added to (row-level security)', async () => {
      await (await opened(db, 'alpha', A)).close();
      await (await opened(db, 'beta', A)).close();
      await addMember('alpha', alice);
      await addMember('beta', bob);
      const asAlice = urlAs(db, alice, secret);
      const asBob = urlAs(db, bob, secret);
      const a = await opened(asAlice, 'alpha', B);
      await a.push(batch(B, 0, 5));
      const b = await opened(asBob, 'beta', C);
      await b.push(batch(C, 0, 7));

      // Straight SQL as alice: only alpha's rows, only her own membership.
      const ops = await sql<{ store: string }>(asAlice, 'SELECT DISTINCT store FROM loci.ops');
      expect(ops).toEqual([{ store: 'alpha' }]);
      const devices = await sql<{ store: string }>(
        asAlice,
        'SELECT DISTINCT store FROM loci.devices',
      );
      expect(devices).toEqual([{ store: 'alpha' }]);
      const members = await sql<{ role: string }>(asAlice, 'SELECT role FROM loci.members');
      expect(members.map((m) => m.role)).toEqual([alice]);
      expect(await sql(asAlice, 'SELECT name FROM loci.stores')).toEqual([{ name: 'alpha' }]);
      // Writing into beta, deleting, or purging beta is refused by the server itself.
      const refused = (text: string, params: unknown[] = []) =>
        sql(asAlice, text, params).then(
          () => 'allowed',
          (e: { code?: string }) => e.code,
        );
      expect(
        await refused(
          "INSERT INTO loci.ops (store, h, d, e, b) VALUES ('beta', 'x', 'y', 'z', '{}')",
        ),
      ).toBe('42501');
      expect(await refused("DELETE FROM loci.ops WHERE store = 'alpha'")).toBe('42501');
      expect(await refused("SELECT loci.purge('beta', ARRAY['mem0'])")).toBe('42501');
      expect(await refused("UPDATE loci.ops SET b = '{}' WHERE store = 'alpha'")).toBe('42501');

      // Through the hub: opening beta as alice is refused with what an admin must run.
      const err = await failure(make(asAlice, 'beta', B).open());
      expect(err.code).toBe('forbidden');
      expect(err.message).toContain(alice);
      expect(err.message).toContain(
        `INSERT INTO loci.members (store, role) VALUES ('beta', '${alice}')`,
      );
      // A role that is no member at all is told the GRANT too.
      const none = await failure(make(urlAs(db, dave, secret), 'alpha', B).open());
      expect(none.code).toBe('forbidden');
      expect(none.message).toContain(`GRANT loci_member TO "${dave}"`);
      // Removed from alpha while running: its next push is refused, and nothing is stored.
      await sql(db, 'DELETE FROM loci.members WHERE store = $1 AND role = $2', ['alpha', alice]);
      const cut = await failure(a.push(batch(B, 100, 3)));
      expect(cut.code).toBe('forbidden');
      expect(await count(db, 'alpha')).toBe(5);
      await addMember('alpha', alice);
    });

    it('stores nothing of a push cut off mid-batch, and the replay stores each op once', async () => {
      const store = 'cut';
      const a = await opened(db, store, A);
      // Hold this device's row so the push stops after its inserts, then cut its session.
      const holder = new pg.Client({ connectionString: db });
      holder.on('error', () => {});
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM loci.devices WHERE store = $1 AND id = $2 FOR UPDATE', [
          store,
          A,
        ]);
        const ops = batch(A, 0, 3000);
        const pushing = a.push(ops).then(
          () => null,
          (e: unknown) => e,
        );
        let pid: number | null = null;
        for (let i = 0; i < 600 && pid === null; i++) {
          const rows = await holder.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
              WHERE datname = current_database() AND application_name = 'loci'
                AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          pid = rows.rows[0]?.pid ?? null;
          if (pid === null) await new Promise((r) => setTimeout(r, 100));
        }
        expect(pid).not.toBeNull();
        await holder.query('SELECT pg_terminate_backend($1)', [pid]);
        const err = await pushing;
        expect(err).toBeInstanceOf(LociError);
        expect((err as LociError).code).toBe('unavailable');
        await holder.query('ROLLBACK');
        expect(await count(db, store)).toBe(0);

        await a.push(ops);
        await a.push(ops.slice(1000, 2000));
        expect(await count(db, store)).toBe(3000);
        const distinct = await sql<{ n: string }>(
          db,
          'SELECT count(DISTINCT h) AS n FROM loci.ops WHERE store = $1',
          [store],
        );
        expect(Number(distinct[0]?.n)).toBe(3000);
        expect((await a.devices())[0]?.ops).toBe(3000);
      } finally {
        await holder.end().catch(() => {});
      }
    }, 120_000);

    it.skipIf(Boolean(process.env.LOCI_TEST_PG_URL) && !process.env.LOCI_TEST_PG_DATA)(
      'survives a server restart during a large push: unavailable or done, one copy after the replay',
      async () => {
        const store = 'restart';
        const a = await opened(db, store, A);
        const b = await opened(db, store, B);
        const ops = batch(A, 0, 6000, { filler: 'x'.repeat(300) });
        const pushing = a.push(ops).then(
          () => null,
          (e: unknown) => e,
        );
        await new Promise((r) => setTimeout(r, 30));
        await cluster.restart();
        const err = await pushing;
        if (err !== null) {
          expect(err).toBeInstanceOf(LociError);
          expect((err as LociError).code).toBe('unavailable');
        }
        // The pool's connections died with the server; the replay makes new ones.
        await a.push(ops);
        expect(await count(db, store)).toBe(6000);
        const got = await pullAll(b, 2000);
        expect(got).toHaveLength(6000);
        expect(new Set(got.map((o) => o.h)).size).toBe(6000);
      },
      120_000,
    );

    it('says an unreachable hub is unavailable, naming host and port', async () => {
      const port = await freePort();
      const err = await failure(make(`postgres://loci:pw@127.0.0.1:${port}/hub`, 'team', A).open());
      expect(err.code).toBe('unavailable');
      expect(err.message).toContain(`127.0.0.1:${port}`);
      expect(err.message).toContain('is PostgreSQL running there');
      expect(err.message).not.toContain('pw');

      const dns = await failure(
        make('postgres://loci:pw@loci-hub.invalid/hub', 'team', A, {
          connectTimeoutMs: 5_000,
        }).open(),
      );
      expect(dns.code).toBe('unavailable');
      expect(dns.message).toContain('loci-hub.invalid:5432');
    }, 60_000);

    it('refuses wrong credentials and names an unknown database', async () => {
      const wrong = await failure(make(urlAs(db, alice, 'not-the-password'), 'alpha', A).open());
      expect(wrong.code).toBe('forbidden');
      expect(wrong.message).toContain(alice);
      expect(wrong.message).toContain('check the credentials');
      expect(wrong.message).not.toContain('not-the-password');

      const u = new URL(db);
      u.pathname = `/loci_missing_${suffix}`;
      const missing = await failure(make(u.toString(), 'team', A).open());
      expect(missing.code).toBe('environment');
      expect(missing.message).toContain(`loci_missing_${suffix}`);
    });

    it('shows its target without the password, and takes the password apart from the URL', async () => {
      const u = new URL(db);
      const password = decodeURIComponent(u.password);
      u.password = '';
      const h = await opened(u.toString(), 'apart', A, { password });
      expect(h.target).toBe(u.toString());
      expect(make(db, 'apart', B).target).toBe(u.toString());
      expect(h.target).not.toContain(password);
    });

    it("records each device's clock skew and last contact, and forgets a device that leaves", async () => {
      const ahead = 3_600_000;
      const a = await opened(db, 'skew', A, { clock: () => Date.now() + ahead });
      const b = await opened(db, 'skew', B);
      await b.push(batch(B, 0, 2));
      const [da, db2] = await a.devices();
      expect(da?.id).toBe(A);
      // The round trip to the server on a busy machine blurs it, by far less than a minute.
      expect(Math.abs((da?.clock_skew_ms ?? 0) - ahead)).toBeLessThan(60_000);
      expect(Math.abs(db2?.clock_skew_ms ?? Infinity)).toBeLessThan(60_000);
      expect(Math.abs((da?.last_seen ?? 0) - Date.now())).toBeLessThan(60_000);
      expect(da?.last_push).toBeNull();
      expect(db2?.ops).toBe(2);
      expect(db2?.name).toBe(`host of ${B}`);

      await b.leave();
      expect((await a.devices()).map((d) => d.id)).toEqual([A]);
      expect((await pullAll(a)).length).toBe(2);
    });

    it('skips rows it cannot use, saying which, and moves past them', async () => {
      const store = 'damaged';
      const a = await opened(db, store, A);
      const b = await opened(db, store, B);
      await a.push([op(A, 1, 'one')]);
      const bad = await sql<{ seq: string }>(
        db,
        `INSERT INTO loci.ops (store, h, d, e, r, b) VALUES
           ($1, $2, $3, 'm:two', '{two}', '"a string"'),
           ($1, 'not a clock', $3, 'm:three', '{three}', '{}')
         RETURNING seq::text AS seq`,
        [store, op(A, 2, 'two').h, A],
      );
      await a.push([op(A, 4, 'four')]);
      const page = await b.pull(null, 10);
      expect(page.ops.map((o) => o.e)).toEqual(['m:one', 'm:four']);
      expect(page.problems.map((p) => p.where)).toEqual(bad.map((r) => `hub row ${r.seq}`));
      expect(page.problems[0]?.message).toContain('not a JSON object');
      expect(page.problems[1]?.fix).toContain(`DELETE FROM loci.ops WHERE seq = ${bad[1]?.seq}`);
      expect((await b.pull(page.cursor, 10)).problems).toEqual([]);
    });

    it('refuses operations it could not store or hand back, before touching the hub', async () => {
      const a = await opened(db, 'checks', A);
      const bad: WireOp[] = [
        { ...op(A, 1, 'one'), h: 'nope' },
        { ...op(A, 1, 'one'), d: B },
        { ...op(A, 1, 'one'), b: [1, 2] },
        { ...op(A, 1, 'one'), b: { text: 'nul \u0000 here' } },
        { ...op(A, 1, 'one'), e: 'l:a|b|related', x: true },
      ];
      for (const o of bad) {
        const err = await failure(a.push([op(A, 0, 'fine'), o]));
        expect(err.code).toBe('invalid-args');
        expect(err.data?.index).toBe(1);
      }
      expect(await count(db, 'checks')).toBe(0);
      await expect(a.pull('12ab', 10)).rejects.toMatchObject({ code: 'invalid-args' });
      await expect(a.pull(null, 0)).rejects.toMatchObject({ code: 'invalid-args' });
      // Not opened yet, or closed: a clear refusal, not a crash.
      const idle = make(db, 'checks', B);
      await expect(idle.push([op(B, 1, 'one')])).rejects.toMatchObject({ code: 'unavailable' });
      await Promise.all([idle.open(), idle.open()]);
      await idle.close();
      await expect(idle.pull(null, 10)).rejects.toMatchObject({ code: 'unavailable' });
    });
  },
);
