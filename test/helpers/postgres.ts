// A real PostgreSQL cluster for the team hub's tests (src/main/engine/sync/hub.test.ts).
// CI starts one throw-away cluster for the whole run (scripts/ci-postgres.sh, which sets
// LOCI_TEST_PG_URL and LOCI_TEST_PG_DATA); elsewhere each test file gets its own: initdb
// in a temporary folder, started on 127.0.0.1 and a free port with password (SCRAM)
// authentication over TCP, and deleted when the file is done. PostgreSQL refuses to run
// as root, so under root its programs run as the `postgres` system user (or `nobody`).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';

export interface TestPostgres {
  /** A superuser URL for the database `postgres`. */
  url: string;
  /** Creates an empty database (a fresh name unless one is given); resolves to its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Creates a login role with that password (or resets the password of an existing one). */
  createRole(name: string, password: string): Promise<void>;
  /** Restarts the server (fast shutdown: every session is cut), waiting until it accepts again. */
  restart(): Promise<void>;
  /** Stops and deletes a cluster of our own; on CI's cluster, drops what this harness made. */
  stop(): Promise<void>;
}

/** Startup and shutdown on a busy 2-core machine can take a while; pg_ctl waits this long. */
const PG_CTL_WAIT_S = 120;

interface Binaries {
  initdb: string;
  pgCtl: string;
}

/** The newest server binaries: Debian's /usr/lib/postgresql/<major>/bin, else PATH. */
function findBinaries(major?: string): Binaries | null {
  const dirs: string[] = [];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    // A data directory only runs with the binaries of its own major version.
    if (major && majors.includes(major)) dirs.push(join(root, major, 'bin'));
    else dirs.push(...majors.map((v) => join(root, v, 'bin')));
  }
  dirs.push(...(process.env.PATH ?? '').split(delimiter).filter(Boolean));
  for (const dir of dirs) {
    const initdb = join(dir, 'initdb');
    const pgCtl = join(dir, 'pg_ctl');
    if (existsSync(initdb) && existsSync(pgCtl)) return { initdb, pgCtl };
  }
  return null;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** Who runs the server's programs: ourselves, or an unprivileged user when we are root. */
function serverUser(): RunAs | null | 'self' {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return 'self';
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      if (Number.isInteger(uid) && uid > 0 && Number.isInteger(gid)) return { uid, gid };
    } catch {
      // No such user; try the next one.
    }
  }
  return null;
}

export function postgresAvailable(): { ok: true } | { ok: false; reason: string } {
  if (process.env.LOCI_TEST_PG_URL) return { ok: true };
  if (process.platform === 'win32') {
    return { ok: false, reason: 'set LOCI_TEST_PG_URL to a PostgreSQL superuser URL on Windows' };
  }
  if (!findBinaries()) {
    return {
      ok: false,
      reason:
        'no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or PATH; install postgresql or set LOCI_TEST_PG_URL',
    };
  }
  if (serverUser() === null) {
    return { ok: false, reason: 'running as root with neither a postgres nor a nobody user' };
  }
  return { ok: true };
}

function run(
  command: string,
  args: string[],
  options: { as: RunAs | 'self'; cwd: string; timeoutMs: number },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      // libuv drops root's supplementary groups along with the uid.
      ...(options.as === 'self' ? {} : { uid: options.as.uid, gid: options.as.gid }),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} ended with ${signal ?? `code ${code}`}:\n${output.slice(-4000)}`,
          ),
        );
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

async function asSuperuser<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 30_000 });
  // A server restarted by another test may cut this session: an error event, not a crash.
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** The server's own data directory under `dir`, or CI's from LOCI_TEST_PG_DATA. */
async function ownCluster(): Promise<{ url: string; dataDir: string; dispose(): Promise<void> }> {
  const bins = findBinaries();
  const as = serverUser();
  if (!bins || as === null) throw new Error('PostgreSQL is not available here');
  const dir = mkdtempSync(join(tmpdir(), 'loci-pg-'));
  const dataDir = join(dir, 'data');
  const password = randomBytes(18).toString('hex');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (as !== 'self') {
    chownSync(dir, as.uid, as.gid);
    chownSync(pwfile, as.uid, as.gid);
  }
  const ctl = (args: string[]) =>
    run(bins.pgCtl, args, { as, cwd: dir, timeoutMs: (PG_CTL_WAIT_S + 30) * 1000 });
  try {
    await run(
      bins.initdb,
      [
        '-D',
        dataDir,
        '-U',
        'postgres',
        `--pwfile=${pwfile}`,
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        '-E',
        'UTF8',
        '--locale=C',
        // A throw-away cluster: no fsync of what initdb writes.
        '--no-sync',
      ],
      { as, cwd: dir, timeoutMs: 180_000 },
    );
    rmSync(pwfile, { force: true });
    // Another process may take the free port between our probe and the server's bind: try
    // a few.
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      try {
        await ctl([
          'start',
          '-D',
          dataDir,
          '-l',
          join(dir, 'server.log'),
          '-w',
          '-t',
          String(PG_CTL_WAIT_S),
          '-o',
          `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`,
        ]);
        return {
          url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
          dataDir,
          dispose: async () => {
            await ctl(['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '60']).catch(() => {});
            rmSync(dir, { recursive: true, force: true });
          },
        };
      } catch (err) {
        lastError = err;
        const log = join(dir, 'server.log');
        if (!existsSync(log) || !/could not bind|Address already in use/i.test(readLog(log))) {
          break;
        }
      }
    }
    throw lastError;
  } catch (err) {
    await ctl(['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '30']).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Restarts the cluster in `dataDir` with pg_ctl, as the user that owns that directory. */
async function restartCluster(dataDir: string): Promise<void> {
  const version = readLog(join(dataDir, 'PG_VERSION')).trim();
  const bins = findBinaries(version || undefined);
  if (!bins) throw new Error('no pg_ctl to restart PostgreSQL with');
  const owner = statSync(dataDir);
  const as: RunAs | 'self' =
    process.getuid?.() === 0 && owner.uid !== 0 ? { uid: owner.uid, gid: owner.gid } : 'self';
  const logFile = join(dataDir, '..', 'server.log');
  await run(
    bins.pgCtl,
    [
      'restart',
      '-D',
      dataDir,
      '-m',
      'fast',
      '-w',
      '-t',
      String(PG_CTL_WAIT_S),
      // Without a log file pg_ctl would hold our pipes open for the server's whole life.
      '-l',
      existsSync(join(dataDir, '..')) ? logFile : '/dev/null',
    ],
    { as, cwd: dataDir, timeoutMs: (PG_CTL_WAIT_S + 30) * 1000 },
  );
}

export async function startPostgres(): Promise<TestPostgres> {
  const external = process.env.LOCI_TEST_PG_URL;
  const cluster = external
    ? { url: external, dataDir: process.env.LOCI_TEST_PG_DATA ?? '', dispose: async () => {} }
    : await ownCluster();
  const databases: string[] = [];
  const roles: string[] = [];

  return {
    url: cluster.url,
    async createDatabase(name = uniqueName('loci_test')) {
      await asSuperuser(cluster.url, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
      databases.push(name);
      return withDatabase(cluster.url, name);
    },
    async createRole(name, password) {
      await asSuperuser(cluster.url, async (c) => {
        const found = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [name]);
        const verb = found.rowCount ? 'ALTER' : 'CREATE';
        await c.query(`${verb} ROLE ${quoteIdent(name)} LOGIN PASSWORD ${quoteLiteral(password)}`);
      });
      if (!roles.includes(name)) roles.push(name);
    },
    async restart() {
      if (!cluster.dataDir) {
        throw new Error('restart() on an external cluster needs LOCI_TEST_PG_DATA');
      }
      await restartCluster(cluster.dataDir);
    },
    async stop() {
      if (external) {
        // CI's cluster outlives this file: drop what we made so the next file starts clean.
        await asSuperuser(cluster.url, async (c) => {
          for (const db of databases) {
            await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(db)} WITH (FORCE)`);
          }
          for (const role of roles) {
            await c.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`).catch(() => {});
          }
        });
      }
      await cluster.dispose();
    },
  };
}
