import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnWorker, startReadyWorker } from './workers';

const saved = process.env.LOCI_BUILT_WORKERS;
afterEach(() => {
  if (saved === undefined) delete process.env.LOCI_BUILT_WORKERS;
  else process.env.LOCI_BUILT_WORKERS = saved;
});

describe('spawnWorker from the sources', () => {
  it('starts the built entry from LOCI_BUILT_WORKERS when it is set (benchmarks)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loci-workers-'));
    writeFileSync(
      join(dir, 'probe.js'),
      "import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ op: 'ready' });\n",
    );
    process.env.LOCI_BUILT_WORKERS = dir;
    const started = await startReadyWorker(
      // The source entry does not exist: only the built one can answer.
      () => spawnWorker(import.meta.url, 'probe.js', './no-such-worker.ts'),
      30_000,
      'probe worker',
    );
    expect(started).toHaveProperty('worker');
    if ('worker' in started) await started.worker.terminate();
  });

  it('without it, loads the source entry (and says why one cannot start)', async () => {
    delete process.env.LOCI_BUILT_WORKERS;
    const started = await startReadyWorker(
      () => spawnWorker(import.meta.url, 'probe.js', './no-such-worker.ts'),
      30_000,
      'probe worker',
    );
    expect(started).toEqual({ failed: expect.stringContaining('probe worker') });
  });
});
