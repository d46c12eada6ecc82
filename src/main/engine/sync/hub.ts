// The team hub: a PostgreSQL database that devices of a store (and the people of a team)
// push their replication operations to and pull the others' from. The hub keeps its own
// schema `loci` in that database, created and migrated by the first admin that connects;
// row-level security keeps each member role to the stores it was added to, so one hub
// can serve several teams. What the operations mean is the replica's business: here they
// are rows, handed out in commit order, with erased memories' content purged.
//
// The URL is libpq's (postgres://role:password@host:port/database?…), read by
// pg-connection-string. Of its TLS parameters these are honoured:
// - sslmode=disable: no TLS. sslmode=require, verify-ca and verify-full (and prefer):
//   TLS with the server's certificate verified against the CA and its host name (pg 8
//   treats the weaker modes as verify-full); add uselibpqcompat=true for libpq's own
//   meaning of each mode (require: encrypted, not verified). sslmode=no-verify: TLS,
//   certificate not checked.
// - sslrootcert=<file>: the CA that signed the server's certificate (PEM).
// - sslcert=<file> and sslkey=<file>: a client certificate and its key (PEM, unencrypted:
//   sslpassword is not supported).
// - ssl=true: TLS verified against the system's CAs.
// Files are read when a connection is made; libpq's defaults in ~/.postgresql are not.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { PoolClient, PoolConfig } from 'pg';
import { LociError } from '../../../shared/errors';
import { isDeviceId, isHlc } from './hlc';
import type {
  DeviceSelf,
  PullResult,
  SyncDevice,
  SyncProblem,
  SyncTransport,
  WireOp,
} from './wire';

export interface PostgresHubOptions {
  /** libpq-style URL; its password (if any) is never shown (see `target`). */
  url: string;
  /** The store's name on the hub (one hub holds many stores). */
  store: string;
  self: DeviceSelf;
  /** The password, when it is kept apart from the URL (a keychain); wins over the URL's. */
  password?: string;
  /** Connections kept open (default 4). */
  poolMax?: number;
  /** How long to wait for a connection (ms, default 10 s). */
  connectTimeoutMs?: number;
  /** How long one statement may run on the server (ms, default 30 s). */
  statementTimeoutMs?: number;
  /** This device's clock (epoch ms), compared with the database's to record the skew. */
  clock?: () => number;
}

/** The hub schema this code creates and reads. */
export const HUB_SCHEMA_VERSION = 1;

/** The group role whose members may use the hub (each still needs a row in loci.members). */
export const MEMBER_GROUP = 'loci_member';

/** Rows per INSERT: 500 × 6 parameters stays far below PostgreSQL's 65,535. */
const CHUNK = 500;
const MAX_PULL = 10_000;

interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** The stores a role may touch: those it was added to. */
const MEMBER_STORES = 'SELECT m.store FROM loci.members m WHERE m.role = current_user';

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'stores, members, devices, operations; row-level security; purge',
    sql: `
CREATE TABLE loci.stores (
  name text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by name NOT NULL DEFAULT current_user
);
CREATE TABLE loci.members (
  store text NOT NULL REFERENCES loci.stores (name) ON DELETE CASCADE,
  role name NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  added_by name NOT NULL DEFAULT current_user,
  PRIMARY KEY (store, role)
);
CREATE TABLE loci.devices (
  store text NOT NULL REFERENCES loci.stores (name) ON DELETE CASCADE,
  id text NOT NULL,
  name text NOT NULL,
  version text,
  first_seen timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz,
  last_push timestamptz,
  ops bigint NOT NULL DEFAULT 0,
  clock_skew_ms bigint,
  PRIMARY KEY (store, id)
);
CREATE TABLE loci.ops (
  seq bigserial PRIMARY KEY,
  store text NOT NULL REFERENCES loci.stores (name) ON DELETE CASCADE,
  h text NOT NULL,
  d text NOT NULL,
  e text NOT NULL,
  r text[] NOT NULL DEFAULT '{}',
  x boolean NOT NULL DEFAULT false,
  b jsonb,
  pushed_at timestamptz NOT NULL DEFAULT now(),
  pushed_by name NOT NULL DEFAULT current_user,
  UNIQUE (store, h),
  -- A tombstone purges what mentions its memory (loci.purge): only a real one may, so a
  -- member cannot delete others' operations with a row that merely says x.
  CHECK (NOT x OR (jsonb_typeof(b) = 'object' AND b->>'k' = 'gone' AND e = 'm:' || (b->>'id')))
);
-- Pull: a store's rows after a cursor, in order.
CREATE INDEX ops_pull ON loci.ops (store, seq);
-- Purge: the rows that mention an erased memory, and a store's tombstones by memory.
CREATE INDEX ops_refs ON loci.ops USING gin (r);
CREATE INDEX ops_tombstones ON loci.ops (store, e) WHERE x;

-- Each role sees and writes only the stores it is a member of. The owner of these tables
-- (the admin that created them) is not subject to these policies, nor is a superuser.
ALTER TABLE loci.stores ENABLE ROW LEVEL SECURITY;
CREATE POLICY member_read ON loci.stores FOR SELECT USING (name IN (${MEMBER_STORES}));
ALTER TABLE loci.members ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_rows ON loci.members FOR SELECT USING (role = current_user);
ALTER TABLE loci.devices ENABLE ROW LEVEL SECURITY;
CREATE POLICY member_all ON loci.devices FOR ALL
  USING (store IN (${MEMBER_STORES})) WITH CHECK (store IN (${MEMBER_STORES}));
ALTER TABLE loci.ops ENABLE ROW LEVEL SECURITY;
CREATE POLICY member_read ON loci.ops FOR SELECT USING (store IN (${MEMBER_STORES}));
CREATE POLICY member_insert ON loci.ops FOR INSERT
  WITH CHECK (store IN (${MEMBER_STORES}) AND pushed_by = current_user);

-- Members may delete operations only through this function, and it deletes only what a
-- tombstone stored in the same store makes obsolete: the non-tombstone rows older than
-- the tombstone of a memory they mention. A DELETE policy could not say that (a policy on loci.ops that
-- reads loci.ops recurses), and a plain one would let any member delete anyone's
-- operations. SECURITY DEFINER runs it as the tables' owner, so current_user inside is
-- the owner: membership is checked for session_user, the role that logged in (the hub
-- never uses SET ROLE). search_path is pinned so no one can slip objects in before ours.
CREATE FUNCTION loci.purge(p_store text, p_memories text[]) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  erased text[];
  n bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM loci.members WHERE store = p_store AND role = session_user) THEN
    RAISE EXCEPTION 'role % is not a member of store %', session_user, p_store
      USING ERRCODE = '42501';
  END IF;
  SELECT coalesce(array_agg(DISTINCT substr(t.e, 3)), '{}') INTO erased
    FROM loci.ops t
   WHERE t.store = p_store AND t.x
     AND t.e = ANY (ARRAY(SELECT 'm:' || u FROM unnest(p_memories) AS u));
  IF cardinality(erased) = 0 THEN
    RETURN 0;
  END IF;
  -- Only what is older than a tombstone of a memory it mentions: a memory withdrawn (made
  -- private) and later shared again comes back with newer operations, which stay.
  DELETE FROM loci.ops o
   WHERE o.store = p_store AND NOT o.x AND o.r && erased
     AND EXISTS (SELECT 1 FROM loci.ops t
                  WHERE t.store = p_store AND t.x AND t.h > o.h
                    AND t.e = ANY (ARRAY(SELECT 'm:' || u FROM unnest(o.r) AS u)));
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END
$fn$;
REVOKE ALL ON FUNCTION loci.purge(text, text[]) FROM PUBLIC;
`,
  },
];

/**
 * What the member group may do: read the stores and memberships its policies show, keep
 * its devices' rows (leave deletes one), read and add operations. No UPDATE or DELETE of
 * operations: erasing goes through loci.purge. Idempotent, so it runs after every
 * migration and whenever an admin finds the group without it.
 */
const MEMBER_GRANTS = `
GRANT USAGE ON SCHEMA loci TO ${MEMBER_GROUP};
GRANT SELECT ON loci.schema_version, loci.stores, loci.members TO ${MEMBER_GROUP};
GRANT SELECT, INSERT, UPDATE, DELETE ON loci.devices TO ${MEMBER_GROUP};
GRANT SELECT, INSERT ON loci.ops TO ${MEMBER_GROUP};
GRANT USAGE ON SEQUENCE loci.ops_seq_seq TO ${MEMBER_GROUP};
GRANT EXECUTE ON FUNCTION loci.purge(text, text[]) TO ${MEMBER_GROUP};
`;

/** The SQL an admin runs in the hub's database to let `role` use `store`. */
export function addMemberSql(store: string, role: string): string {
  const s = pg.escapeLiteral(store);
  return [
    `GRANT ${MEMBER_GROUP} TO ${pg.escapeIdentifier(role)};`,
    `INSERT INTO loci.stores (name) VALUES (${s}) ON CONFLICT DO NOTHING;`,
    `INSERT INTO loci.members (store, role) VALUES (${s}, ${pg.escapeLiteral(role)}) ON CONFLICT DO NOTHING;`,
  ].join(' ');
}

/** Node's and pg's ways of saying the server could not be reached or went away. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EPIPE',
  'ECONNABORTED',
]);
const TLS_REFUSED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  path?: unknown;
  errors?: unknown;
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as ErrorLike;
  if (typeof e.code === 'string') return e.code;
  // Node's happy-eyeballs connect gives an AggregateError of one error per address.
  if (Array.isArray(e.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  return undefined;
}

function errorMessage(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const m = (err as ErrorLike).message;
    if (typeof m === 'string') return m;
  }
  return String(err);
}

type Phase = 'connect' | 'open' | 'push' | 'pull' | 'devices' | 'leave';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Why an operation cannot be stored or used, or null when it is well formed. */
function opDefect(h: unknown, d: unknown, e: unknown, r: unknown, x: unknown): string | null {
  if (typeof d !== 'string' || !isDeviceId(d)) return 'its device id is malformed';
  if (typeof h !== 'string' || !isHlc(h) || !h.endsWith(`-${d}`)) {
    return 'its clock is malformed or names another device';
  }
  if (typeof e !== 'string' || e.length === 0 || e.length > 2000) return 'its entity is malformed';
  if (!Array.isArray(r) || r.some((id) => typeof id !== 'string' || id.length === 0)) {
    return 'its memory references are malformed';
  }
  if (x !== undefined && x !== true && x !== false) return 'its erase flag is malformed';
  if (x === true && !e.startsWith('m:')) return 'it erases something that is not a memory';
  return null;
}

const hasNul = (s: string) => s.includes('\u0000');

interface OpRow {
  seq: string;
  h: unknown;
  d: unknown;
  e: unknown;
  r: unknown;
  x: unknown;
  b: unknown;
}

export class PostgresHub implements SyncTransport {
  readonly kind = 'hub' as const;
  readonly target: string;
  /** Things an admin should know that did not stop the hub from opening. */
  readonly notes: string[] = [];

  private readonly connectionString: string;
  private readonly where: string;
  private readonly role: string;
  private readonly database: string;
  private readonly clock: () => number;
  private pool: pg.Pool | null = null;
  /** The open in progress or done, so that two callers share one. */
  private opening: Promise<void> | null = null;
  private ready = false;

  constructor(private readonly options: PostgresHubOptions) {
    let u: URL;
    try {
      u = new URL(options.url);
    } catch {
      throw new LociError('invalid-args', 'the hub URL is not a URL (postgres://role@host/db)');
    }
    if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
      throw new LociError(
        'invalid-args',
        `the hub URL must start with postgres:// or postgresql://, not ${u.protocol}//`,
      );
    }
    if (typeof options.store !== 'string' || options.store.length === 0) {
      throw new LociError('invalid-args', 'the hub needs a store name');
    }
    if (!isDeviceId(options.self.id)) {
      throw new LociError('invalid-args', `not a device id: ${options.self.id}`);
    }
    const host = u.searchParams.get('host') ?? (u.hostname.replace(/^\[|\]$/g, '') || 'localhost');
    const port = u.searchParams.get('port') ?? (u.port || '5432');
    this.where = host.startsWith('/') ? `${host} (port ${port})` : `${host}:${port}`;
    this.role =
      u.searchParams.get('user') ??
      (decodeURIComponent(u.username) || process.env.PGUSER || process.env.USER || 'postgres');
    this.database = decodeURIComponent(u.pathname.slice(1)) || this.role;
    if (options.password !== undefined) {
      u.searchParams.delete('password');
      // pg-connection-string decodes the password it reads; encode it so `%` survives.
      u.password = encodeURIComponent(options.password);
    }
    this.connectionString = u.toString();
    const shown = new URL(u.toString());
    shown.password = '';
    shown.searchParams.delete('password');
    this.target = shown.toString();
    this.clock = options.clock ?? Date.now;
  }

  open(): Promise<void> {
    this.opening ??= this.connectAndRegister().catch((err: unknown) => {
      this.opening = null;
      throw err;
    });
    return this.opening;
  }

  private async connectAndRegister(): Promise<void> {
    const config: PoolConfig = {
      connectionString: this.connectionString,
      max: this.options.poolMax ?? 4,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 10_000,
      statement_timeout: this.options.statementTimeoutMs ?? 30_000,
      // A device cut off mid-push must not hold its store's lock for long.
      idle_in_transaction_session_timeout: 60_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      application_name: 'loci',
      allowExitOnIdle: true,
    };
    const pool = new pg.Pool(config);
    // An idle connection the server drops (a restart, a network cut) reports here; the
    // pool discards it and the next call reconnects. Without a listener the error would
    // end the process.
    pool.on('error', () => {});
    this.pool = pool;
    try {
      await this.withClient('open', async (c) => {
        await this.migrate(c);
        const admin = await this.isAdmin(c);
        if (admin) await this.adminSetup(c);
        else await this.requireMembership(c);
        await this.touchDevice(c, null);
      });
      this.ready = true;
    } catch (err) {
      this.pool = null;
      await pool.end().catch(() => {});
      throw err;
    }
  }

  async push(ops: WireOp[]): Promise<void> {
    ops.forEach((op, i) => this.checkOutgoing(op, i));
    if (ops.length === 0) return;
    // The memories a tombstone erases, and every memory the batch mentions: an operation
    // that arrives after its memory's tombstone (from a device that had not heard of the
    // erase) is purged too, so erased content never stays on the hub.
    const mentioned = new Set<string>();
    for (const op of ops) {
      for (const id of op.r) mentioned.add(id);
      if (op.x) mentioned.add(op.e.slice(2));
    }
    await this.withClient('push', async (c) => {
      await c.query('BEGIN');
      try {
        // Pushes to one store take turns, so sequence numbers are handed out in commit
        // order. Without this, a push could take seq 10, another seq 11 and commit first;
        // a device pulling then would move its cursor to 11 and never see 10 when it
        // commits. The lock is released only after the commit is visible.
        await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `loci.ops:${this.options.store}`,
        ]);
        let stored = 0;
        for (let start = 0; start < ops.length; start += CHUNK) {
          const chunk = ops.slice(start, start + CHUNK);
          const params: unknown[] = [this.options.store];
          const rows = chunk.map((op) => {
            const n = params.length;
            params.push(op.h, op.d, op.e, op.r, op.x === true, JSON.stringify(op.b));
            return `($1, $${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}::text[], $${n + 5}, $${n + 6}::jsonb)`;
          });
          const res = await c.query(
            `INSERT INTO loci.ops (store, h, d, e, r, x, b) VALUES ${rows.join(', ')}
             ON CONFLICT (store, h) DO NOTHING`,
            params,
          );
          stored += res.rowCount ?? 0;
        }
        await c.query('SELECT loci.purge($1, $2::text[])', [this.options.store, [...mentioned]]);
        await this.touchDevice(c, stored);
        // Delivered at commit to every daemon listening on this store: they pull at once
        // instead of at their next poll.
        if (stored > 0)
          await c.query('SELECT pg_notify($1, $2)', [this.channel(), this.options.self.id]);
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK').catch(() => {});
        throw err;
      }
    });
  }

  async pull(cursor: string | null, limit: number): Promise<PullResult> {
    if (cursor !== null && !/^\d{1,19}$/.test(cursor)) {
      throw new LociError('invalid-args', `not a hub cursor: ${String(cursor).slice(0, 40)}`);
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PULL) {
      throw new LociError('invalid-args', `pull limit must be an integer from 1 to ${MAX_PULL}`);
    }
    return this.withClient('pull', async (c) => {
      // One statement, so one snapshot: the page of other devices' rows and the highest
      // seq after the cursor (own rows included) are read at the same instant. When the
      // page is not full, the cursor moves to that highest seq and passes this device's
      // own rows; taken from a second snapshot it could pass a row committed in between.
      const res = await c.query<OpRow & { top: string | null }>(
        `SELECT t.top::text AS top, o.seq::text AS seq, o.h, o.d, o.e, o.r, o.x, o.b
           FROM (SELECT max(seq) AS top FROM loci.ops WHERE store = $1 AND seq > $2) t
           LEFT JOIN LATERAL (
             SELECT seq, h, d, e, r, x, b FROM loci.ops
              WHERE store = $1 AND seq > $2 AND d <> $3
              ORDER BY seq LIMIT $4) o ON true
          ORDER BY o.seq`,
        [this.options.store, cursor ?? '0', this.options.self.id, limit + 1],
      );
      await this.touchDevice(c, null);
      const top = res.rows[0]?.top ?? null;
      let page = res.rows.filter((row) => row.seq !== null);
      const more = page.length > limit;
      if (more) page = page.slice(0, limit);
      const last = page[page.length - 1];
      const next = more && last ? last.seq : (top ?? cursor);
      const ops: WireOp[] = [];
      const problems: SyncProblem[] = [];
      for (const row of page) {
        const defect = isPlainObject(row.b)
          ? opDefect(row.h, row.d, row.e, row.r, row.x)
          : 'its body is not a JSON object';
        if (defect) {
          problems.push({
            where: `hub row ${row.seq}`,
            message: `An operation on the hub was skipped: ${defect}. Something other than Loci (or a newer Loci) wrote it.`,
            fix: `An admin can look at it with SELECT * FROM loci.ops WHERE seq = ${row.seq}; and remove it with DELETE FROM loci.ops WHERE seq = ${row.seq};`,
          });
          continue;
        }
        const op: WireOp = {
          h: row.h as string,
          d: row.d as string,
          e: row.e as string,
          r: row.r as string[],
          b: row.b,
        };
        if (row.x === true) op.x = true;
        ops.push(op);
      }
      return { ops, cursor: next, more, problems };
    });
  }

  async devices(): Promise<SyncDevice[]> {
    return this.withClient('devices', async (c) => {
      const res = await c.query<SyncDevice>(
        `SELECT id, name, version,
                round(extract(epoch FROM last_seen) * 1000)::float8 AS last_seen,
                round(extract(epoch FROM last_push) * 1000)::float8 AS last_push,
                ops::float8 AS ops, clock_skew_ms::float8 AS clock_skew_ms
           FROM loci.devices WHERE store = $1 ORDER BY first_seen, id`,
        [this.options.store],
      );
      return res.rows;
    });
  }

  async leave(): Promise<void> {
    // Only this device's row: its operations stay for the others, and the role stays a
    // member (an admin removes memberships). A later push or pull registers it again.
    await this.withClient('leave', (c) =>
      c.query('DELETE FROM loci.devices WHERE store = $1 AND id = $2', [
        this.options.store,
        this.options.self.id,
      ]),
    );
  }

  /** The notification channel of this store (its name hashed: channels are visible to all roles). */
  private channel(): string {
    return `loci_${createHash('md5').update(this.options.store).digest('hex')}`;
  }

  /**
   * Calls `onChange` when another device pushes to this store, over a connection of its
   * own that LISTENs; returns the stop. Polling stays the fallback: a listener that fails
   * or is cut just ends, and the caller's next cycle opens it again.
   */
  async watch(onChange: () => void, onEnd: () => void): Promise<() => Promise<void>> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 10_000,
      keepAlive: true,
      application_name: 'loci-listen',
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      onEnd();
    };
    client.on('error', end);
    client.on('end', end);
    client.on('notification', (n) => {
      if (n.payload !== this.options.self.id) onChange();
    });
    await client.connect();
    await client.query(`LISTEN ${client.escapeIdentifier(this.channel())}`);
    return async () => {
      ended = true;
      await client.end().catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    this.opening = null;
    this.ready = false;
    if (pool) await pool.end();
  }

  /** Refuses, before the hub sees it, an operation the hub could not store or hand back. */
  private checkOutgoing(op: WireOp, index: number): void {
    const bad = (why: string) =>
      new LociError(
        'invalid-args',
        `operation ${index} of the batch cannot go to the hub: ${why}`,
        {
          index,
          h: typeof op.h === 'string' ? op.h.slice(0, 80) : null,
        },
      );
    const defect = opDefect(op.h, op.d, op.e, op.r, op.x);
    if (defect) throw bad(defect);
    if (!isPlainObject(op.b)) throw bad('its body is not a JSON object');
    // PostgreSQL's text and jsonb cannot hold the NUL character.
    if (hasNul(op.e) || op.r.some(hasNul) || JSON.stringify(op.b).includes('\\u0000')) {
      throw bad('it contains a NUL character, which PostgreSQL cannot store');
    }
  }

  /** Runs `fn` on a pooled connection, turning what goes wrong into a LociError. */
  private async withClient<T>(phase: Phase, fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const pool = this.pool;
    if (!pool || (!this.ready && phase !== 'open')) {
      throw new LociError('unavailable', 'the hub is not open (open() it first)');
    }
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw this.explain(err, 'connect');
    }
    // A checked-out connection has no listener of the pool's: the server cutting it
    // between two of our queries would otherwise be an uncaught error event.
    const onError = () => {};
    client.on('error', onError);
    let failed = false;
    try {
      return await fn(client);
    } catch (err) {
      failed = true;
      throw this.explain(err, phase);
    } finally {
      client.removeListener('error', onError);
      // A connection that failed (cut, or its transaction in doubt) is closed, not reused.
      client.release(failed);
    }
  }

  /** Creates or migrates the schema: numbered steps, one writer at a time. */
  private async migrate(c: PoolClient): Promise<void> {
    const ns = await c.query<{ usable: boolean }>(
      `SELECT has_schema_privilege(n.oid, 'USAGE') AS usable FROM pg_namespace n
        WHERE n.nspname = 'loci'`,
    );
    const schema = ns.rows[0];
    if (schema && !schema.usable) throw this.notMember(false);
    if (schema) {
      const found = await this.schemaVersion(c);
      if (found === HUB_SCHEMA_VERSION) return;
      if (found !== null && found > HUB_SCHEMA_VERSION) throw this.tooNew(found);
    }
    await c.query('BEGIN');
    try {
      // Two daemons opening a new hub at once: the second waits here, then finds the
      // schema made and does nothing. The lock ends with the transaction.
      await c.query("SELECT pg_advisory_xact_lock(hashtext('loci.schema'))");
      await c.query('CREATE SCHEMA IF NOT EXISTS loci');
      await c.query(
        `CREATE TABLE IF NOT EXISTS loci.schema_version (
           version integer PRIMARY KEY,
           description text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now(),
           applied_by name NOT NULL DEFAULT current_user)`,
      );
      const found = (await this.schemaVersion(c)) ?? 0;
      if (found > HUB_SCHEMA_VERSION) throw this.tooNew(found);
      for (const m of MIGRATIONS) {
        if (m.version <= found) continue;
        await c.query(m.sql);
        await c.query('INSERT INTO loci.schema_version (version, description) VALUES ($1, $2)', [
          m.version,
          m.description,
        ]);
      }
      if (found < HUB_SCHEMA_VERSION) await this.grantMembers(c);
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      if (err instanceof LociError) throw err;
      const code = errorCode(err);
      if (code === '42501') {
        throw new LociError(
          'forbidden',
          `Role ${this.role} may not create or migrate the hub's schema loci in database ${this.database} at ${this.where} (this Loci needs version ${HUB_SCHEMA_VERSION}). Open the hub once as its admin (the role that owns schema loci, or one with CREATE on the database), then add ${this.role} as a member: ${addMemberSql(this.options.store, this.role)}`,
          { role: this.role, sql: addMemberSql(this.options.store, this.role) },
        );
      }
      if (code === '42P07' || code === '42710') {
        throw new LociError(
          'environment',
          `Database ${this.database} at ${this.where} has a schema loci with objects Loci did not make; use another database for the hub.`,
        );
      }
      throw err;
    }
  }

  private async schemaVersion(c: PoolClient): Promise<number | null> {
    const t = await c.query<{ present: boolean }>(
      "SELECT to_regclass('loci.schema_version') IS NOT NULL AS present",
    );
    if (!t.rows[0]?.present) return null;
    const v = await c.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM loci.schema_version',
    );
    return v.rows[0]?.v ?? null;
  }

  private tooNew(found: number): LociError {
    return new LociError(
      'environment',
      `The hub at ${this.where} (database ${this.database}) has schema version ${found}, newer than this Loci knows (${HUB_SCHEMA_VERSION}): update Loci on this device before syncing with it.`,
      { found, known: HUB_SCHEMA_VERSION },
    );
  }

  /** Whether this role is exempt from the policies: the tables' owner, or a superuser. */
  private async isAdmin(c: PoolClient): Promise<boolean> {
    const res = await c.query<{ admin: boolean }>(
      `SELECT r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, k.relowner, 'USAGE') AS admin
         FROM pg_roles r, pg_class k
        WHERE r.rolname = current_user AND k.oid = 'loci.stores'::regclass`,
    );
    return res.rows[0]?.admin === true;
  }

  /** The admin creates the store when it is new and is a member of what it opens. */
  private async adminSetup(c: PoolClient): Promise<void> {
    await c.query('BEGIN');
    try {
      await c.query('INSERT INTO loci.stores (name) VALUES ($1) ON CONFLICT DO NOTHING', [
        this.options.store,
      ]);
      // Membership is what loci.purge checks, for the admin too.
      await c.query(
        'INSERT INTO loci.members (store, role) VALUES ($1, current_user) ON CONFLICT DO NOTHING',
        [this.options.store],
      );
      const ready = await c.query<{ ready: boolean }>(
        `SELECT CASE WHEN to_regrole('${MEMBER_GROUP}') IS NULL THEN false
                ELSE has_function_privilege('${MEMBER_GROUP}', 'loci.purge(text, text[])', 'EXECUTE')
                END AS ready`,
      );
      if (!ready.rows[0]?.ready) await this.grantMembers(c);
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }

  /**
   * Makes the member group (when this role may create roles) and grants it the hub. In a
   * savepoint, so a role without CREATEROLE still gets its hub, with a note saying what a
   * superuser must do.
   */
  private async grantMembers(c: PoolClient): Promise<void> {
    const exists = await c.query<{ e: boolean }>(
      `SELECT to_regrole('${MEMBER_GROUP}') IS NOT NULL AS e`,
    );
    if (!exists.rows[0]?.e) {
      await c.query('SAVEPOINT loci_member');
      try {
        await c.query(`CREATE ROLE ${MEMBER_GROUP} NOLOGIN`);
        await c.query('RELEASE SAVEPOINT loci_member');
      } catch (err) {
        await c.query('ROLLBACK TO SAVEPOINT loci_member');
        const code = errorCode(err);
        // 42710 or 23505: another database of this cluster made it at the same moment.
        if (code === '42501') {
          this.notes.push(
            `Role ${this.role} may not create roles, so the group role ${MEMBER_GROUP} does not exist and no one but ${this.role} can use this hub yet. A superuser should run CREATE ROLE ${MEMBER_GROUP} NOLOGIN; then open the hub once more as ${this.role} to grant it the hub.`,
          );
          return;
        }
        if (code !== '42710' && code !== '23505') throw err;
      }
    }
    await c.query(MEMBER_GRANTS);
  }

  private async requireMembership(c: PoolClient): Promise<void> {
    // Through the policies a role sees only its own memberships, so a store that does not
    // exist and one it is not a member of look the same from here.
    const res = await c.query<{ member: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM loci.members WHERE store = $1 AND role = current_user) AS member',
      [this.options.store],
    );
    if (!res.rows[0]?.member) throw this.notMember(true);
  }

  private notMember(schemaVisible: boolean): LociError {
    const sql = addMemberSql(this.options.store, this.role);
    return new LociError(
      'forbidden',
      `Role ${this.role} is not a member of store "${this.options.store}" on the hub at ${this.where}${schemaVisible ? ' (or the store does not exist there yet)' : ''}. An admin must run, in database ${this.database}: ${sql}`,
      { role: this.role, store: this.options.store, sql },
    );
  }

  /** Registers this device or refreshes it: last seen now, and its clock's skew. */
  private async touchDevice(c: PoolClient, pushed: number | null): Promise<void> {
    await c.query(
      `INSERT INTO loci.devices AS v (store, id, name, version, last_seen, last_push, ops, clock_skew_ms)
       VALUES ($1, $2, $3, $4, now(), CASE WHEN $5::bigint IS NULL THEN NULL ELSE now() END,
               coalesce($5::bigint, 0),
               round($6::float8 - extract(epoch FROM clock_timestamp()) * 1000)::bigint)
       ON CONFLICT (store, id) DO UPDATE SET
         name = excluded.name, version = excluded.version, last_seen = excluded.last_seen,
         last_push = coalesce(excluded.last_push, v.last_push),
         ops = v.ops + excluded.ops, clock_skew_ms = excluded.clock_skew_ms`,
      [
        this.options.store,
        this.options.self.id,
        this.options.self.name,
        this.options.self.version,
        pushed,
        this.clock(),
      ],
    );
  }

  /** A LociError that names what went wrong with the hub and what to do about it. */
  private explain(err: unknown, phase: Phase): LociError {
    if (err instanceof LociError) return err;
    const code = errorCode(err);
    const message = errorMessage(err);
    const data = { phase, target: this.target, ...(code ? { cause: code } : {}) };
    if (
      (code && UNREACHABLE.has(code)) ||
      /timeout exceeded when trying to connect|connection timeout/i.test(message)
    ) {
      if (phase === 'connect') {
        return new LociError(
          'unavailable',
          `Cannot reach the hub at ${this.where} (${code ?? 'timed out'}): is PostgreSQL running there, and does it accept connections from this machine?`,
          data,
        );
      }
    }
    if (code === '28P01' || code === '28000' || /password must be a string/i.test(message)) {
      return new LociError(
        'forbidden',
        `The hub at ${this.where} refused role ${this.role} (${code === '28000' ? 'no pg_hba.conf entry allows it' : 'authentication failed'}): check the credentials (the role and password in the hub URL, or the saved password).`,
        { ...data, role: this.role },
      );
    }
    if (code === '3D000') {
      return new LociError(
        'environment',
        `Database ${this.database} does not exist on the hub at ${this.where}: create it (CREATE DATABASE ${pg.escapeIdentifier(this.database)};) or fix the hub URL.`,
        data,
      );
    }
    if (code === '42501') {
      const sql = addMemberSql(this.options.store, this.role);
      return new LociError(
        'forbidden',
        `Role ${this.role} may not use store "${this.options.store}" on the hub at ${this.where}. An admin must add it, in database ${this.database}: ${sql}`,
        { ...data, role: this.role, store: this.options.store, sql },
      );
    }
    if (code && TLS_REFUSED.has(code)) {
      return new LociError(
        'environment',
        `The hub at ${this.where} presented a TLS certificate this device does not trust (${code}): name its CA with sslrootcert=/path/to/ca.pem in the hub URL, or check the host name.`,
        data,
      );
    }
    if (/does not support SSL/i.test(message)) {
      return new LociError(
        'environment',
        `The hub at ${this.where} does not accept TLS: enable ssl on the server, or remove sslmode from the hub URL.`,
        data,
      );
    }
    if ((code === 'ENOENT' || code === 'EACCES') && phase === 'connect') {
      const path = (err as ErrorLike).path;
      return new LociError(
        'environment',
        `Cannot read ${typeof path === 'string' ? path : 'a file'} named by the hub URL (sslrootcert, sslcert or sslkey).`,
        data,
      );
    }
    // Anything else (the server going away mid-statement, a statement timeout, a
    // deadlock, too many connections) leaves nothing half-done: pushes are one
    // transaction, so the caller retries and a replay is harmless.
    const what = code && /^[0-9A-Z]{5}$/.test(code) ? `${code}: ${message}` : message;
    return new LociError(
      'unavailable',
      `The hub at ${this.where} failed during ${phase} (${what.slice(0, 300)}); nothing was half-stored, try again.`,
      data,
    );
  }
}
