// Starting one of the engine's worker threads. Built, each worker is its own entry next
// to the engine's bundle (out/main/<name>.js, see electron.vite.config.ts); from the
// sources (development, tests) it is the TypeScript file loaded through tsx, registered
// first because Node 20's workers do not inherit the parent's module hooks. Benchmarks
// run the engine from its sources but its workers as built (LOCI_BUILT_WORKERS, the
// folder of the built entries), so that they measure the workers that ship and not
// tsx compiling one on its first message.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * @param here the caller's `import.meta.url`
 * @param built the built entry's file name (`embedWorker.js`)
 * @param source the source entry, relative to the caller (`./worker.ts`)
 */
export function spawnWorker(
  here: string,
  built: string,
  source: string,
  options: WorkerOptions = {},
): Worker {
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${built}`, here), options);
  const builtDir = process.env.LOCI_BUILT_WORKERS;
  if (builtDir) return new Worker(resolve(builtDir, built), options);
  const entry = new URL(source, here).href;
  const tsxPackage = createRequire(here).resolve('tsx/package.json');
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/**
 * Starts a worker that posts `{ op: 'ready' }` once it has loaded, and waits for that:
 * resolves with the worker, or with why it could not start (its file missing from a
 * broken build, an error while loading, no `ready` within `startupMs`). The caller
 * attaches its own listeners to a worker that started.
 */
export function startReadyWorker(
  spawn: () => Worker,
  startupMs: number,
  what: string,
): Promise<{ worker: Worker } | { failed: string }> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = spawn();
    } catch (err) {
      resolve({ failed: `the ${what} could not start: ${(err as Error).message}` });
      return;
    }
    const done = (result: { worker: Worker } | { failed: string }) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onEarlyEnd);
      worker.off('exit', onEarlyEnd);
      resolve(result);
    };
    const timer = setTimeout(() => {
      void worker.terminate();
      done({ failed: `the ${what} did not start in time` });
    }, startupMs);
    const onMessage = (m: { op?: unknown }) => {
      if (m?.op === 'ready') done({ worker });
    };
    const onEarlyEnd = (err?: Error) =>
      done({ failed: `the ${what} could not start: ${err?.message ?? 'it exited'}` });
    worker.on('message', onMessage);
    worker.on('error', onEarlyEnd);
    worker.on('exit', onEarlyEnd);
  });
}
