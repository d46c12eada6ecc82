import { chmodSync, mkdirSync, rmSync, unlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { DoctorCheck } from '../../../shared/api';
import { openTestEngine, tempDir, type TestEngine } from '../../../../test/helpers/engine';
import { tinyModelRoot } from '../../../../test/helpers/models';
import { lockFile } from '../store/paths';
import { loadOrCreateToken, tokenPath } from '../store/token';
import { migrate } from '../store/migrations';
import { CHECKS, Doctor, type DoctorProbes } from './doctor';
import { DEFAULT_LIMITS, type DoctorContext } from './types';

const tiny = tinyModelRoot({ dims: 8, id: 'tiny-doctor' });
afterAll(() => rmSync(tiny.root, { recursive: true, force: true }));

const open: TestEngine[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function engine(env: Record<string, string> = {}): Promise<TestEngine> {
  const home = tempDir('loci-doctor-home-');
  const t = await openTestEngine({ setupHome: home, env });
  open.push(t);
  await t.cli.call('memory.remember', { content: 'Deploys go out on Tuesdays after review' });
  await t.cli.call('memory.remember', { content: 'The staging database is rebuilt nightly' });
  return t;
}

async function check(t: TestEngine, id: string, probes: DoctorProbes = {}): Promise<DoctorCheck> {
  const report = await new Doctor(t.engine, probes).run(undefined);
  const found = report.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id} in ${report.checks.map((c) => c.id).join(', ')}`);
  return found;
}

/** Runs one check definition against a hand-made database. */
async function runOn(t: TestEngine, id: string, db: Database.Database) {
  const def = CHECKS.find((d) => d.id === id)!;
  const store = await t.engine.store(undefined);
  const ctx: DoctorContext = {
    engine: t.engine,
    store: { ...store, db },
    now: t.engine.now(),
    limits: DEFAULT_LIMITS,
    statfs: async () => ({ bavail: 1e9, bsize: 4096, blocks: 2e9 }),
    memoryUsage: () => ({ rss: 1, heapUsed: 1 }),
    fetch: async () => ({ status: 200 }),
  };
  const r = await def.run(ctx);
  return Array.isArray(r) ? r[0]! : r;
}

describe('the doctor', () => {
  it('reports every check with a status, a finding and a fix line', async () => {
    const t = await engine();
    const report = await t.cli.call('doctor.run', {});
    expect(report.checks.length).toBeGreaterThanOrEqual(25);
    for (const c of report.checks) {
      expect(['ok', 'warn', 'fail']).toContain(c.status);
      expect(c.finding).not.toBe('');
      if (c.status !== 'ok') expect(c.fix).not.toBe('');
    }
    expect(report.counts.ok + report.counts.warn + report.counts.fail).toBe(report.checks.length);
    const groups = new Set(report.checks.map((c) => c.group));
    expect([...groups]).toEqual(
      expect.arrayContaining([
        'Database',
        'Indexes',
        'Embeddings',
        'Audit',
        'Endpoint',
        'MCP clients',
        'Disk',
        'Process',
        'Memories',
      ]),
    );
  });

  it('sqlite.version: ok on this build, fails on an old SQLite', async () => {
    const t = await engine();
    expect((await check(t, 'sqlite.version')).finding).toMatch(
      /SQLite 3\.\d+.*better-sqlite3-multiple-ciphers 12.*Multiple Ciphers/,
    );
    const real = (await t.engine.store(undefined)).db;
    const old = new Proxy(real, {
      get(target, prop) {
        if (prop === 'prepare')
          return (sql: string) =>
            sql.includes('sqlite_version') ? { get: () => ({ v: '3.40.1' }) } : target.prepare(sql);
        return Reflect.get(target, prop, target) as unknown;
      },
    });
    expect(await runOn(t, 'sqlite.version', old)).toMatchObject({ status: 'fail' });
  });

  it('sqlite.pragmas: ok with WAL and FULL, warns on NORMAL, fails without foreign keys', async () => {
    const t = await engine();
    const db = (await t.engine.store(undefined)).db;
    expect((await check(t, 'sqlite.pragmas')).status).toBe('ok');
    db.pragma('synchronous = NORMAL');
    expect((await check(t, 'sqlite.pragmas')).status).toBe('warn');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = OFF');
    expect((await check(t, 'sqlite.pragmas')).status).toBe('fail');
    db.pragma('foreign_keys = ON');
  });

  it('sqlite.integrity: ok on a sound file, fails on a damaged one', async () => {
    const t = await engine();
    expect((await check(t, 'sqlite.integrity')).finding).toBe('quick_check: ok.');
    const file = join(tempDir(), 'damaged.db');
    const d = new Database(file);
    d.exec('CREATE TABLE x (a TEXT); CREATE INDEX x_a ON x(a);');
    const ins = d.prepare('INSERT INTO x VALUES (?)');
    for (let i = 0; i < 3000; i++) ins.run(`row number ${i} with some padding text`);
    d.close();
    // Overwrite one page in the middle of the file.
    const fd = (await import('node:fs')).openSync(file, 'r+');
    (await import('node:fs')).writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, 4096 * 20);
    (await import('node:fs')).closeSync(fd);
    const damaged = new Database(file);
    expect(await runOn(t, 'sqlite.integrity', damaged)).toMatchObject({ status: 'fail' });
    damaged.close();
  });

  it('schema.version: ok when current, warns with pending migrations, fails when newer', async () => {
    const t = await engine();
    expect((await check(t, 'schema.version')).status).toBe('ok');
    const old = new Database(':memory:');
    (await import('sqlite-vec')).load(old);
    await migrate(old, { backupPath: () => join(tempDir(), 'b.db'), target: 3 });
    expect(await runOn(t, 'schema.version', old)).toMatchObject({ status: 'warn' });
    old.prepare('INSERT INTO schema_version VALUES (99, ?, 0)').run('from the future');
    expect(await runOn(t, 'schema.version', old)).toMatchObject({ status: 'fail' });
  });

  it('sqlite.vec: ok when loaded, fails without the extension', async () => {
    const t = await engine();
    expect((await check(t, 'sqlite.vec')).finding).toMatch(/sqlite-vec v?\d/);
    expect(await runOn(t, 'sqlite.vec', new Database(':memory:'))).toMatchObject({
      status: 'fail',
    });
  });

  it('fts.sync: fails when a memory is missing from the index; the fix rebuilds it', async () => {
    const t = await engine();
    const db = (await t.engine.store(undefined)).db;
    expect((await check(t, 'fts.sync')).status).toBe('ok');
    const rid = (db.prepare('SELECT rid FROM memory LIMIT 1').get() as { rid: number }).rid;
    db.prepare('DELETE FROM memory_fts WHERE rowid = ?').run(rid);
    expect(await check(t, 'fts.sync')).toMatchObject({ status: 'fail', fixable: true });
    const fixed = await t.cli.call('doctor.fix', { check: 'fts.sync' });
    expect(fixed.done).toMatch(/2 memories indexed/);
    expect(fixed.after.status).toBe('ok');
  });

  it('links.orphans: warns about links to vanished memories; the fix removes them', async () => {
    const t = await engine();
    const db = (await t.engine.store(undefined)).db;
    const [a, b] = db.prepare('SELECT rid, id FROM memory ORDER BY rid').all() as {
      rid: number;
      id: string;
    }[];
    await t.cli.call('link.create', { from: a!.id, to: b!.id });
    expect((await check(t, 'links.orphans')).status).toBe('ok');
    db.pragma('foreign_keys = OFF');
    db.prepare('DELETE FROM memory_state WHERE rid = ?').run(b!.rid);
    db.prepare('DELETE FROM memory WHERE rid = ?').run(b!.rid);
    db.pragma('foreign_keys = ON');
    expect(await check(t, 'links.orphans')).toMatchObject({ status: 'warn', fixable: true });
    const fixed = await t.cli.call('doctor.fix', { check: 'links.orphans' });
    expect(fixed).toMatchObject({ done: 'Removed 1 orphan links.', after: { status: 'ok' } });
  });

  it('sqlite.wal: warns past the limit; the checkpoint fix empties it', async () => {
    const t = await engine();
    expect((await check(t, 'sqlite.wal')).status).toBe('ok');
    const probes = { limits: { ...DEFAULT_LIMITS, walWarnBytes: 0 } };
    expect(await check(t, 'sqlite.wal', probes)).toMatchObject({ status: 'warn', fixable: true });
    const r = await new Doctor(t.engine, probes).fix(undefined, 'sqlite.wal');
    expect(r.done).toMatch(/Checkpointed|reader held/);
  });

  it('sqlite.size: ok below the limit, warns above it', async () => {
    const t = await engine();
    expect((await check(t, 'sqlite.size')).status).toBe('ok');
    const probes = { limits: { ...DEFAULT_LIMITS, dbWarnBytes: 1 } };
    expect((await check(t, 'sqlite.size', probes)).status).toBe('warn');
  });

  it('embed.model and embed.sha256: warn without a model, ok with one, fail on a changed file', async () => {
    const none = await engine();
    expect((await check(none, 'embed.model')).status).toBe('warn');
    expect((await check(none, 'embed.sha256')).finding).toBe('No model files to check.');
    const t = await engine({ LOCI_MODEL_PATH: tiny.root });
    await t.cli.call('embedding.backfill', {});
    expect((await check(t, 'embed.model')).status).toBe('ok');
    expect((await check(t, 'embed.sha256')).status).toBe('ok');
    const copy = tempDir('loci-model-copy-');
    (await import('node:fs')).cpSync(tiny.dir, join(copy, 'tiny-doctor'), { recursive: true });
    const t2 = await engine({ LOCI_MODEL_PATH: copy });
    appendFileSync(join(copy, 'tiny-doctor', 'tokenizer.json'), ' ');
    expect(await check(t2, 'embed.sha256')).toMatchObject({ status: 'fail', fixable: false });
  });

  it('embed.dims: fails on vectors of the wrong size, warns on another model’s; the fix rebuilds', async () => {
    const t = await engine();
    const db = (await t.engine.store(undefined)).db;
    expect((await check(t, 'embed.dims')).status).toBe('ok');
    const { rid, model } = db.prepare('SELECT rid, model FROM memory_embedding LIMIT 1').get() as {
      rid: number;
      model: string;
    };
    db.prepare('DELETE FROM memory_embedding WHERE rid = ?').run(rid);
    db.prepare(
      'INSERT INTO memory_embedding (rid, model, dims, vector, code, embedded_at) VALUES (?, ?, 8, ?, ?, 0)',
    ).run(rid, 'other-model', Buffer.alloc(32), Buffer.alloc(1));
    expect((await check(t, 'embed.dims')).status).toBe('warn');
    db.prepare('UPDATE memory_embedding SET model = ? WHERE rid = ?').run(model, rid);
    expect(await check(t, 'embed.dims')).toMatchObject({ status: 'fail', fixable: true });
    const fixed = await t.cli.call('doctor.fix', { check: 'embed.dims' });
    expect(fixed.after.status).toBe('ok');
    expect((await check(t, 'embed.coverage')).status).toBe('ok');
  });

  it('embed.coverage: warns about memories waiting for a vector; the fix embeds them', async () => {
    const t = await engine();
    expect((await check(t, 'embed.coverage')).status).toBe('ok');
    (await t.engine.store(undefined)).db.prepare('DELETE FROM memory_embedding').run();
    expect(await check(t, 'embed.coverage')).toMatchObject({ status: 'warn', fixable: true });
    expect((await t.cli.call('doctor.fix', { check: 'embed.coverage' })).after.status).toBe('ok');
  });

  it('audit.chain: warns before the first verify, ok after, fails once broken, warns when stale', async () => {
    const t = await engine();
    expect(await check(t, 'audit.chain')).toMatchObject({ status: 'warn', fixable: true });
    const fixed = await t.cli.call('doctor.fix', { check: 'audit.chain' });
    expect(fixed.done).toMatch(/Verified 2 entries; anchor loci-anchor:1:/);
    expect(fixed.after.status).toBe('ok');
    t.advance(8 * 86_400_000);
    expect((await check(t, 'audit.chain')).status).toBe('warn');
    const db = (await t.engine.store(undefined)).db;
    // A cut tail shows without a full verification.
    db.exec('DROP TRIGGER audit_no_delete');
    db.prepare('DELETE FROM audit WHERE seq = 2').run();
    expect(await check(t, 'audit.chain')).toMatchObject({ status: 'fail', fixable: true });
    expect((await check(t, 'audit.chain')).finding).toMatch(
      /before the anchored entry 2: its tail was cut off/,
    );
    db.exec('DROP TRIGGER audit_no_update');
    db.prepare(`UPDATE audit SET actor = 'ui' WHERE seq = 1`).run();
    const r = await t.cli.call('audit.verify', {});
    expect(r.first_broken).toMatchObject({ seq: 1, reason: 'payload-changed' });
    expect(await check(t, 'audit.chain')).toMatchObject({ status: 'fail', fixable: false });
    expect((await check(t, 'audit.chain')).finding).toMatch(/entry 1 broken: payload-changed/);
  });

  it('memory.fading: ok when fresh, warns when memories are at risk', async () => {
    const t = await engine();
    expect((await check(t, 'memory.fading')).status).toBe('ok');
    (await t.engine.store(undefined)).db
      .prepare('UPDATE memory_state SET last_review = ?, stability = 1')
      .run(t.engine.now() - 365 * 86_400_000);
    expect(await check(t, 'memory.fading')).toMatchObject({ status: 'warn', fixable: false });
  });

  it('memory.quarantine: ok when empty, warns while quarantined memories wait', async () => {
    const t = await engine();
    expect((await check(t, 'memory.quarantine')).status).toBe('ok');
    await t.cli.call('memory.remember', {
      content: `my token ghp_${'aB3'.repeat(12)} for the deploy bot`,
    });
    expect((await check(t, 'memory.quarantine')).finding).toMatch(/^1 quarantined/);
  });

  it('lock.owner: ok when ours; a lost lock is rewritten; a stale one cleared; a live other left alone', async () => {
    const t = await engine();
    expect((await check(t, 'lock.owner')).status).toBe('ok');
    unlinkSync(lockFile(t.dir));
    expect(await check(t, 'lock.owner')).toMatchObject({ status: 'warn', fixable: true });
    expect((await t.cli.call('doctor.fix', { check: 'lock.owner' })).after.status).toBe('ok');
    const foreign = (pid: number) =>
      writeFileSync(
        lockFile(t.dir),
        JSON.stringify({ pid, kind: 'serve', started_at: 'then', hostname: 'h', nonce: 'other' }),
      );
    foreign(2 ** 22 + 12345);
    expect(await check(t, 'lock.owner')).toMatchObject({ status: 'fail', fixable: true });
    expect((await t.cli.call('doctor.fix', { check: 'lock.owner' })).after.status).toBe('ok');
    foreign(process.ppid);
    expect(await check(t, 'lock.owner')).toMatchObject({ status: 'fail', fixable: false });
    await expect(t.cli.call('doctor.fix', { check: 'lock.owner' })).rejects.toThrow(
      /no safe automatic fix/,
    );
    t.engine.rewriteLock();
  });

  it('http checks: not served, served and reachable, unreachable, bound beyond loopback', async () => {
    const t = await engine();
    expect((await check(t, 'http.reachable')).status).toBe('warn');
    expect((await check(t, 'http.loopback')).status).toBe('ok');
    const server: Server = createServer((req, res) => {
      res.statusCode = req.url === '/health' ? 200 : 404;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    t.engine.setServing({
      url: `http://127.0.0.1:${port}`,
      port,
      tokenPath: null,
      host: '127.0.0.1',
    });
    expect((await check(t, 'http.reachable')).status).toBe('ok');
    expect((await check(t, 'http.loopback')).status).toBe('ok');
    t.engine.setServing({
      url: `http://127.0.0.1:${port}`,
      port,
      tokenPath: null,
      host: '0.0.0.0',
    });
    expect((await check(t, 'http.loopback')).status).toBe('warn');
    await new Promise<void>((r) => server.close(() => r()));
    expect((await check(t, 'http.reachable')).status).toBe('fail');
    t.engine.setServing(null);
  });

  it('http.token: warns when absent, fails when readable by others; the fix restricts it', async () => {
    const t = await engine();
    expect((await check(t, 'http.token')).status).toBe('warn');
    loadOrCreateToken(t.dir);
    expect((await check(t, 'http.token')).status).toBe('ok');
    chmodSync(tokenPath(t.dir), 0o644);
    expect(await check(t, 'http.token')).toMatchObject({ status: 'fail', fixable: true });
    expect((await t.cli.call('doctor.fix', { check: 'http.token' })).after.status).toBe('ok');
  });

  it('client configs: ok when not installed, warns when the entry is missing (fixed by a rewrite), fails on a broken file', async () => {
    const t = await engine();
    expect((await check(t, 'client.cursor')).finding).toMatch(/not installed/);
    const home = (t.engine as unknown as { options: { setupHome: string } }).options.setupHome;
    mkdirSync(join(home, '.cursor'));
    expect(await check(t, 'client.cursor')).toMatchObject({ status: 'warn', fixable: true });
    const fixed = await t.cli.call('doctor.fix', { check: 'client.cursor' });
    expect(fixed.after.status).toBe('ok');
    writeFileSync(join(home, '.cursor', 'mcp.json'), '{ "mcpServers": ');
    expect(await check(t, 'client.cursor')).toMatchObject({ status: 'fail', fixable: false });
    await expect(t.cli.call('doctor.fix', { check: 'client.cursor' })).rejects.toThrow(/by hand/);
  });

  it('disk.free: ok with room, warns when low, fails when nearly full', async () => {
    const t = await engine();
    const probe = (free: number): DoctorProbes => ({
      statfs: async () => ({ bavail: free / 4096, bsize: 4096, blocks: 1e7 }),
    });
    expect((await check(t, 'disk.free', probe(50 * 1024 ** 3))).status).toBe('ok');
    expect((await check(t, 'disk.free', probe(500 * 1024 ** 2))).status).toBe('warn');
    expect((await check(t, 'disk.free', probe(50 * 1024 ** 2))).status).toBe('fail');
  });

  it('process.memory: ok, warn and fail by resident size', async () => {
    const t = await engine();
    const probe = (rss: number): DoctorProbes => ({
      memoryUsage: () => ({ rss, heapUsed: rss / 2 }),
    });
    expect((await check(t, 'process.memory', probe(200 * 1024 ** 2))).status).toBe('ok');
    expect((await check(t, 'process.memory', probe(2 * 1024 ** 3))).status).toBe('warn');
    expect((await check(t, 'process.memory', probe(4 * 1024 ** 3))).status).toBe('fail');
    // After a trim it says what was given back, and when.
    await t.engine.footprint.trim('idle', 'idle');
    t.advance(120_000);
    expect((await check(t, 'process.memory', probe(200 * 1024 ** 2))).finding).toMatch(
      /^200 MB resident, 100 MB JavaScript heap; last given back 2 min ago, when quiet \(\d+(\.\d)? MB → \d+(\.\d)? MB\)/,
    );
  });

  it('refuses an unknown check and says which exist; a passing check needs no fix', async () => {
    const t = await engine();
    await expect(t.cli.call('doctor.fix', { check: 'nope' })).rejects.toThrow(
      /no doctor check "nope"/,
    );
    expect((await t.cli.call('doctor.fix', { check: 'fts.sync' })).done).toMatch(/Nothing to fix/);
  });

  it('announces its verdict', async () => {
    const t = await engine();
    const seen: unknown[] = [];
    t.engine.events.on('doctor.finished', (e) => seen.push(e));
    const r = await t.cli.call('doctor.run', {});
    expect(seen).toEqual([{ store: 'default', status: r.status }]);
  });
});
