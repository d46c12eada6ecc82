// The embedding worker thread: holds one OnnxModel (or, with no model installed, the
// hashing fallback for a backfill's bulk) and answers embed requests, so tokenising,
// inference and pooling never run on the thread that answers recalls. It knows nothing
// of stores or SQL; workerHost.ts is its only correspondent, and decides the order.
import { availableParallelism } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { HASH_MANIFEST, hashEmbed } from './hashEmbedder';
import type { ModelManifest } from './manifest';
import type { EmbedKind } from './types';

export type WorkerRequest =
  { id: number; op: 'embed'; texts: string[]; kind: EmbedKind } | { id: number; op: 'close' };

export type WorkerResponse =
  | { id: 0; op: 'ready'; manifest: ModelManifest }
  | { id: 0; op: 'failed'; message: string }
  | { id: number; op: 'vectors'; vectors: Float32Array[] }
  | { id: number; op: 'error'; message: string }
  | { id: number; op: 'closed' };

interface WorkerInit {
  /** The model's folder; null: the hashing fallback (no ONNX Runtime is loaded). */
  dir: string | null;
  threads?: number;
  batchSize?: number;
}

interface Model {
  manifest: ModelManifest;
  embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]>;
  close(): Promise<void>;
}

const port = parentPort;
if (!port) throw new Error('embed/worker.ts must run as a worker thread');

const init = workerData as WorkerInit;
let model: Model | null = null;

try {
  if (init.dir === null) {
    model = {
      manifest: HASH_MANIFEST,
      embed: (texts) => Promise.resolve(texts.map(hashEmbed)),
      close: () => Promise.resolve(),
    };
  } else {
    const { OnnxModel } = await import('./onnxModel');
    model = await OnnxModel.load(
      init.dir,
      {
        ...(init.threads ? { threads: init.threads } : {}),
        ...(init.batchSize ? { batchSize: init.batchSize } : {}),
      },
      availableParallelism(),
    );
  }
  port.postMessage({ id: 0, op: 'ready', manifest: model.manifest } satisfies WorkerResponse);
} catch (err) {
  port.postMessage({
    id: 0,
    op: 'failed',
    message: (err as Error).message,
  } satisfies WorkerResponse);
}

port.on('message', (req: WorkerRequest) => {
  void (async () => {
    if (req.op === 'close') {
      await model?.close();
      port.postMessage({ id: req.id, op: 'closed' } satisfies WorkerResponse);
      return;
    }
    try {
      if (!model) throw new Error('the model did not load');
      const vectors = await model.embed(req.texts, req.kind);
      port.postMessage(
        { id: req.id, op: 'vectors', vectors } satisfies WorkerResponse,
        vectors.map((v) => v.buffer as ArrayBuffer),
      );
    } catch (err) {
      port.postMessage({
        id: req.id,
        op: 'error',
        message: (err as Error).message,
      } satisfies WorkerResponse);
    }
  })();
});
