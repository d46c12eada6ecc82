// Encryption at rest (issue 21, item 1), on real files: an encrypted store's database,
// write-ahead log, backups and audit keyring hold none of 100 planted strings (a byte
// scan of every file); a wrong key or passphrase is refused by name (exit code 10) and
// never moves the file aside as damaged; a rekey while writes go on loses nothing; a
// change a crash cut short is finished (or dropped) on the next open.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ListResult, LociClient } from '../src/shared/api';
import { AuditKeyring } from '../src/main/engine/audit/keyring';
import { fileHeader } from '../src/main/engine/store/cipher';
import { reencryptFile } from '../src/main/engine/store/crypt';
import { KeyVault } from '../src/main/engine/store/keys';
import { cli } from './helpers/cli';
import { openTestEngine, tempDir, type TestEngine } from './helpers/engine';

const dirs: string[] = [];
const engines: TestEngine[] = [];
const fresh = (p = 'loci-enc-') => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
afterEach(async () => {
  for (const t of engines.splice(0)) await t.engine.close().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Test engines: no OS keyring, a cheap scrypt (the parameters are stored per key). */
const KEYS = { keyring: null, scryptN: 2 ** 12 } as const;
async function open(dir: string, env: Record<string, string> = {}): Promise<TestEngine> {
  const t = await openTestEngine({ dataDir: dir, env, keys: KEYS });
  engines.push(t);
  return t;
}
/** Closes the engines and keeps their data directories (TestEngine.close removes them). */
async function closeAll(): Promise<void> {
  for (const t of engines.splice(0)) await t.engine.close();
}

const storeDir = (home: string, store = 'default') => join(home, 'stores', store);

/** Every file under the data directory (database, WAL, SHM, backups, keys, staging). */
function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...allFiles(p));
    else out.push(p);
  }
  return out;
}

/** Which planted strings appear in which files (a byte scan). */
function scan(dir: string, planted: string[]): Map<string, string[]> {
  const hits = new Map<string, string[]>();
  for (const file of allFiles(dir)) {
    const bytes = readFileSync(file);
    const found = planted.filter((p) => bytes.includes(p));
    if (found.length > 0) hits.set(file, found);
  }
  return hits;
}

const plant = (n: number) =>
  Array.from({ length: n }, () => `PLANT${randomBytes(8).toString('hex').toUpperCase()}`);

async function rememberAll(client: LociClient, planted: string[], store?: string) {
  const ids: string[] = [];
  for (const p of planted) {
    const r = await client.call('memory.remember', {
      content: `The staging cluster's secret project name is ${p}; it ships in the spring release.`,
      tags: ['planted'],
      ...(store ? { store } : {}),
    });
    ids.push(r.id);
  }
  return ids;
}

describe('encryption at rest', () => {
  it('leaves none of 100 planted strings in the database, its WAL, its backups or its keys', async () => {
    const home = fresh();
    const t = await open(home);
    const before = plant(80);
    await rememberAll(t.cli, before);
    await t.cli.call('store.backup', {});
    // The scan finds them while the store is plain: it can fail.
    const plainHits = scan(home, before);
    expect([...plainHits.keys()].some((f) => f.endsWith('loci.db') || f.endsWith('-wal'))).toBe(
      true,
    );
    expect([...plainHits.keys()].some((f) => f.includes('backups'))).toBe(true);

    const progress: string[] = [];
    t.engine.events.on('store.crypt.progressed', (p) => progress.push(p.phase));
    const r = await t.cli.call('store.encrypt', { source: 'keyfile' });
    expect(r).toMatchObject({ encrypted: true, cipher: 'chacha20', source: 'keyfile' });
    expect(r.rows).toBeGreaterThan(80);
    expect(r.copies.changed).toBe(2); // the backup taken before, and the one taken first
    expect(progress).toEqual(expect.arrayContaining(['backup', 'database', 'backups', 'done']));

    // Writes after the change go to the WAL, encrypted frame by frame.
    const after = plant(20);
    await rememberAll(t.cli, after);
    t.advance(1000);
    await t.cli.call('store.backup', {});
    expect(statSync(join(storeDir(home), 'loci.db-wal')).size).toBeGreaterThan(0);
    const planted = [...before, ...after];
    expect(scan(home, planted)).toEqual(new Map());
    expect(fileHeader(join(storeDir(home), 'loci.db'))).toBe('opaque');
    for (const b of readdirSync(join(storeDir(home), 'backups'))) {
      expect(fileHeader(join(storeDir(home), 'backups', b))).toBe('opaque');
    }
    // The audit keyring is sealed under the store key; the chain still verifies.
    const ring = JSON.parse(readFileSync(join(home, 'keys', 'default.audit-keys.json'), 'utf8'));
    expect(Object.keys(ring)).toEqual(['version', 'sealed']);
    const v = await t.cli.call('audit.verify', {});
    expect(v.ok).toBe(true);

    // And everything is still there, found by words, after a restart.
    await closeAll();
    const again = await open(home);
    const found = await again.cli.call('memory.recall', { query: after[3] as string });
    expect(found.results[0]?.content).toContain(after[3]);
    expect((await again.cli.call('stats.get', {})).memories.live).toBe(100);
    expect(scan(home, planted)).toEqual(new Map());
  });

  it('refuses a wrong passphrase by name with exit code 10, and never moves the file aside', async () => {
    const home = fresh();
    const t = await open(home);
    await rememberAll(t.cli, plant(3));
    await t.cli.call('store.encrypt', {
      source: 'passphrase',
      passphrase: 'correct horse battery',
    });
    await closeAll();

    const wrong = await open(home, { LOCI_PASSPHRASE: 'incorrect horse' });
    await expect(wrong.cli.call('stats.get', {})).rejects.toMatchObject({
      code: 'wrong-key',
      message: expect.stringContaining('Wrong passphrase for store "default"'),
    });
    await expect(wrong.cli.call('stats.get', {})).rejects.toMatchObject({ code: 'wrong-key' });
    await closeAll();
    expect(existsSync(join(storeDir(home), 'CORRUPTED.json'))).toBe(false);
    expect(readdirSync(storeDir(home)).filter((f) => f.includes('corrupt'))).toEqual([]);

    const none = await open(home);
    await expect(none.cli.call('stats.get', {})).rejects.toMatchObject({
      code: 'key-required',
      message: expect.stringContaining('loci unlock'),
    });
    // unlock with the wrong passphrase is refused; with the right one the store opens.
    await expect(
      none.cli.call('store.unlock', { passphrase: 'not it at all' }),
    ).rejects.toMatchObject({ code: 'wrong-key' });
    const s = await none.cli.call('store.unlock', { passphrase: 'correct horse battery' });
    expect(s).toMatchObject({ encrypted: true, unlocked: true, source: 'passphrase' });
    expect((await none.cli.call('stats.get', {})).memories.live).toBe(3);
    await closeAll();

    // The CLI: exit code 10 and a one-line error naming the store.
    const r = await cli(home, ['stats']);
    expect(r.code).toBe(10);
    expect(r.stderr).toMatch(/Store "default" is encrypted with a passphrase/);
  });

  it("refuses a key file other users can read, and a key that is not the store's", async () => {
    const home = fresh();
    const t = await open(home);
    await rememberAll(t.cli, plant(2));
    await t.cli.call('store.encrypt', { source: 'keyfile' });
    await closeAll();
    const keyFile = join(home, 'keys', 'default.current.dbkey');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    chmodSync(keyFile, 0o644);
    const loose = await open(home);
    await expect(loose.cli.call('stats.get', {})).rejects.toMatchObject({
      code: 'environment',
      message: expect.stringContaining('can be read by other users'),
    });
    await closeAll();
    writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    chmodSync(keyFile, 0o600);
    const other = await open(home);
    await expect(other.cli.call('stats.get', {})).rejects.toMatchObject({ code: 'wrong-key' });
    await closeAll();
    expect(existsSync(join(storeDir(home), 'loci.db'))).toBe(true);
    expect(existsSync(join(storeDir(home), 'CORRUPTED.json'))).toBe(false);
  });

  it('re-keys while writes go on and loses none of them; the old key opens nothing', async () => {
    const home = fresh();
    const t = await open(home);
    await rememberAll(t.cli, plant(300));
    await t.cli.call('store.encrypt', { source: 'keyfile' });
    const oldKey = readFileSync(join(home, 'keys', 'default.current.dbkey'), 'utf8').trim();

    const acknowledged: string[] = [];
    let stop = false;
    let changing = false;
    let startedDuring = 0;
    // From the backup taken first to the end: writes asked for meanwhile wait, then land.
    t.engine.events.on('store.crypt.progressed', (p) => {
      changing = p.phase !== 'done';
    });
    const writer = (async () => {
      for (let i = 0; !stop && i < 400; i++) {
        if (changing) startedDuring++;
        const r = await t.agent('writer').call('memory.remember', {
          content: `Concurrent fact ${i}: queue ${i % 7} drains in ${i} ms.`,
        });
        acknowledged.push(r.id);
      }
    })();
    // Let some writes land first, then re-key under them (to a passphrase this time).
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 5));
    const r = await t.cli.call('store.rekey', {
      source: 'passphrase',
      passphrase: 'a new long passphrase',
    });
    expect(r.source).toBe('passphrase');
    // A write was asked for while the file was being copied (it waited, then landed).
    expect(startedDuring).toBeGreaterThan(0);
    const duringRekey = acknowledged.length;
    while (acknowledged.length < duringRekey + 20) await new Promise((r) => setTimeout(r, 5));
    stop = true;
    await writer;

    const ids = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: ListResult = await t.cli.call('memory.list', {
        limit: 500,
        ...(cursor ? { cursor } : {}),
      });
      for (const m of page.items) ids.add(m.id);
      cursor = page.next_cursor;
    } while (cursor);
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    await closeAll();
    expect(existsSync(join(home, 'keys', 'default.current.dbkey'))).toBe(false);

    const reopened = await open(home, { LOCI_PASSPHRASE: 'a new long passphrase' });
    expect((await reopened.cli.call('stats.get', {})).memories.live).toBe(
      300 + acknowledged.length,
    );
    await closeAll();
    // The old key opens neither the database nor any backup.
    const old = Buffer.from(oldKey, 'hex');
    for (const f of [
      join(storeDir(home), 'loci.db'),
      ...readdirSync(join(storeDir(home), 'backups')).map((b) =>
        join(storeDir(home), 'backups', b),
      ),
    ]) {
      await expect(reencryptFile(f, old, null)).rejects.toMatchObject({ code: 'wrong-key' });
    }
  });

  it('decrypts a store and its backups back to plain files', async () => {
    const home = fresh();
    const t = await open(home);
    const planted = plant(10);
    await rememberAll(t.cli, planted);
    await t.cli.call('store.encrypt', { source: 'keyfile' });
    expect(scan(home, planted)).toEqual(new Map());
    await expect(t.cli.call('store.encrypt', {})).rejects.toMatchObject({ code: 'conflict' });
    const r = await t.cli.call('store.decrypt', {});
    expect(r).toMatchObject({ encrypted: false, source: null });
    expect(fileHeader(join(storeDir(home), 'loci.db'))).toBe('plain');
    expect(existsSync(join(storeDir(home), 'encryption.json'))).toBe(false);
    expect(existsSync(join(home, 'keys', 'default.current.dbkey'))).toBe(false);
    for (const b of readdirSync(join(storeDir(home), 'backups'))) {
      expect(fileHeader(join(storeDir(home), 'backups', b))).toBe('plain');
    }
    expect((await t.cli.call('stats.get', {})).memories.live).toBe(10);
    expect((await t.cli.call('audit.verify', {})).ok).toBe(true);
    await expect(t.agent('a').call('store.decrypt', {})).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('finishes a re-key a crash cut short after the swap, and drops one cut short before it', async () => {
    const home = fresh();
    const t = await open(home);
    await rememberAll(t.cli, plant(5));
    await t.cli.call('store.encrypt', { source: 'keyfile' });
    await t.cli.call('store.backup', {});
    await closeAll();
    const vault = new KeyVault(home, { keyring: null, env: {} });
    const [current] = await vault.candidates('default');
    // Crash after step 3: the database is under the pending key, nothing else is.
    const { key: next } = await vault.createPending('default', 'keyfile');
    await reencryptFile(join(storeDir(home), 'loci.db'), current as Buffer, next);
    const reopened = await open(home);
    expect((await reopened.cli.call('stats.get', {})).memories.live).toBe(5);
    expect((await reopened.cli.call('audit.verify', {})).ok).toBe(true);
    await closeAll();
    const d = new KeyVault(home, { keyring: null, env: {} }).descriptor('default');
    expect(d?.pending).toBeNull();
    expect(readFileSync(join(home, 'keys', 'default.current.dbkey'), 'utf8').trim()).toBe(
      next.toString('hex'),
    );
    // The backups followed the new key.
    for (const b of readdirSync(join(storeDir(home), 'backups'))) {
      await expect(
        reencryptFile(join(storeDir(home), 'backups', b), next, next),
      ).resolves.toBeUndefined();
    }

    // Crash before step 3: a pending key that no file uses is dropped.
    const v2 = new KeyVault(home, { keyring: null, env: {} });
    await v2.createPending('default', 'keyfile');
    writeFileSync(join(storeDir(home), 'loci.db.rekeying'), 'half a copy');
    const third = await open(home);
    expect((await third.cli.call('stats.get', {})).memories.live).toBe(5);
    await closeAll();
    expect(
      new KeyVault(home, { keyring: null, env: {} }).descriptor('default')?.pending,
    ).toBeNull();
    expect(existsSync(join(storeDir(home), 'loci.db.rekeying'))).toBe(false);
    expect(existsSync(join(home, 'keys', 'default.pending.dbkey'))).toBe(false);
  });
});

describe('doctor, encryption', () => {
  const check = async (t: TestEngine, id: string) =>
    (await t.cli.call('doctor.run', {})).checks.find((c) => c.id === id);

  it('says whether a store is encrypted, finds plain copies beside it and re-encrypts them', async () => {
    const home = fresh();
    const t = await open(home);
    await rememberAll(t.cli, plant(3));
    expect(await check(t, 'encryption.status')).toMatchObject({
      status: 'ok',
      finding: expect.stringContaining('is not encrypted'),
    });
    // (Kept in memory: encrypt re-encrypts every backup in the folder.)
    const plainBytes = readFileSync((await t.cli.call('store.backup', {})).path);
    await t.cli.call('store.encrypt', { source: 'keyfile' });
    expect(await check(t, 'encryption.status')).toMatchObject({
      status: 'ok',
      finding: expect.stringContaining('key file only you can read'),
    });
    expect(await check(t, 'encryption.keyring')).toMatchObject({ status: 'ok' });
    expect(await check(t, 'encryption.leftovers')).toMatchObject({ status: 'ok' });

    // A plain copy put back by hand (say, restored from another disk) is found and fixed.
    writeFileSync(join(storeDir(home), 'backups', 'from-usb.db'), plainBytes);
    expect(await check(t, 'encryption.leftovers')).toMatchObject({
      status: 'fail',
      fixable: true,
      finding: expect.stringContaining('from-usb.db'),
    });
    const fixed = await t.cli.call('doctor.fix', { check: 'encryption.leftovers' });
    expect(fixed).toMatchObject({ done: 'Re-encrypted 1 backup.', after: { status: 'ok' } });
    expect(fileHeader(join(storeDir(home), 'backups', 'from-usb.db'))).toBe('opaque');

    // An unsealed audit key file (an old copy put back) is found and sealed.
    const ringFile = join(home, 'keys', 'default.audit-keys.json');
    AuditKeyring.reseal(home, 'default', (await t.engine.store(undefined)).key, null);
    expect(JSON.parse(readFileSync(ringFile, 'utf8')).sealed).toBeUndefined();
    expect(await check(t, 'encryption.keyring')).toMatchObject({ status: 'fail', fixable: true });
    await t.cli.call('doctor.fix', { check: 'encryption.keyring' });
    expect(JSON.parse(readFileSync(ringFile, 'utf8')).sealed).toBeDefined();

    // Files staged for ingestion are plaintext: said so.
    await t.cli.call('ingest.upload', {
      upload: '01J0000000000000000000TEST',
      path: 'notes.md',
      content_base64: Buffer.from('# Notes\nplain text').toString('base64'),
    });
    expect(await check(t, 'encryption.staging')).toMatchObject({
      status: 'warn',
      finding: expect.stringContaining('1 uploaded file'),
    });
  });

  it('fails a store marked encrypted whose database is plain', async () => {
    const home = fresh();
    const t = await open(home);
    await rememberAll(t.cli, plant(2));
    const plainBytes = readFileSync((await t.cli.call('store.backup', {})).path);
    await t.cli.call('store.encrypt', { source: 'keyfile' });
    await closeAll();
    // Someone copies a plain database over the encrypted one.
    writeFileSync(join(storeDir(home), 'loci.db'), plainBytes);
    rmSync(join(storeDir(home), 'loci.db-wal'), { force: true });
    rmSync(join(storeDir(home), 'loci.db-shm'), { force: true });
    const again = await open(home);
    expect(await check(again, 'encryption.status')).toMatchObject({
      status: 'fail',
      finding: expect.stringContaining('is marked encrypted'),
    });
  });
});

describe('exports of an encrypted store', () => {
  it('are sealed; they import where the key is, or with the passphrase elsewhere', async () => {
    const home = fresh();
    const t = await open(home);
    const planted = plant(5);
    await rememberAll(t.cli, planted);
    await t.cli.call('store.encrypt', { source: 'passphrase', passphrase: 'export passphrase' });
    const sealed = await t.cli.call('store.export', {});
    expect(sealed).toMatchObject({ format: 'loci-sealed-bundle', memories: 5 });
    const text = JSON.stringify(sealed);
    expect(planted.filter((p) => text.includes(p))).toEqual([]);
    await expect(t.agent('a').call('store.export', { plaintext: true })).rejects.toMatchObject({
      code: 'forbidden',
    });
    const clear = await t.cli.call('store.export', { plaintext: true });
    expect(JSON.stringify(clear)).toContain(planted[0]);

    // In the same data directory: the key is found by its check value.
    await t.cli.call('store.create', { name: 'copy' });
    const r = await t.cli.call('store.import', { store: 'copy', bundle: sealed as never });
    expect(r.memories).toBe(5);
    await closeAll();

    // Elsewhere: only with the passphrase.
    const other = fresh();
    const o = await open(other);
    await expect(o.cli.call('store.import', { bundle: sealed as never })).rejects.toMatchObject({
      code: 'key-required',
      message: expect.stringContaining('LOCI_PASSPHRASE'),
    });
    await closeAll();
    const wrong = await open(other, { LOCI_PASSPHRASE: 'not the passphrase' });
    await expect(wrong.cli.call('store.import', { bundle: sealed as never })).rejects.toMatchObject(
      {
        code: 'wrong-key',
      },
    );
    await closeAll();
    const right = await open(other, { LOCI_PASSPHRASE: 'export passphrase' });
    expect((await right.cli.call('store.import', { bundle: sealed as never })).memories).toBe(5);
    // A changed byte in the sealed data is refused, nothing imported.
    await right.cli.call('store.create', { name: 'tampered' });
    const bad = structuredClone(sealed) as { sealed: { data: string } };
    bad.sealed.data = `${bad.sealed.data.startsWith('A') ? 'B' : 'A'}${bad.sealed.data.slice(1)}`;
    await expect(
      right.cli.call('store.import', { store: 'tampered', bundle: bad as never }),
    ).rejects.toMatchObject({ code: 'wrong-key' });
    expect((await right.cli.call('stats.get', { store: 'tampered' })).memories.live).toBe(0);
  });
});

describe('another local user', () => {
  it('can reach nothing in the data directory: every folder 0700, every secret file 0600', async () => {
    if (process.platform === 'win32') return;
    const home = fresh();
    const t = await open(home);
    await rememberAll(t.cli, plant(3));
    await t.cli.call('store.create', { name: 'work' });
    await t.cli.call('store.encrypt', { store: 'work', source: 'keyfile' });
    await t.cli.call('store.backup', {});
    await t.cli.call('clients.add', { name: 'cursor' });
    await t.cli.call('token.rotate', {});
    const dirs: string[] = [];
    const walk = (d: string) => {
      dirs.push(d);
      for (const e of readdirSync(d, { withFileTypes: true }))
        if (e.isDirectory()) walk(join(d, e.name));
    };
    walk(home);
    const open_ = dirs.filter((d) => (statSync(d).mode & 0o077) !== 0);
    expect(open_).toEqual([]);
    const secrets = allFiles(home).filter((f) =>
      /(token|\.dbkey|audit-keys\.json|clients\.json|encryption\.json)$/.test(f),
    );
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    expect(secrets.filter((f) => (statSync(f).mode & 0o077) !== 0)).toEqual([]);
  });
});
