// The main-thread side of the parser worker: one worker, one file at a time, with a
// wall-clock budget per file and a V8 heap budget. A file past either budget gets its
// worker terminated and is reported as failed; the next file starts a fresh worker, so
// a hostile file never takes the engine down.
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../workers';
import type { Chunk, DocInfo, ParseRequest, ParseResponse } from './types';

export type ParseOutcome =
  { ok: true; info: DocInfo; chunks: Chunk[] } | { ok: false; reason: string };

/** Built: out/main/ingestWorker.js beside this bundle; from sources: worker.ts through tsx. */
function spawnParserWorker(heapMb: number): Worker {
  const resourceLimits = {
    maxOldGenerationSizeMb: heapMb,
    maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(heapMb / 8))),
    stackSizeMb: 4,
  };
  return spawnWorker(import.meta.url, 'ingestWorker.js', './worker.ts', { resourceLimits });
}

interface Job {
  req: ParseRequest;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  resolve: (o: ParseOutcome) => void;
}

const CANCELLED: ParseOutcome = {
  ok: false,
  reason: 'the import was cancelled while this file was read',
};

export class ParserPool {
  private worker: Worker | null = null;
  private queue: Job[] = [];
  private running: Job | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly heapMb: number) {}

  /**
   * Parses one file; never rejects: a failure is an outcome with a reason. Aborting the
   * signal (a cancelled import) stops the parse at once, worker and all.
   */
  parse(
    req: Omit<ParseRequest, 'id'>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ParseOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, reason: 'the engine is shutting down' });
    if (signal?.aborted) return Promise.resolve(CANCELLED);
    return new Promise((resolve) => {
      this.queue.push({ req: { ...req, id: this.nextId++ }, timeoutMs, signal, resolve });
      this.pump();
    });
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const job = this.queue.shift() as Job;
    if (job.signal?.aborted) {
      job.resolve(CANCELLED);
      this.pump();
      return;
    }
    this.running = job;
    const worker = (this.worker ??= spawnParserWorker(this.heapMb));
    let done = false;
    const finish = (outcome: ParseOutcome, kill: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      job.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (kill) {
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
      }
      this.running = null;
      job.resolve(outcome);
      this.pump();
    };
    const onMessage = (msg: ParseResponse) => {
      if (msg.id !== job.req.id) return;
      finish(
        msg.ok
          ? { ok: true, info: msg.info, chunks: msg.chunks }
          : { ok: false, reason: msg.reason },
        false,
      );
    };
    const onError = (err: Error & { code?: string }) => {
      finish(
        {
          ok: false,
          reason:
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `went past the parser's memory budget (${this.heapMb} MB): not read`
              : `the parser stopped: ${err.message}`,
        },
        true,
      );
    };
    const onExit = () => finish({ ok: false, reason: 'the parser stopped unexpectedly' }, true);
    const onAbort = () => finish(CANCELLED, true);
    job.signal?.addEventListener('abort', onAbort);
    const timer = setTimeout(
      () =>
        finish(
          {
            ok: false,
            reason: `took longer than ${Math.round(job.timeoutMs / 100) / 10} s to parse (the per-file time budget): not read`,
          },
          true,
        ),
      job.timeoutMs,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    // The bytes move to the worker (no copy) unless they share a buffer with others.
    let { bytes } = job.req;
    if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) {
      bytes = new Uint8Array(bytes);
    }
    worker.postMessage({ ...job.req, bytes }, [bytes.buffer as ArrayBuffer]);
  }

  /** Stops the worker while no file is parsed or waits; the next file starts it again. */
  async release(): Promise<void> {
    if (this.running || this.queue.length > 0 || !this.worker) return;
    const w = this.worker;
    this.worker = null;
    await w.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.resolve({ ok: false, reason: 'the engine is shutting down' });
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
