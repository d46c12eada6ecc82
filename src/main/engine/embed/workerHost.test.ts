import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tinyModelRoot } from '../../../../test/helpers/models';
import { LociError } from '../../../shared/errors';
import { OnnxModel } from './onnxModel';
import { WorkerEmbedder } from './workerHost';

const tiny = tinyModelRoot({ dims: 8, words: ['alpha', 'beta', 'gamma'], id: 'tiny-worker' });
afterAll(() => rmSync(tiny.root, { recursive: true, force: true }));

describe('WorkerEmbedder', () => {
  it('gives the same vectors as the model run in this thread, for concurrent requests', async () => {
    const local = await OnnxModel.load(tiny.dir, { threads: 1 });
    const worker = await WorkerEmbedder.start(tiny.dir, { threads: 1 });
    try {
      expect(worker.id).toBe('tiny-worker');
      expect(worker.dims).toBe(8);
      const texts = ['alpha', 'beta gamma', 'gamma alpha beta', 'unknown words'];
      const [expected, ...parallel] = await Promise.all([
        local.embed(texts, 'passage'),
        ...texts.map((t) => worker.embed([t], 'passage')),
      ]);
      parallel.forEach(([v], i) => expect(Array.from(v!)).toEqual(Array.from(expected![i]!)));
    } finally {
      await worker.close();
      await local.close();
    }
  });

  it('posts a request at once, so the worker embeds while this thread is busy', async () => {
    const worker = await WorkerEmbedder.start(tiny.dir, { threads: 1 });
    try {
      await worker.embed(['alpha'], 'query'); // warm
      const inner = (worker as unknown as { worker: { postMessage(m: unknown): void } }).worker;
      const posted: unknown[] = [];
      const post = inner.postMessage.bind(inner);
      inner.postMessage = (m: unknown) => {
        posted.push(m);
        post(m);
      };
      const pending = worker.embed(['beta gamma'], 'query');
      // Not a microtask later: a recall goes on with its own work right after asking.
      expect(posted).toHaveLength(1);
      expect((await pending)[0]).toHaveLength(8);
    } finally {
      await worker.close();
    }
  });

  it('fails pending work when the worker dies, and starts a new one for the next call', async () => {
    const worker = await WorkerEmbedder.start(tiny.dir, { threads: 1 });
    try {
      const inner = (
        worker as unknown as {
          worker: { postMessage(m: unknown): void; terminate(): Promise<number> };
        }
      ).worker;
      // The request never reaches this worker, so it is still pending when the worker dies
      // (reaching it, the tiny model could answer before the end of the thread).
      inner.postMessage = () => undefined;
      const pending = worker.embed(['alpha beta'], 'passage');
      await inner.terminate();
      await expect(pending).rejects.toThrow(LociError);
      const [v] = await worker.embed(['alpha beta'], 'passage');
      expect(v).toHaveLength(8);
    } finally {
      await worker.close();
    }
  });

  it('reports a model that cannot load', async () => {
    await expect(WorkerEmbedder.start('/nonexistent/model')).rejects.toThrow(
      /could not be loaded: No model manifest/,
    );
  });
});
