import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import type { Db } from '../store/database';
import type { OpenStore } from '../store/registry';
import {
  AUDIT_TRIGGERS,
  entryPayloadWithData,
  GENESIS_HASH,
  hmacHex,
  type AuditRow,
} from './chain';
import {
  anchorToString,
  KeyedMac,
  makeAnchor,
  parseAnchor,
  verifyChain,
  type Anchor,
} from './verify';
import { startRangeWorker } from './verifyHost';

let t: TestEngine;
let store: OpenStore;

beforeEach(async () => {
  t = await openTestEngine();
  // 24 entries: 12 creates, 6 updates, 3 forgets, 3 restores.
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    ids.push(
      (
        await t.cli.call('memory.remember', {
          content: `Audit fixture memory ${i} about topic ${100 + i * 7}`,
        })
      ).id,
    );
  }
  for (let i = 0; i < 6; i++)
    await t.cli.call('memory.update', { id: ids[i]!, title: `Retitled ${i}` });
  for (let i = 0; i < 3; i++) await t.cli.call('memory.forget', { id: ids[i]! });
  for (let i = 0; i < 3; i++) await t.cli.call('memory.restore', { id: ids[i]! });
  store = await t.engine.store(undefined);
});
afterEach(async () => {
  await t.close();
});

/** Runs SQL on the audit table with its append-only triggers lifted, then restores them. */
function tamper(db: Db, sql: string, ...params: unknown[]): void {
  db.exec('DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete;');
  try {
    db.prepare(sql).run(...params);
  } finally {
    for (const trigger of Object.values(AUDIT_TRIGGERS)) db.exec(trigger);
  }
}

const rows = (db: Db) => db.prepare('SELECT * FROM audit ORDER BY seq').all() as AuditRow[];

/** Re-hashes entries from `from` on, chaining them, with `hash(payload)` instead of the key. */
function rehash(db: Db, from: number, hash: (payload: string) => string): void {
  const all = rows(db);
  let prev = all.find((r) => r.seq === from - 1)?.hash ?? GENESIS_HASH;
  for (const r of all.filter((x) => x.seq >= from)) {
    const h = hash(entryPayloadWithData({ ...r, prev_hash: prev }, r.data));
    tamper(db, 'UPDATE audit SET prev_hash = ?, hash = ? WHERE seq = ?', prev, h, r.seq);
    prev = h;
  }
}

describe('audit verification', () => {
  it('passes an intact chain, returns a signed anchor and stores it', async () => {
    const r = await t.cli.call('audit.verify', {});
    expect(r).toMatchObject({ ok: true, checked: 24, total: 24, first_broken: null });
    expect(r.head.seq).toBe(24);
    expect(r.anchor).toMatchObject({ seq: 24, hash: r.head.hash, store: 'default' });
    expect(parseAnchor(r.anchor_text!)).toEqual(r.anchor);
    const kept = await t.cli.call('audit.anchor', {});
    expect(kept.anchor).toEqual(r.anchor);
    expect(kept.last_verify).toMatchObject({ ok: true, checked: 24 });
  });

  it('catches an edited payload at its index', async () => {
    tamper(store.db, `UPDATE audit SET actor = 'ui' WHERE seq = 7`);
    const r = await t.cli.call('audit.verify', {});
    expect(r.ok).toBe(false);
    expect(r.first_broken).toMatchObject({ seq: 7, reason: 'payload-changed' });
    expect(r.checked).toBe(6);
    expect(r.anchor).toBeNull();
  });

  it('catches edited data (a changed fingerprint) at its index', async () => {
    tamper(store.db, `UPDATE audit SET data = json_set(data, '$.version', 99) WHERE seq = 15`);
    const r = await t.cli.call('audit.verify', {});
    expect(r.first_broken).toMatchObject({ seq: 15, reason: 'payload-changed' });
  });

  it('catches an entry deleted in the middle at its index', async () => {
    tamper(store.db, 'DELETE FROM audit WHERE seq = 10');
    const r = await t.cli.call('audit.verify', {});
    expect(r.first_broken).toMatchObject({ seq: 10, reason: 'removed' });
    expect(r.checked).toBe(9);
  });

  it('catches a deletion hidden by renumbering the entries after it', async () => {
    tamper(store.db, 'DELETE FROM audit WHERE seq = 10');
    for (let s = 11; s <= 24; s++)
      tamper(store.db, 'UPDATE audit SET seq = ? WHERE seq = ?', s - 1, s);
    const r = await t.cli.call('audit.verify', {});
    expect(r.first_broken).toMatchObject({ seq: 10, reason: 'removed' });
  });

  it('catches reordered entries at the first moved index', async () => {
    tamper(store.db, 'UPDATE audit SET seq = -5 WHERE seq = 5');
    tamper(store.db, 'UPDATE audit SET seq = 5 WHERE seq = 6');
    tamper(store.db, 'UPDATE audit SET seq = 6 WHERE seq = -5');
    const r = await t.cli.call('audit.verify', {});
    expect(r.first_broken).toMatchObject({ seq: 5, reason: 'reordered' });
    expect(r.first_broken?.detail).toMatch(/number 6/);
  });

  it('catches a truncated tail against the stored anchor and against a given one', async () => {
    const first = await t.cli.call('audit.verify', {});
    tamper(store.db, 'DELETE FROM audit WHERE seq > 18');
    const stored = await t.cli.call('audit.verify', {});
    expect(stored.first_broken).toMatchObject({ seq: 19, reason: 'truncated' });
    expect(stored.anchor_checked).toMatchObject({ source: 'stored', seq: 24 });
    // The failed run keeps the anchor it checked against.
    expect((await t.cli.call('audit.anchor', {})).anchor).toEqual(first.anchor);
    const given = await t.cli.call('audit.verify', { anchor: first.anchor_text! });
    expect(given.first_broken).toMatchObject({ seq: 19, reason: 'truncated' });
    expect(given.anchor_checked?.source).toBe('given');
    // Without any anchor, a cut tail cannot be seen: the rest of the chain is sound.
    const bare = await verifyChain(store.db, store.keyring, {});
    expect(bare.ok).toBe(true);
  });

  it('catches hashes recomputed without the key (plain SHA-256) at the edited index', async () => {
    tamper(store.db, `UPDATE audit SET actor = 'mcp:intruder' WHERE seq = 8`);
    rehash(store.db, 8, (p) => createHash('sha256').update(p).digest('hex'));
    const r = await t.cli.call('audit.verify', {});
    expect(r.first_broken).toMatchObject({ seq: 8, reason: 'wrong-key' });
  });

  it('catches hashes recomputed with a guessed key at the edited index', async () => {
    tamper(store.db, `UPDATE audit SET target = NULL WHERE seq = 12`);
    rehash(store.db, 12, (p) => createHmac('sha256', 'guess').update(p).digest('hex'));
    const r = await t.cli.call('audit.verify', {});
    expect(r.first_broken).toMatchObject({ seq: 12, reason: 'wrong-key' });
  });

  it('catches a chain rebuilt with the real key against an earlier anchor', async () => {
    const before = await t.cli.call('audit.verify', {});
    tamper(store.db, `UPDATE audit SET actor = 'ui' WHERE seq = 20`);
    const key = store.keyring.currentKey();
    rehash(store.db, 20, (p) => hmacHex(key, p));
    expect((await verifyChain(store.db, store.keyring)).ok).toBe(true);
    const r = await t.cli.call('audit.verify', { anchor: before.anchor! });
    expect(r.first_broken).toMatchObject({ seq: 24, reason: 'anchor-mismatch' });
  });

  it('rejects a forged or foreign anchor with a clear error', async () => {
    const { anchor } = await t.cli.call('audit.verify', {});
    const forged: Anchor = { ...anchor!, seq: 40 };
    await expect(t.cli.call('audit.verify', { anchor: anchorToString(forged) })).rejects.toThrow(
      /signature does not match/,
    );
    await expect(t.cli.call('audit.verify', { anchor: 'hello' })).rejects.toThrow(
      /not a Loci audit anchor/,
    );
    await expect(
      t.cli.call('audit.verify', { anchor: anchorToString({ ...anchor!, key_id: 'k1-nope' }) }),
    ).rejects.toThrow(/does not hold/);
  });

  it('keeps older entries verifiable after a key rotation', async () => {
    const before = store.keyring.currentId;
    const rotated = await t.cli.call('audit.rotateKey', {});
    expect(rotated.from).toBe(before);
    await t.cli.call('memory.remember', { content: 'Written under the new audit key' });
    const chain = rows(store.db);
    expect(new Set(chain.map((r) => r.key_id))).toEqual(new Set([before, rotated.to]));
    expect(chain.at(-2)).toMatchObject({ action: 'audit.key_rotated', key_id: rotated.to });
    const r = await t.cli.call('audit.verify', {});
    expect(r).toMatchObject({ ok: true, checked: 26 });
    await expect(t.agent('cursor').call('audit.rotateKey', {})).rejects.toThrow(/person/);
  });

  it('reports entries signed with a key the key file lost', async () => {
    tamper(store.db, `UPDATE audit SET key_id = 'k-lost' WHERE seq = 3`);
    const r = await t.cli.call('audit.verify', {});
    expect(r.first_broken).toMatchObject({ seq: 3, reason: 'key-missing' });
  });

  it('reports progress page by page and yields between pages', async () => {
    const seen: number[] = [];
    const r = await verifyChain(store.db, store.keyring, {
      pageSize: 5,
      onProgress: (checked) => seen.push(checked),
    });
    expect(r.ok).toBe(true);
    expect(seen).toEqual([5, 10, 15, 20, 24, 24]);
    const events: unknown[] = [];
    t.engine.events.on('audit.progressed', (e) => events.push(e));
    await t.cli.call('audit.verify', {});
    expect(events.at(-1)).toEqual({ store: 'default', checked: 24, total: 24, done: true });
  });

  it('verifies an empty chain', async () => {
    await t.cli.call('store.create', { name: 'empty' });
    const r = await t.cli.call('audit.verify', { store: 'empty' });
    expect(r).toMatchObject({ ok: true, checked: 0, head: { seq: 0, hash: GENESIS_HASH } });
  });

  it('holds its triggers on a real file', async () => {
    expect(() => store.db.prepare(`UPDATE audit SET actor = 'x' WHERE seq = 1`).run()).toThrow(
      /append-only/,
    );
    expect(() => store.db.prepare('DELETE FROM audit WHERE seq = 24').run()).toThrow(/append-only/);
    expect(store.file).toMatch(/loci\.db$/);
  });

  it('makes anchors only this store’s key can sign', () => {
    const a = makeAnchor(store.keyring, 'default', { seq: 3, hash: 'a'.repeat(64) }, 0);
    expect(parseAnchor(JSON.stringify(a))).toEqual(a);
    expect(parseAnchor(JSON.stringify({ anchor: a }))).toEqual(a);
  });
});

describe('verification split across a worker thread', () => {
  const both = async (anchor?: Anchor) => {
    const one = await verifyChain(store.db, store.keyring, {
      anchor: anchor ?? null,
      parallelMin: Number.POSITIVE_INFINITY,
    });
    const two = await verifyChain(store.db, store.keyring, {
      anchor: anchor ?? null,
      parallelMin: 1,
    });
    expect({ ...two, duration_ms: 0 }).toEqual({ ...one, duration_ms: 0 });
    return two;
  };

  it('runs the second half in a worker thread (not the fallback)', async () => {
    const keys = new Map(store.keyring.ids().map((id) => [id, store.keyring.key(id)] as const));
    const split = rows(store.db)[11]!;
    const progress: number[] = [];
    const spec = { from: 12, to: 24, prevHash: split.hash, pageSize: 5 };
    const ok = startRangeWorker(store.file, null, keys, spec, (n) => progress.push(n));
    expect(await ok.result).toEqual({ checked: 12, problemAt: null });
    expect(progress).toEqual([5, 10, 12]);
    tamper(store.db, `UPDATE audit SET actor = 'ui' WHERE seq = 19`);
    const bad = startRangeWorker(store.file, null, keys, spec, () => undefined);
    expect(await bad.result).toEqual({ checked: 6, problemAt: 19 });
    // A file that is not there: null, and the caller checks the range itself.
    const none = startRangeWorker(`${store.file}.missing`, null, keys, spec, () => undefined);
    expect(await none.result).toBeNull();
  });

  it('agrees with one pass on an intact chain, and reports the worker’s progress', async () => {
    const seen: number[] = [];
    const r = await verifyChain(store.db, store.keyring, {
      parallelMin: 1,
      pageSize: 4,
      onProgress: (checked) => seen.push(checked),
    });
    expect(r).toMatchObject({ ok: true, checked: 24 });
    expect(seen.at(-1)).toBe(24);
    expect(await both()).toMatchObject({ ok: true, checked: 24 });
  });

  it.each([
    [
      'an edit in the first half',
      `UPDATE audit SET actor = 'ui' WHERE seq = 7`,
      7,
      'payload-changed',
    ],
    [
      'an edit in the second half',
      `UPDATE audit SET actor = 'ui' WHERE seq = 20`,
      20,
      'payload-changed',
    ],
    ['an edit at the split', `UPDATE audit SET actor = 'ui' WHERE seq = 12`, 12, 'payload-changed'],
    [
      'an edit just after the split',
      `UPDATE audit SET actor = 'ui' WHERE seq = 13`,
      13,
      'payload-changed',
    ],
    ['a deletion in the second half', 'DELETE FROM audit WHERE seq = 18', 18, 'removed'],
    ['a deletion at the split', 'DELETE FROM audit WHERE seq = 12', 12, 'removed'],
    [
      'a deleted tail end of the first half',
      'DELETE FROM audit WHERE seq BETWEEN 10 AND 12',
      10,
      'removed',
    ],
  ])('agrees with one pass on %s', async (_name, sql, seq, reason) => {
    tamper(store.db, sql);
    expect((await both()).first_broken).toMatchObject({ seq, reason });
  });

  it('agrees with one pass on reordering and re-hashing in the second half', async () => {
    tamper(store.db, 'UPDATE audit SET seq = -15 WHERE seq = 15');
    tamper(store.db, 'UPDATE audit SET seq = 15 WHERE seq = 16');
    tamper(store.db, 'UPDATE audit SET seq = 16 WHERE seq = -15');
    expect((await both()).first_broken).toMatchObject({ seq: 15, reason: 'reordered' });
  });

  it('agrees with one pass against an anchor after a cut tail', async () => {
    const { anchor } = await t.cli.call('audit.verify', {});
    tamper(store.db, 'DELETE FROM audit WHERE seq > 20');
    expect((await both(anchor!)).first_broken).toMatchObject({ seq: 21, reason: 'truncated' });
  });
});

describe('KeyedMac', () => {
  it('equals node:crypto HMAC-SHA256 for any key and text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 100 }), fc.string(), (key, text) => {
        const k = Buffer.from(key);
        expect(new KeyedMac(k).hex(text)).toBe(hmacHex(k, text));
      }),
      { numRuns: 300 },
    );
  });
});
