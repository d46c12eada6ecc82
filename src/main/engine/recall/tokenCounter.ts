// Token counts for recall answers, the map and the bootstrap context (budget.ts), by the
// o200k tokenizer, a close stand-in for the tokenizers of the models agents run on. The
// counting runs in a worker thread (tokenWorker.ts): its tables never load on the thread
// that answers clients, and they leave memory with the worker once the engine has been
// quiet (release, called by engine/footprint.ts). Counts seen lately are kept here, so a
// memory recalled again costs no round trip. If the worker cannot start at all (its file
// missing from a broken build), the count runs on this thread.
import type { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { spawnWorker, startReadyWorker } from '../workers';
import type { TokenRequest, TokenResponse } from './tokenWorker';

/** Counts texts: one round trip to the worker for those not counted lately. */
export interface TokenCounter {
  count(texts: readonly string[]): Promise<number[]>;
}

/** How long the worker may take to load its tables before this thread counts instead. */
const STARTUP_MS = 60_000;

class WorkerTokenCounter implements TokenCounter {
  /**
   * Counts of texts seen lately (the same memories come back recall after recall). Made
   * on first use and dropped by release: an LRU cache allocates its tables for `max`
   * entries at once (about 0.4 MiB here), empty or not.
   */
  private cache: LRUCache<string, number> | null = null;
  private worker: Worker | null = null;
  private ready: Promise<Worker | null> | null = null;
  private readonly waiting = new Map<
    number,
    { resolve: (c: number[]) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private inThread: ((text: string) => number) | null = null;
  private fallback: string | null = null;

  private get counted(): LRUCache<string, number> {
    this.cache ??= new LRUCache<string, number>({ max: 20_000 });
    return this.cache;
  }

  async count(texts: readonly string[]): Promise<number[]> {
    const out = new Array<number>(texts.length);
    const missing: string[] = [];
    const seen = new Set<string>();
    texts.forEach((t, i) => {
      const n = t.length === 0 ? 0 : this.counted.get(t);
      if (n !== undefined) out[i] = n;
      else if (!seen.has(t)) {
        seen.add(t);
        missing.push(t);
      }
    });
    if (missing.length > 0) {
      const counts = await this.countFresh(missing);
      missing.forEach((t, i) => this.counted.set(t, counts[i] as number));
      texts.forEach((t, i) => {
        if (out[i] === undefined) out[i] = this.counted.get(t) ?? 0;
      });
    }
    return out;
  }

  /** Why counting runs on this thread, when it does. */
  get fallbackReason(): string | null {
    return this.fallback;
  }

  /** Ends the worker and forgets the counts; the next count starts it again. */
  async release(): Promise<void> {
    this.cache = null;
    // A worker still starting, or counting, is left alone: the next quiet spell ends it.
    if (this.waiting.size > 0 || !this.worker) return;
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    await worker.terminate();
  }

  private async countFresh(texts: string[]): Promise<number[]> {
    const worker = this.fallback ? null : await this.start();
    if (!worker) return this.countHere(texts);
    const id = this.nextId++;
    return new Promise<number[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, texts } satisfies TokenRequest);
    }).finally(() => {
      if (this.waiting.size === 0) worker.unref();
    });
  }

  private async countHere(texts: string[]): Promise<number[]> {
    if (!this.inThread) {
      const { countTokens } = await import('gpt-tokenizer');
      this.inThread = countTokens;
    }
    const count = this.inThread;
    return texts.map((t) => count(t));
  }

  private start(): Promise<Worker | null> {
    this.ready ??= startReadyWorker(
      () => spawnWorker(import.meta.url, 'tokenWorker.js', './tokenWorker.ts'),
      STARTUP_MS,
      'token worker',
    ).then((started) => {
      if ('failed' in started) {
        // It never started: count on this thread from now on.
        this.fallback = started.failed;
        return null;
      }
      const { worker } = started;
      this.worker = worker;
      worker.on('message', (m: TokenResponse) => {
        if (m.op === 'ready') return;
        const waiter = this.waiting.get(m.id);
        if (!waiter) return;
        this.waiting.delete(m.id);
        if (m.op === 'done') waiter.resolve(m.counts);
        else waiter.reject(new Error(`counting tokens failed: ${m.reason}`));
      });
      // It stopped (released, or crashed): what waited fails, the next count starts another.
      const ended = (err?: Error) => {
        for (const w of this.waiting.values())
          w.reject(new Error(`the token worker stopped: ${err?.message ?? 'it exited'}`));
        this.waiting.clear();
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
      };
      worker.on('error', ended);
      worker.on('exit', () => ended());
      worker.unref();
      return worker;
    });
    return this.ready;
  }
}

const shared = new WorkerTokenCounter();

/** The engine's token counter (one worker per process). */
export function tokenCounter(): TokenCounter {
  return shared;
}

/** Ends the counting worker and forgets the counts (engine/footprint.ts). */
export function releaseTokenCounter(): Promise<void> {
  return shared.release();
}
