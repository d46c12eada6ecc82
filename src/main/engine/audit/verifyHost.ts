// Starts the verify worker for one range of the chain and hands back its verdict. Any
// failure to start or run it resolves to null, and the caller checks that range on its
// own thread: a missing worker file slows verification down, it never skips entries.
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../workers';
import type { RangeSpec } from './verifyRange';
import type { VerifyWorkerData, VerifyWorkerMessage } from './verifyWorker';

/** Built: out/main/auditWorker.js beside this bundle; from sources: verifyWorker.ts through tsx. */
function spawnVerifyWorker(workerData: VerifyWorkerData): Worker {
  return spawnWorker(import.meta.url, 'auditWorker.js', './verifyWorker.ts', { workerData });
}

export interface RangeWorker {
  /** The first problem position (null: none), or null itself when the worker failed. */
  result: Promise<{ checked: number; problemAt: number | null } | null>;
  stop(): void;
}

export function startRangeWorker(
  file: string,
  dbKey: Buffer | null,
  keys: ReadonlyMap<string, Buffer>,
  spec: RangeSpec,
  onProgress: (checked: number) => void,
): RangeWorker {
  let worker: Worker | null = null;
  const result = new Promise<{ checked: number; problemAt: number | null } | null>((resolve) => {
    try {
      worker = spawnVerifyWorker({
        ...spec,
        file,
        dbKey: dbKey ? dbKey.toString('hex') : null,
        keys: Object.fromEntries([...keys].map(([id, key]) => [id, key.toString('base64')])),
      });
    } catch {
      resolve(null);
      return;
    }
    worker.on('message', (m: VerifyWorkerMessage) => {
      if (m.op === 'progress') onProgress(m.checked);
      else if (m.op === 'done') resolve({ checked: m.checked, problemAt: m.problemAt });
      else resolve(null);
    });
    worker.on('error', () => resolve(null));
    worker.on('exit', () => resolve(null));
  });
  return {
    result,
    stop: () => void worker?.terminate(),
  };
}
