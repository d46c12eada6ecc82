// Starting one of the engine's worker threads. Built, each worker is its own entry next
// to the engine's bundle (out/main/<name>.js, see electron.vite.config.ts); from the
// sources (development, tests) it is the TypeScript file loaded through tsx, registered
// first because Node 20's workers do not inherit the parent's module hooks.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
  const entry = new URL(source, here).href;
  const tsxPackage = createRequire(here).resolve('tsx/package.json');
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(code, { ...options, eval: true });
}
