// Starts the verify worker for one range of the chain and hands back its verdict. Any
// failure to start or run it resolves to null, and the caller checks that range on its
// own thread: a missing worker file slows verification down, it never skips entries.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RangeSpec } from './verifyRange';
import type { VerifyWorkerData, VerifyWorkerMessage } from './verifyWorker';

/** Built: out/main/auditWorker.js beside this bundle; from sources: verifyWorker.ts through tsx. */
function spawnWorker(workerData: VerifyWorkerData): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./auditWorker.js', here), { workerData });
  const entry = new URL('./verifyWorker.ts', here).href;
  const tsxPackage = createRequire(here).resolve('tsx/package.json');
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { eval: true, workerData });
}

export interface RangeWorker {
  /** The first problem position (null: none), or null itself when the worker failed. */
  result: Promise<{ checked: number; problemAt: number | null } | null>;
  stop(): void;
}

export function startRangeWorker(
  file: string,
  keys: ReadonlyMap<string, Buffer>,
  spec: RangeSpec,
  onProgress: (checked: number) => void,
): RangeWorker {
  let worker: Worker | null = null;
  const result = new Promise<{ checked: number; problemAt: number | null } | null>((resolve) => {
    try {
      worker = spawnWorker({
        ...spec,
        file,
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
