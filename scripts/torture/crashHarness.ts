// The crash-durability harness behind `npm run torture` and test/reliability/crash.test.ts:
// spawns the daemon (`loci serve --port 0`) on a temporary data directory, drives
// remember, update, link, ingest_file and audit.verify from several MCP clients at once,
// SIGKILLs the daemon at a random moment, then opens the data directory in this process
// and checks: integrity_check ok, every acknowledged write present (with its latest
// acknowledged text, or the text of the one update in flight at the kill), the audit
// chain verifies, the FTS index holds exactly the live memories and no vector is orphaned.
// It does not measure speed; a cycle that fails stops the run with the reason.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Engine } from '../../src/main/engine/engine';
import { findOwner } from '../../src/main/http/client';
import { isolatedFetch } from '../../src/main/http/isolatedFetch';
import { mulberry32 } from '../../src/shared/random';

export interface CrashOptions {
  kills: number;
  clients: number;
  /** The kill lands uniformly between these two delays after the clients start (ms). */
  minKillMs: number;
  maxKillMs: number;
  seed: number;
  log?: (line: string) => void;
}

export interface CrashReport {
  kills: number;
  acknowledged: { remember: number; update: number; link: number; ingest: number };
  /** Updates in flight at a kill that turned out committed (allowed: never acknowledged). */
  inflight_committed: number;
  memories: number;
  audit_entries: number;
  duration_ms: number;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The built CLI when there is one (as users run it), else the sources through tsx. */
function daemonCommand(): string[] {
  return existsSync(join(root, 'out/main/cli.js'))
    ? [join(root, 'bin/loci.js'), 'serve', '--port', '0']
    : ['--import', 'tsx', join(root, 'src/main/cli.ts'), 'serve', '--port', '0'];
}

async function startDaemon(home: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, daemonCommand(), {
    cwd: root,
    env: { ...process.env, LOCI_HOME: home, LOCI_MODEL_PATH: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`the daemon did not serve in 30 s: ${err}`)),
      30_000,
    );
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /MCP endpoint:\s+(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the daemon exited (${code}) before serving: ${err}`));
    });
  });
  return { child, url };
}

interface Expected {
  content: string;
  version: number;
  /** Text of an update sent but not acknowledged before the kill. */
  pending: string | null;
}

export async function runCrashTorture(options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const random = mulberry32(options.seed);
  const home = mkdtempSync(join(tmpdir(), 'loci-crash-'));
  const docs = join(home, 'docs');
  mkdirSync(docs);
  const memories = new Map<string, Expected>();
  const mine: string[][] = Array.from({ length: options.clients }, () => []);
  const links: [string, string][] = [];
  const documents: string[] = [];
  const acknowledged = { remember: 0, update: 0, link: 0, ingest: 0 };
  let inflightCommitted = 0;
  let nonce = 0;
  let last = { memories: 0, audit: 0 };

  try {
    for (let cycle = 0; cycle < options.kills; cycle++) {
      const { child, url } = await startDaemon(home);
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      const owner = findOwner(home);
      if (!owner) throw new Error('the daemon serves but left no lock file');
      const headers = { authorization: `Bearer ${owner.token}` };
      const api = async (method: string, args: unknown) => {
        const r = await fetch(`${owner.url}/api/${method}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(args),
        });
        return (await r.json()) as { result?: unknown; error?: { message: string } };
      };
      if (cycle === 0) {
        const r = await api('ingest.setFolders', { folders: [docs] });
        if (r.error) throw new Error(`ingest.setFolders: ${r.error.message}`);
      }
      let killed = false;
      const clients: Client[] = [];
      const agent = async (c: number) => {
        const client = new Client({ name: `crash-agent-${c}`, version: '1.0.0' });
        clients.push(client);
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers },
            fetch: isolatedFetch(),
          }),
        );
        const own = mine[c] as string[];
        while (!killed) {
          const roll = random();
          const n = ++nonce;
          if (own.length < 2 || roll < 0.4) {
            const content = `Crash agent ${c} note z${n}q: the ${['build', 'cache', 'queue'][n % 3]} step.`;
            const r = await client.callTool({ name: 'remember', arguments: { content } });
            if (r.isError) throw new Error(`remember: ${JSON.stringify(r.content)}`);
            const id = (r.structuredContent as { id: string }).id;
            memories.set(id, { content, version: 1, pending: null });
            own.push(id);
            acknowledged.remember++;
          } else if (roll < 0.7) {
            const id = own[Math.floor(random() * own.length)] as string;
            const e = memories.get(id) as Expected;
            const content = `Crash agent ${c} revised z${n}q: the deploy step.`;
            e.pending = content;
            const r = await client.callTool({ name: 'update', arguments: { id, content } });
            if (r.isError) throw new Error(`update: ${JSON.stringify(r.content)}`);
            const version = (r.structuredContent as { version: number }).version;
            memories.set(id, { content, version, pending: null });
            acknowledged.update++;
          } else if (roll < 0.9) {
            const a = own[Math.floor(random() * own.length)] as string;
            const b = own[Math.floor(random() * own.length)] as string;
            if (a === b) {
              await new Promise((r) => setImmediate(r));
              continue;
            }
            const r = await client.callTool({
              name: 'link',
              arguments: { from: a, to: b, type: 'related' },
            });
            if (r.isError) throw new Error(`link: ${JSON.stringify(r.content)}`);
            links.push([a, b]);
            acknowledged.link++;
          } else if (roll < 0.96) {
            const file = join(docs, `c${c}-n${n}.md`);
            writeFileSync(
              file,
              `# Runbook z${n}q\n\nRestart the queue worker after a deploy.\n\n## Cache\n\nFlush the cache z${n}q.\n`,
            );
            const r = await client.callTool({ name: 'ingest_file', arguments: { path: file } });
            if (r.isError) throw new Error(`ingest_file: ${JSON.stringify(r.content)}`);
            const f = (r.structuredContent as { files: { document_id: string | null }[] }).files[0];
            if (f?.document_id) {
              documents.push(f.document_id);
              acknowledged.ingest++;
            }
          } else {
            const r = await api('audit.verify', {});
            if (r.result && !(r.result as { ok: boolean }).ok)
              throw new Error(`audit.verify while running: ${JSON.stringify(r.result)}`);
          }
        }
      };
      const agents = Array.from({ length: options.clients }, (_, c) =>
        agent(c).then(
          () => null,
          (err: Error) => (killed ? null : err),
        ),
      );
      const delay = options.minKillMs + random() * (options.maxKillMs - options.minKillMs);
      await new Promise((r) => setTimeout(r, delay));
      killed = true;
      child.kill('SIGKILL');
      await exited;
      // A call in flight at the kill would wait for the SDK's request timeout: close the
      // sessions, which fails those calls at once.
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      const failures = (await Promise.all(agents)).filter((e): e is Error => e !== null);
      if (failures.length > 0)
        throw new Error(`cycle ${cycle}: a call failed before the kill: ${failures[0]?.message}`);
      const check = await verify(home, memories, links, documents);
      inflightCommitted += check.inflightCommitted;
      last = { memories: check.memories, audit: check.audit };
      log(
        `kill ${cycle + 1}/${options.kills} after ${Math.round(delay)} ms: ${check.memories} memories, ${check.audit} audit entries, all checks ok`,
      );
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return {
    kills: options.kills,
    acknowledged,
    inflight_committed: inflightCommitted,
    memories: last.memories,
    audit_entries: last.audit,
    duration_ms: Date.now() - started,
  };
}

/** Opens the data directory in this process (the killed daemon's lock is stale) and checks it. */
async function verify(
  home: string,
  memories: Map<string, Expected>,
  links: [string, string][],
  documents: string[],
): Promise<{ memories: number; audit: number; inflightCommitted: number }> {
  const engine = await Engine.open({ dataDir: home, owner: 'test', env: {} });
  try {
    const store = await engine.store(undefined);
    const db = store.db;
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map(
      (r) => r.integrity_check,
    );
    if (integrity.join() !== 'ok') throw new Error(`integrity_check: ${integrity.join('; ')}`);

    let inflightCommitted = 0;
    const byId = db.prepare('SELECT rid, content, version, deleted_at FROM memory WHERE id = ?');
    for (const [id, e] of memories) {
      const row = byId.get(id) as
        { rid: number; content: string; version: number; deleted_at: number | null } | undefined;
      if (!row) throw new Error(`acknowledged memory ${id} is missing`);
      if (row.deleted_at !== null) throw new Error(`acknowledged memory ${id} is deleted`);
      if (row.content !== e.content) {
        if (e.pending !== null && row.content === e.pending) {
          inflightCommitted++;
          e.content = e.pending;
          e.version = row.version;
        } else {
          throw new Error(
            `memory ${id} reads "${row.content}", acknowledged "${e.content}" (v${e.version})`,
          );
        }
      }
      e.pending = null;
      if (row.version < e.version)
        throw new Error(`memory ${id} is at version ${row.version}, acknowledged ${e.version}`);
      // The FTS index finds the latest text by its unique token.
      const token = /z\d+q/.exec(e.content)?.[0] as string;
      const hit = db
        .prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?')
        .all(token) as {
        rowid: number;
      }[];
      if (!hit.some((h) => h.rowid === row.rid))
        throw new Error(`the FTS index does not find memory ${id} by "${token}"`);
    }
    const link = db.prepare(
      `SELECT 1 FROM link WHERE src = (SELECT rid FROM memory WHERE id = ?)
         AND dst = (SELECT rid FROM memory WHERE id = ?) AND type = 'related'`,
    );
    for (const [a, b] of links)
      if (!link.get(a, b)) throw new Error(`acknowledged link ${a} → ${b} is missing`);
    for (const d of documents)
      if (!byId.get(d)) throw new Error(`acknowledged ingested document ${d} is missing`);

    const live = (
      db.prepare('SELECT count(*) AS n FROM memory WHERE deleted_at IS NULL').get() as { n: number }
    ).n;
    const fts = (db.prepare('SELECT count(*) AS n FROM memory_fts').get() as { n: number }).n;
    if (fts !== live) throw new Error(`memory_fts holds ${fts} rows for ${live} live memories`);
    const ftsOrphans = (
      db
        .prepare(
          'SELECT count(*) AS n FROM memory_fts f WHERE NOT EXISTS (SELECT 1 FROM memory m WHERE m.rid = f.rowid AND m.deleted_at IS NULL)',
        )
        .get() as { n: number }
    ).n;
    if (ftsOrphans > 0) throw new Error(`${ftsOrphans} FTS rows belong to no live memory`);
    const vecOrphans = (
      db
        .prepare(
          'SELECT count(*) AS n FROM memory_embedding e WHERE NOT EXISTS (SELECT 1 FROM memory m WHERE m.rid = e.rid)',
        )
        .get() as { n: number }
    ).n;
    if (vecOrphans > 0) throw new Error(`${vecOrphans} vectors belong to no memory`);

    const audit = await engine.audit.verify({});
    if (!audit.ok)
      throw new Error(`the audit chain is broken: ${JSON.stringify(audit.first_broken)}`);
    return { memories: live, audit: audit.total, inflightCommitted };
  } finally {
    await engine.close();
  }
}
