import { statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import fc from 'fast-check';
import {
  canonicalJson,
  entryPayload,
  entryPayloadWithData,
  GENESIS_HASH,
  hmacHex,
  type AuditRow,
} from './chain';
import { AuditKeyring } from './keyring';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

async function rows(): Promise<AuditRow[]> {
  return (await t.engine.store(undefined)).db
    .prepare('SELECT * FROM audit ORDER BY seq')
    .all() as AuditRow[];
}

describe('the audit chain', () => {
  it('appends one chained, keyed entry per mutation with its actor', async () => {
    const a = await t.cli.call('memory.remember', { content: 'Audited memory number one' });
    const b = await t
      .agent('cursor')
      .call('memory.remember', { content: 'Audited memory number two' });
    await t.cli.call('memory.update', { id: a.id, title: 'Renamed' });
    await t.cli.call('link.create', { from: a.id, to: b.id });
    await t.cli.call('link.remove', { from: a.id, to: b.id });
    await t.cli.call('memory.forget', { id: b.id });
    await t.cli.call('memory.restore', { id: b.id });
    await t.cli.call('memory.erase', { id: b.id });
    // Reads leave no audit entry.
    await t.cli.call('memory.recall', { query: 'audited memory' });
    await t.cli.call('memory.get', { id: a.id });

    const chain = await rows();
    expect(chain.map((r) => r.action)).toEqual([
      'memory.create',
      'memory.create',
      'memory.update',
      'link.create',
      'link.remove',
      'memory.forget',
      'memory.restore',
      'memory.erase',
    ]);
    expect(chain.map((r) => r.actor)).toEqual([
      'cli',
      'mcp:cursor',
      'cli',
      'cli',
      'cli',
      'cli',
      'cli',
      'cli',
    ]);
    expect(chain.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    const keyring = AuditKeyring.loadOrCreate(t.dir, 'default');
    let prev = GENESIS_HASH;
    for (const row of chain) {
      expect(row.prev_hash).toBe(prev);
      const expected = hmacHex(
        keyring.key(row.key_id),
        entryPayload({ ...row, data: JSON.parse(row.data) }),
      );
      expect(row.hash).toBe(expected);
      prev = row.hash;
    }
    const update = JSON.parse(chain[2]!.data) as { fields: string[]; old: string; new: string };
    expect(update.fields).toEqual(['title']);
    expect(update.old).not.toBe(update.new);
  });

  it('chains a batch write entry after entry, in the order it wrote them', async () => {
    await t.cli.call('memory.remember', { content: 'Written before the batch' });
    const items = Array.from({ length: 70 }, (_, i) => ({ content: `Batched memory ${i}` }));
    // A duplicate within the batch writes nothing, so it records nothing either.
    items.splice(10, 0, { content: 'Batched memory 3' });
    const r = await t.cli.call('memory.rememberMany', { items });
    const chain = await rows();
    const created = r.results.filter((x) => !x.duplicate).map((x) => x.id);
    expect(created).toHaveLength(70);
    expect(chain.slice(1).map((x) => x.target)).toEqual(created);
    expect(chain.map((x) => x.seq)).toEqual(chain.map((_, i) => i + 1));
    const keyring = AuditKeyring.loadOrCreate(t.dir, 'default');
    let prev = GENESIS_HASH;
    for (const row of chain) {
      expect(row.prev_hash).toBe(prev);
      expect(row.hash).toBe(
        hmacHex(keyring.key(row.key_id), entryPayload({ ...row, data: JSON.parse(row.data) })),
      );
      prev = row.hash;
    }
    // A memory's fingerprint is the keyed hash of the canonical JSON of its state.
    const first = JSON.parse(chain[1]!.data) as { new: string };
    const m = await t.cli.call('memory.get', { id: created[0]! });
    expect(first.new).toBe(
      hmacHex(
        keyring.key(chain[1]!.key_id),
        canonicalJson({
          title: m.title,
          content: m.content,
          kind: m.kind,
          tags: m.tags,
          pinned: m.pinned,
          visibility: m.visibility,
          trust: m.trust,
          valid_from: null,
          valid_to: null,
        }),
      ),
    );
  });

  it('forbids changing or deleting audit rows', async () => {
    await t.cli.call('memory.remember', { content: 'Something to audit here' });
    const db = (await t.engine.store(undefined)).db;
    expect(() => db.prepare(`UPDATE audit SET actor = 'someone else'`).run()).toThrow(
      /append-only/,
    );
    expect(() => db.prepare('DELETE FROM audit').run()).toThrow(/append-only/);
  });

  it('keeps its key outside the database, readable by the owner only', async () => {
    await t.cli.call('memory.remember', { content: 'Something to audit here' });
    const file = AuditKeyring.keyFile(t.dir, 'default');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rolls the audit entry back with a failed change', async () => {
    const a = await t.cli.call('memory.remember', { content: 'A memory to link from' });
    const before = (await rows()).length;
    await t.cli
      .call('link.create', { from: a.id, to: '01HZZZZZZZZZZZZZZZZZZZZZZZ' })
      .catch(() => undefined);
    expect((await rows()).length).toBe(before);
  });
});

describe('the audit payload', () => {
  it('written by hand is byte for byte the canonical JSON of the entry', () => {
    fc.assert(
      fc.property(
        fc.record({
          seq: fc.nat(),
          at: fc.nat(),
          actor: fc.string(),
          action: fc.string(),
          target: fc.option(fc.string()),
          prev_hash: fc.string(),
        }),
        fc.jsonValue(),
        (row, data) => {
          const canonical = canonicalJson({
            v: 1,
            seq: row.seq,
            at: row.at,
            actor: row.actor,
            action: row.action,
            target: row.target,
            data,
            prev: row.prev_hash,
          });
          expect(entryPayloadWithData(row, canonicalJson(data))).toBe(canonical);
          expect(entryPayload({ ...row, data })).toBe(canonical);
        },
      ),
      { numRuns: 500 },
    );
  });
});
