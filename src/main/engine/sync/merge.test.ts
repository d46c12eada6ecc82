// The merge rules as properties: any set of operations, delivered in any order, in any
// batches, with duplicates, gives the same state — in the pure folds and in a real
// SQLite replica (memories, versions, tags, links, outcomes, tombstones).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../../test/helpers/engine';
import { dumpReplica } from '../../../../test/helpers/sync';
import { formatHlc, HlcClock } from './hlc';
import { receive } from './materialize';
import { entityOf, foldLink, foldMemory, type Op, type OpBody } from './ops';
import type { WireOp } from './wire';

const DEVICES = ['aaaaaaaa', 'bbbbbbbb', 'cccccccc'];
const IDS = ['m1', 'm2', 'm3'];

const snapshot = (id: string, title: string, content: string, tags: string[]): OpBody => ({
  k: 'mem',
  id,
  snap: true,
  f: {
    title,
    content,
    kind: 'semantic',
    layer: 'working',
    source: 'user',
    evidence: [],
    tags,
    pinned: false,
    valid_from: null,
    valid_to: null,
    occurred_at: null,
    session: null,
    speaker: null,
    forgotten: null,
    created_at: 1_000,
    salience: 0.5,
    valence: 0,
    arousal: 0,
  },
  a: 'user',
});

const id = fc.constantFrom(...IDS);
const body: fc.Arbitrary<OpBody> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        id,
        fc.constantFrom('T1', 'T2'),
        fc.constantFrom('alpha note', 'beta note'),
        fc.subarray(['x', 'y']),
      )
      .map(([i, t, c, g]) => snapshot(i, t, c, g)),
  },
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        id,
        fc.record(
          {
            title: fc.constantFrom('T3', 'T4'),
            content: fc.constantFrom('gamma note', 'delta note', 'epsilon note'),
            tags: fc.subarray(['x', 'y', 'z']),
            pinned: fc.boolean(),
            forgotten: fc.constantFrom(null, 1_500),
          },
          { requiredKeys: [] },
        ),
        fc.boolean(),
      )
      .map(([i, f, ver]): OpBody => ({
        k: 'mem',
        id: i,
        f,
        ...(ver ? { ver: true } : {}),
        a: 'cli',
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(id, fc.constantFrom('erased', 'private') as fc.Arbitrary<'erased' | 'private'>)
      .map(([i, why]): OpBody => ({ k: 'gone', id: i, why, a: 'cli' })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(id, id, fc.boolean(), fc.constantFrom(0.2, 0.5, 0.9))
      .filter(([a, b]) => a !== b)
      .map(([from, to, on, w]): OpBody => ({
        k: 'link',
        from,
        to,
        type: 'related',
        on,
        w,
        a: 'cli',
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(id, fc.boolean(), fc.integer({ min: 1_000, max: 2_000 }))
      .map(([i, ok, at]): OpBody => ({ k: 'outcome', id: i, ok, niche: null, at, a: 'cli' })),
  },
);

const op: fc.Arbitrary<Op> = fc
  .tuple(
    fc.integer({ min: 1_000, max: 1_040 }),
    fc.integer({ min: 0, max: 3 }),
    fc.constantFrom(...DEVICES),
    body,
  )
  .map(([wall, counter, device, b]) => ({ h: formatHlc({ wall, counter, device }), b }));

const ops = fc.uniqueArray(op, { selector: (o) => o.h, minLength: 1, maxLength: 40 });

const wire = (o: Op): WireOp => {
  const { e, r } = entityOf(o.b);
  return {
    h: o.h,
    d: o.h.split('-')[1] as string,
    e,
    r,
    ...(o.b.k === 'gone' ? { x: true as const } : {}),
    b: o.b,
  };
};

describe('the folds', () => {
  it('give the same memory and link state whatever the order, with duplicates', () => {
    fc.assert(
      fc.property(ops, fc.infiniteStream(fc.nat()), (list, seeds) => {
        const shuffled = [...list, ...list.slice(0, 3)].sort(
          () => ((seeds.next().value as number) % 3) - 1,
        );
        for (const i of IDS) {
          const mine = (l: Op[]) =>
            l.filter((o) => (o.b.k === 'mem' || o.b.k === 'gone') && o.b.id === i);
          expect(foldMemory(mine(shuffled))).toEqual(foldMemory(mine(list)));
        }
        const links = (l: Op[]) =>
          l.filter((o) => o.b.k === 'link' && o.b.from === 'm1' && o.b.to === 'm2');
        expect(foldLink(links(shuffled))).toEqual(foldLink(links(list)));
      }),
      { numRuns: 300 },
    );
  });

  it('lets erase win over any later change, and keeps replaced text as versions', () => {
    const h = (wall: number) => formatHlc({ wall, counter: 0, device: 'aaaaaaaa' });
    const fold = foldMemory([
      { h: h(1), b: snapshot('m1', 'T', 'first', []) },
      { h: h(2), b: { k: 'mem', id: 'm1', f: { content: 'second' }, a: 'cli' } },
      { h: h(3), b: { k: 'mem', id: 'm1', f: { content: 'third' }, a: 'cli' } },
    ]);
    expect(fold.present).toBe(true);
    expect(fold.fields.content).toBe('third');
    expect(fold.versions.map((v) => v.content)).toEqual(['first', 'second']);
    const erased = foldMemory([
      { h: h(5), b: { k: 'mem', id: 'm1', f: { content: 'after' }, a: 'cli' } },
      { h: h(1), b: snapshot('m1', 'T', 'first', []) },
      { h: h(2), b: { k: 'gone', id: 'm1', why: 'erased', a: 'cli' } },
    ]);
    expect(erased).toMatchObject({ erased: true, present: false });
  });
});

describe('a SQLite replica', () => {
  let t: TestEngine;
  let n = 0;
  beforeAll(async () => {
    t = await openTestEngine();
  });
  afterAll(async () => {
    await t.close();
  });

  async function freshStore() {
    const name = `replica${n++}`;
    await t.cli.call('store.create', { name });
    return t.engine.store(name);
  }

  /** Receives the operations in batches of `size`, as one device would from the others. */
  function deliver(store: Awaited<ReturnType<typeof freshStore>>, delivery: Op[], size: number) {
    const clock = new HlcClock('dddddddd', () => 2_000);
    for (let i = 0; i < delivery.length; i += size) {
      receive(delivery.slice(i, i + size).map(wire), {
        db: store.db,
        audit: store.audit,
        clock,
        now: 2_000,
        origin: 'test',
      });
    }
  }

  it('ends in the same state whatever the order and batching of delivery', async () => {
    await fc.assert(
      fc.asyncProperty(
        ops,
        fc.infiniteStream(fc.nat()),
        fc.integer({ min: 1, max: 7 }),
        async (list, seeds, batch) => {
          const [a, b] = [await freshStore(), await freshStore()];
          deliver(a, list, list.length);
          const shuffled = [...list, ...list.slice(0, 5)].sort(
            () => ((seeds.next().value as number) % 3) - 1,
          );
          deliver(b, shuffled, batch);
          expect(dumpReplica(b.db)).toEqual(dumpReplica(a.db));
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('drops what was said of a memory before it was withdrawn, whether the withdrawal comes first or last', async () => {
    const at = (wall: number, device = 'aaaaaaaa') => formatHlc({ wall, counter: 0, device });
    const all: Op[] = [
      { h: at(1_000), b: snapshot('m1', 'T', 'first note', []) },
      { h: at(1_000, 'bbbbbbbb'), b: snapshot('m2', 'T', 'second note', []) },
      {
        h: at(1_001),
        b: { k: 'link', from: 'm1', to: 'm2', type: 'related', on: true, w: 0.5, a: 'cli' },
      },
      {
        h: at(1_001, 'cccccccc'),
        b: { k: 'outcome', id: 'm2', ok: true, niche: null, at: 1_001, a: 'cli' },
      },
      // m2 made private on its device, then shared again: a new snapshot.
      { h: at(1_002, 'bbbbbbbb'), b: { k: 'gone', id: 'm2', why: 'private', a: 'cli' } },
      { h: at(1_003, 'bbbbbbbb'), b: snapshot('m2', 'T', 'second note', []) },
    ];
    const [gone, again] = [all[4] as Op, all[5] as Op];
    const orders = [
      all,
      [...all].reverse(),
      [gone, ...all.filter((o) => o !== gone)],
      [...all.filter((o) => o !== gone && o !== again), gone, again],
      [...all.filter((o) => o !== gone), gone],
    ];
    for (const order of orders) {
      for (const size of [1, order.length]) {
        const store = await freshStore();
        deliver(store, order, size);
        const dump = dumpReplica(store.db);
        expect(dump.memories.map((m) => m.id)).toEqual(['m1', 'm2']);
        expect(dump.links).toEqual([]);
        expect(dump.outcomes).toEqual([]);
      }
    }
  });

  it('refuses, and reports, an operation that is not one: a forged clock, a body it does not know, a wrong entity', async () => {
    const store = await freshStore();
    const clock = new HlcClock('dddddddd', () => 2_000);
    const good = wire({
      h: formatHlc({ wall: 1_500, counter: 0, device: 'aaaaaaaa' }),
      b: snapshot('m1', 'T', 'kept note', []),
    });
    const ahead = wire({
      h: formatHlc({ wall: 2_000 + 30 * 86_400_000, counter: 0, device: 'aaaaaaaa' }),
      b: snapshot('m2', 'T', 'future note', []),
    });
    const unknown = {
      ...good,
      h: formatHlc({ wall: 1_501, counter: 0, device: 'aaaaaaaa' }),
      b: { k: 'rewrite-history' },
    };
    const misfiled = {
      ...good,
      h: formatHlc({ wall: 1_502, counter: 0, device: 'aaaaaaaa' }),
      e: 'm:m3',
    };
    const r = receive([good, ahead, unknown, misfiled], {
      db: store.db,
      audit: store.audit,
      clock,
      now: 2_000,
      origin: 'test',
    });
    expect(r.applied).toBe(1);
    expect(r.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/30 days ahead/),
      expect.stringMatching(/not an operation Loci knows/),
      expect.stringMatching(/does not match its body/),
    ]);
    expect(clock.aheadBy()).toBe(0);
  });
});
