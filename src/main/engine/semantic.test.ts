import { rmSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openTestEngine, tempDir, type TestEngine } from '../../../test/helpers/engine';
import { TEST_WORDS, tinyModelRoot } from '../../../test/helpers/models';
import type { EventMap } from '../../shared/events';
import { backfill, missingCount } from './embed/backfill';
import type { Embedder } from './embed/types';
import { HashEmbedder } from './embed/hashEmbedder';
import { readCalibration } from './recall/calibration';
import { Recognizer } from './recall/recognizer';
import { VectorIndex } from './recall/vectorIndex';
import { stmt } from './store/statements';

const tiny = tinyModelRoot({ dims: 16, words: TEST_WORDS, id: 'tiny-16' });
afterAll(() => rmSync(tiny.root, { recursive: true, force: true }));

const engines: TestEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});
async function open(options: Parameters<typeof openTestEngine>[0] = {}) {
  const e = await openTestEngine({ env: { LOCI_MODEL_PATH: tiny.root }, ...options });
  engines.push(e);
  return e;
}

const models = async (t: TestEngine) =>
  (
    stmt(
      (await t.engine.store(undefined)).db,
      'SELECT DISTINCT model FROM memory_embedding',
    ).all() as { model: string }[]
  ).map((r) => r.model);

describe('embeddings with a model installed', () => {
  it('uses the model, says semantic is on, and tags every vector with its model id', async () => {
    const t = await open();
    await t.cli.call('memory.rememberMany', {
      items: [
        { content: 'deploy the billing service to staging' },
        { content: 'the coffee machine is on the third floor' },
      ],
    });
    expect(await models(t)).toEqual(['tiny-16']);
    const stats = await t.cli.call('stats.get', {});
    expect(stats.vectors).toEqual({ model: 'tiny-16', semantic: 'on', embedded: 2, pending: 0 });
    const r = await t.cli.call('memory.recall', { query: 'staging billing rollout' });
    expect(r).toMatchObject({ how: 'hybrid', semantic: 'on' });
    expect(r.degraded).toEqual([]);
    expect(r.timings.embed_ms).toBeGreaterThan(0);
    const list = await t.cli.call('models.list', {});
    expect(list.active).toBe('tiny-16');
    expect(list.models.find((m) => m.id === 'tiny-16')).toMatchObject({
      installed: true,
      active: true,
      dir: tiny.dir,
    });
    // An installed model's size is what its files take on disk, never "unknown".
    const { readdirSync, statSync } = await import('node:fs');
    const { join } = await import('node:path');
    const manifest = JSON.parse(
      (await import('node:fs')).readFileSync(join(tiny.dir, 'manifest.json'), 'utf8'),
    ) as { files: Record<string, unknown> };
    const onDisk = readdirSync(tiny.dir)
      .filter((f) => f in manifest.files)
      .reduce((n, f) => n + statSync(join(tiny.dir, f)).size, 0);
    expect(list.models.find((m) => m.id === 'tiny-16')?.size_bytes).toBe(onDisk);
    expect(onDisk).toBeGreaterThan(0);
  });

  it('re-embeds everything, with progress, when the model changes, and never mixes models', async () => {
    const t = await open();
    await t.cli.call('memory.rememberMany', {
      items: Array.from({ length: 40 }, (_, i) => ({
        content: `runbook ${i}: restart the ingest worker and check the queue depth`,
      })),
    });
    expect(await models(t)).toEqual(['tiny-16']);
    const progress: EventMap['embedding.progressed'][] = [];
    const off = t.engine.events.on('embedding.progressed', (p) => progress.push(p));
    const switched = await t.cli.call('models.use', { id: 'none' });
    expect(switched).toMatchObject({ active: 'hash-384-v1', semantic: 'off' });
    // Until the re-embed has run, no old-model vector is searched.
    await t.cli.call('embedding.backfill', {});
    off();
    expect(await models(t)).toEqual(['hash-384-v1']);
    expect(progress.at(-1)).toEqual({
      store: 'default',
      model: 'hash-384-v1',
      done: 40,
      total: 40,
    });
    expect(progress.length).toBeGreaterThan(1);
    const r = await t.cli.call('memory.recall', { query: 'ingest worker queue' });
    expect(r.semantic).toBe('off');
    await t.cli.call('models.use', { id: 'auto' });
    await t.cli.call('embedding.backfill', {});
    expect(await models(t)).toEqual(['tiny-16']);
  });

  it('searches only vectors of the active model', async () => {
    const t = await open();
    await t.cli.call('memory.remember', { content: 'deploy the billing service to staging' });
    const store = await t.engine.store(undefined);
    // A vector of another model sneaks in (say, left by a crash mid-switch): it is not searched.
    stmt(store.db, `UPDATE memory_embedding SET model = 'other-model'`).run();
    const index = VectorIndex.load(store.db, 'tiny-16', 16);
    expect(index.size).toBe(0);
    expect(missingCount(store.db, 'tiny-16')).toBe(1);
  });

  it('resumes an interrupted backfill after a restart', async () => {
    const dir = tempDir();
    const first = await openTestEngine({ dataDir: dir, env: { LOCI_MODEL_PATH: tiny.root } });
    await first.cli.call('memory.rememberMany', {
      items: Array.from({ length: 10 }, (_, i) => ({
        content: `note ${i} about the staging cluster and its database pool`,
      })),
    });
    // As if the process died after embedding only some of them.
    stmt(
      (await first.engine.store(undefined)).db,
      'DELETE FROM memory_embedding WHERE rid % 3 = 0',
    ).run();
    await first.engine.close();

    const second = await open({ dataDir: dir, embedWrites: 'background' });
    expect((await second.cli.call('stats.get', {})).vectors.pending).toBe(3);
    expect((await second.cli.call('embedding.backfill', {})).pending).toBe(0);
    expect((await second.cli.call('stats.get', {})).vectors.embedded).toBe(10);
  });

  it('never stores a vector of text that changed while it was being embedded', async () => {
    const t = await open({ env: {} });
    const { id } = await t.cli.call('memory.remember', {
      content: 'The cache TTL is five minutes.',
    });
    const store = await t.engine.store(undefined);
    stmt(store.db, 'DELETE FROM memory_embedding').run();
    const hash = new HashEmbedder();
    const editing: Embedder = {
      id: hash.id,
      dims: hash.dims,
      semantic: false,
      maxTokens: hash.maxTokens,
      close: () => hash.close(),
      embed: async (texts, kind) => {
        // The memory is edited while its batch is in flight.
        stmt(
          store.db,
          `UPDATE memory SET content = 'The cache TTL is ten minutes.', content_hash = 'changed' WHERE id = ?`,
        ).run(id);
        return hash.embed(texts, kind);
      },
    };
    const index = new VectorIndex(hash.id, hash.dims);
    await backfill(store.db, editing, index, Date.now);
    expect(index.size).toBe(0);
    expect(missingCount(store.db, hash.id)).toBe(1);
  });

  it('embeds and calibrates in the background as a daemon store grows, and still closes', async () => {
    const t = await openTestEngine({ env: {}, embedWrites: 'background' });
    const contents = Array.from(
      { length: 30 },
      (_, i) => `Background note ${i} about the release train.`,
    );
    for (const content of contents) await t.cli.call('memory.remember', { content });
    const store = await t.engine.store(undefined);
    const hash = new HashEmbedder();
    const deadline = Date.now() + 10_000;
    while (readCalibration(store, hash.id) === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(missingCount(store.db, hash.id)).toBe(0);
    expect(readCalibration(store, hash.id)).not.toBeNull();
    // Recalibration runs inside the backfill; closing must not wait on itself.
    const closed = await Promise.race([
      t.close().then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('hung'), 5_000)),
    ]);
    expect(closed).toBe('closed');
  });

  it('reads its writes in the daemon: a recall right after a remember is hybrid and finds it by vector', async () => {
    const t = await open({ embedWrites: 'background' });
    const agent = t.agent('cursor');
    const { id } = await agent.call('memory.remember', {
      content: 'the billing service deploys to staging first',
    });
    const r = await agent.call('memory.recall', { query: 'billing deploy staging', explain: true });
    expect(r.how).toBe('hybrid');
    expect(r.semantic).toBe('on');
    expect(r.degraded.join(' ')).not.toMatch(/not embedded yet/);
    const vector = r.trace!.stages.find((s) => s.name === 'vector')!;
    expect(vector.items.map((i) => i.id)).toContain(id);
    // A batch too large to wait for at write time is waited for by the next recall.
    const { results } = await agent.call('memory.rememberMany', {
      items: Array.from({ length: 40 }, (_, i) => ({
        content: `the orders api pool size is ${i + 10} connections on host ${i}`,
      })),
    });
    const again = await agent.call('memory.recall', {
      query: 'orders api pool size',
      explain: true,
    });
    expect(again.how).toBe('hybrid');
    expect(again.degraded.join(' ')).not.toMatch(/not embedded yet/);
    const stats = await t.cli.call('stats.get', {});
    expect(stats.vectors.pending).toBe(0);
    expect(results).toHaveLength(40);
  });

  it('gives way to a burst of large writes in the daemon, and embeds them once it ends', async () => {
    const t = await open({ embedWrites: 'background' });
    // A small write embeds its own memory at once: the model is loaded before the burst.
    await t.cli.call('memory.remember', { content: 'the orders api runs on three hosts' });
    // When each batch of vectors landed (the backfill's progress past its start).
    const landed: number[] = [];
    const off = t.engine.events.on('embedding.progressed', (p) => {
      if (p.done > 0) landed.push(performance.now());
    });
    try {
      for (let k = 0; k < 6; k++) {
        await t.cli.call('memory.rememberMany', {
          items: Array.from({ length: 40 }, (_, i) => ({
            content: `batch ${k}: the orders api pool size is ${i + 10} on host ${i}`,
          })),
        });
      }
      const burstEnded = performance.now();
      expect(landed.filter((at) => at < burstEnded)).toEqual([]);
      expect((await t.cli.call('stats.get', {})).vectors.pending).toBe(240);
      await t.engine.semantic.idle();
      expect(landed.length).toBeGreaterThan(0);
      expect((await t.cli.call('stats.get', {})).vectors.pending).toBe(0);
    } finally {
      off();
    }
  });

  it('offers the default model while none is installed, until a person declines', async () => {
    const bare = await openTestEngine({ env: {} });
    engines.push(bare);
    const list = await bare.cli.call('models.list', {});
    expect(list.offer).toMatchObject({
      id: 'all-minilm-l6-v2-int8',
      license: 'Apache-2.0',
      size_bytes: 23_000_000,
      approximate: true,
    });
    const declined = await bare.cli.call('models.decline', {});
    expect(declined.offer).toBeNull();
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    expect(JSON.parse(readFileSync(join(bare.dir, 'config.json'), 'utf8'))).toMatchObject({
      embedding: { offer: 'declined' },
    });
    // With a model installed there is nothing to offer.
    const t = await open();
    expect((await t.cli.call('models.list', {})).offer).toBeNull();
  });

  it('keeps track of what waits for a vector through creates, edits, forgets and erases', async () => {
    const t = await openTestEngine({ env: {}, embedWrites: 'background' });
    engines.push(t);
    const store = await t.engine.store(undefined);
    const model = new HashEmbedder().id;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        (await t.cli.call('memory.remember', { content: `Tracked note ${i} on the rollout.` })).id,
      );
    }
    await t.engine.semantic.idle();
    await t.cli.call('memory.update', {
      id: ids[0]!,
      content: 'Tracked note zero, edited: the rollout moved to May.',
    });
    await t.cli.call('memory.forget', { id: ids[1]! });
    await t.cli.call('memory.erase', { id: ids[2]! });
    await t.cli.call('memory.restore', { id: ids[1]! });
    await t.cli.call('memory.rememberMany', {
      items: [{ content: 'A late note.' }, { content: 'Another late note.' }],
    });
    await t.engine.semantic.idle();
    expect(missingCount(store.db, model)).toBe(0);
    const stats = await t.cli.call('stats.get', {});
    expect(stats.vectors.pending).toBe(0);
    expect(stats.vectors.embedded).toBe(stats.memories.live);
  });

  it('embeds only what a one-shot write made when a large backlog waits (after a model change)', async () => {
    const t = await open();
    await t.cli.call('memory.rememberMany', {
      items: Array.from({ length: 600 }, (_, i) => ({
        content: `deploy note ${i} for the ingest service`,
      })),
    });
    await t.cli.call('models.use', { id: 'none' });
    // The next write embeds itself, not the 600 waiting for the new model.
    const { id } = await t.cli.call('memory.remember', {
      content: 'The ingest service moved to the new cluster.',
    });
    const store = await t.engine.store(undefined);
    const mine = stmt(
      store.db,
      'SELECT e.model FROM memory_embedding e JOIN memory m ON m.rid = e.rid WHERE m.id = ?',
    ).all(id) as { model: string }[];
    expect(mine.map((r) => r.model)).toEqual(['hash-384-v1']);
    expect((await t.cli.call('stats.get', {})).vectors).toMatchObject({
      embedded: 1,
      pending: 600,
    });
    const r = await t.cli.call('memory.recall', { query: 'ingest service cluster' });
    expect(r.degraded.join(' ')).toMatch(/600 memories are not embedded yet/);
  });

  it('drops an edited memory from the pre-filter until its new vector is in', async () => {
    const t = await open({ env: {}, embedWrites: 'background' });
    const { id } = await t.cli.call('memory.remember', {
      content: 'The cache TTL is five minutes.',
    });
    await t.engine.semantic.idle();
    const index = (
      t.engine.semantic as unknown as { runtimes: Map<string, { index: VectorIndex }> }
    ).runtimes.get('default')!.index;
    expect(index.size).toBe(1);
    // The moment the edit is announced, its old vector is deleted and out of the index.
    let sizeAtEdit = -1;
    const off = t.engine.events.on('memory.changed', () => (sizeAtEdit = index.size));
    await t.cli.call('memory.update', { id, content: 'The cache TTL is ten minutes now.' });
    off();
    expect(sizeAtEdit).toBe(0);
    await t.engine.semantic.idle();
    expect(index.size).toBe(1);
  });
});

describe('the recogniser kept up by writes', () => {
  const recognizerOf = (t: TestEngine) =>
    (
      t.engine.semantic as unknown as {
        runtimes: Map<string, { recognizer: { docs: Map<number, unknown> } | null }>;
      }
    ).runtimes.get('default')!.recognizer;

  it('waits while large writes follow one another in the daemon; a recall takes in the rest first', async () => {
    const t = await open({ env: {}, embedWrites: 'background' });
    await t.cli.call('memory.remember', { content: 'The coffee machine is on the third floor.' });
    await t.cli.call('memory.recall', { query: 'coffee machine', rehearse: false });
    expect(recognizerOf(t)?.docs.size).toBe(1);
    let last: string | undefined;
    for (let k = 0; k < 4; k++) {
      const { results } = await t.cli.call('memory.rememberMany', {
        items: Array.from({ length: 40 }, (_, i) => ({
          title: `Runbook ${k}-${i} for the ${['billing', 'orders', 'search'][i % 3]} service`,
          content: `Batch ${k}, note ${i}: restart the workers, then check the queue depth.`,
        })),
      });
      last = results.at(-1)?.id;
    }
    // The burst has just ended: none of it is in yet.
    expect(recognizerOf(t)?.docs.size).toBe(1);
    const r = await t.cli.call('memory.recall', {
      query: 'Runbook 3-39 for the billing service',
      rehearse: false,
    });
    expect(r.how).toBe('fastpath');
    expect(r.results[0]?.id).toBe(last);
    expect(recognizerOf(t)?.docs.size).toBe(161);
  });

  it('takes in a burst once writes pause, a slice at a time', async () => {
    const t = await open({ env: {}, embedWrites: 'background' });
    await t.cli.call('memory.recall', { query: 'anything', rehearse: false });
    for (let k = 0; k < 3; k++) {
      await t.cli.call('memory.rememberMany', {
        items: Array.from({ length: 40 }, (_, i) => ({ content: `Note ${k}-${i} on queues.` })),
      });
    }
    await t.engine.semantic.idle();
    expect(recognizerOf(t)?.docs.size).toBe(120);
  });

  it('takes in a batch once, by the next recall, and applies a change after what it waits for', async () => {
    const t = await open({ env: {} });
    await t.cli.call('memory.remember', { content: 'The coffee machine is on the third floor.' });
    // A recall builds the store's recogniser; from then on writes keep it up.
    await t.cli.call('memory.recall', { query: 'coffee machine', rehearse: false });
    expect(recognizerOf(t)?.docs.size).toBe(1);
    const add = vi.spyOn(Recognizer.prototype, 'add');
    try {
      const { results } = await t.cli.call('memory.rememberMany', {
        items: [
          {
            title: 'Quarterly billing runbook',
            content: 'To close a quarter in billing: freeze the invoices, then export the ledgers.',
          },
          {
            title: 'Staging deploy checklist',
            content: 'Before a deploy to staging: run the migrations, seed, then smoke test.',
          },
        ],
      });
      const r = await t.cli.call('memory.recall', {
        query: 'quarterly billing runbook',
        explain: true,
        rehearse: false,
      });
      expect(r.how).toBe('fastpath');
      expect(r.results[0]?.id).toBe(results[0]?.id);
      expect(add).toHaveBeenCalledTimes(2);
      // A change that comes before the recogniser took a write in is applied after it:
      // here a memory is announced as created again and forgotten in the same turn.
      const store = await t.engine.store(undefined);
      const row = stmt(store.db, 'SELECT rid, id, title, content FROM memory WHERE id = ?').get(
        results[1]?.id,
      ) as { rid: number; id: string; title: string; content: string };
      t.engine.semantic.memoriesCreated(store, [row]);
      stmt(store.db, 'UPDATE memory SET deleted_at = 1 WHERE rid = ?').run(row.rid);
      t.engine.semantic.memoriesChanged(store, [row.id]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(recognizerOf(t)?.docs.size).toBe(2);
      expect(recognizerOf(t)?.docs.has(row.rid)).toBe(false);
    } finally {
      add.mockRestore();
    }
  });
});
