// The main-thread side of the credential scan. Every scan runs in one worker thread, one
// request at a time, so that no text — however adversarial — holds up the thread that
// answers other clients. Each request has a time budget (a base plus a share per KiB);
// a request past it gets its worker terminated and its texts reported as
// `scan-timeout`, which quarantines them: kept, hidden from agents, shown to the owner.
// Only when the worker cannot start at all (its file missing from a broken build) does
// the scan run on this thread, and `scannerStatus()` says so (the doctor reports it).
import {
  MessageChannel,
  receiveMessageOnPort,
  type MessagePort,
  type Worker,
} from 'node:worker_threads';
import { spawnWorker, startReadyWorker } from '../workers';
import type { TextDraft, TextDraftInput } from '../memory/draftText';
import type { SecretScan } from './secrets';
import type { ScanRequest, ScanResponse } from './scanWorker';

/** The rule id given to texts whose scan went past its budget. */
export const SCAN_TIMEOUT_RULE = 'scan-timeout';
/** The rule id given to texts whose scan stopped the worker (out of memory, a crash). */
export const SCAN_FAILED_RULE = 'scan-failed';

export interface ScanBudget {
  baseMs: number;
  perKiBMs: number;
}

/** Linear rules scan 64 KiB in tens of milliseconds; the budget is far above that. */
const DEFAULT_BUDGET: ScanBudget = { baseMs: 3000, perKiBMs: 2 };
/** How long the worker may take to load before the scan falls back to this thread. */
const STARTUP_MS = 60_000;

/** A scan's answer, with the drafts it was asked for when the worker made them. */
export interface ScanResult {
  scans: SecretScan[];
  /** Absent when the worker did not draft them (no worker, a timeout, a failure). */
  drafts?: TextDraft[];
  /** The drafts still to come, when they were asked for apart from the scans. */
  handoff?: DraftHandoff;
}

interface Job {
  texts: string[];
  drafts?: TextDraftInput[];
  handoff: boolean;
  resolve: (result: ScanResult) => void;
}

/**
 * Drafts the worker makes after it has answered the scan, for a writer that meanwhile
 * writes its own part of the batch. They come in chunks, in order: `take(k)` gives the
 * k-th, waiting for its chunk without the event loop (the writer is inside its
 * transaction), and undefined when it did not come in time or could not be made — the
 * writer then drafts it, and every later one, itself. The wait for all of them together
 * is bounded by `waitMs`, counted from the first time the writer has to wait.
 */
export class DraftHandoff {
  private readonly got: TextDraft[] = [];
  private chunks = 0;
  private open = true;
  private deadline = Number.POSITIVE_INFINITY;
  /** The chunks the worker has sent (its count, in shared memory). */
  private readonly flag: Int32Array;

  constructor(
    private readonly port: MessagePort,
    signal: SharedArrayBuffer,
    private readonly waitMs: number,
    /** How many drafts were asked for. */
    private readonly expected: number,
  ) {
    this.flag = new Int32Array(signal);
  }

  take(k: number): TextDraft | undefined {
    if (k >= this.expected) return undefined;
    while (this.got.length <= k && this.open) {
      const received = receiveMessageOnPort(this.port);
      if (received) {
        const chunk = received.message as TextDraft[] | null;
        if (!chunk) this.close();
        else {
          for (const draft of chunk) this.got.push(draft);
          this.chunks++;
        }
        continue;
      }
      if (this.deadline === Number.POSITIVE_INFINITY) {
        this.deadline = performance.now() + this.waitMs;
      }
      const left = this.deadline - performance.now();
      if (left <= 0) this.close();
      // The worker counts a chunk in the flag once it is on the port: wait for the count
      // to pass the chunks received.
      else Atomics.wait(this.flag, 0, this.chunks, left);
    }
    return this.got[k];
  }

  /** Gives up on the drafts still to come (a write that failed, or one done with them). */
  close(): void {
    if (!this.open) return;
    this.open = false;
    this.port.close();
  }
}

export interface ScannerStatus {
  mode: 'worker' | 'in-thread' | 'idle';
  /** Why the scan runs on this thread, when it does. */
  reason?: string;
  timeouts: number;
}

class ScanHost {
  private worker: Worker | null = null;
  private ready: Promise<Worker | null> | null = null;
  private queue: Job[] = [];
  private running = false;
  private nextId = 1;
  private fallbackReason: string | null = null;
  private timeouts = 0;
  budget: ScanBudget = { ...DEFAULT_BUDGET };

  scan(
    texts: readonly string[],
    drafts?: readonly TextDraftInput[],
    handoff = false,
  ): Promise<ScanResult> {
    if (texts.length === 0) return Promise.resolve({ scans: [] });
    return new Promise((resolve) => {
      this.queue.push({
        texts: [...texts],
        ...(drafts && drafts.length > 0 ? { drafts: [...drafts] } : {}),
        handoff,
        resolve,
      });
      this.pump();
    });
  }

  /** The worker runs (a draft shared with it is drafted there, not on a fallback). */
  get alive(): boolean {
    return this.worker !== null && !this.fallbackReason;
  }

  status(): ScannerStatus {
    if (this.fallbackReason)
      return { mode: 'in-thread', reason: this.fallbackReason, timeouts: this.timeouts };
    return { mode: this.worker ? 'worker' : 'idle', timeouts: this.timeouts };
  }

  private start(): Promise<Worker | null> {
    this.ready ??= startReadyWorker(
      () => spawnWorker(import.meta.url, 'scanWorker.js', './scanWorker.ts'),
      STARTUP_MS,
      'scan worker',
    ).then((started) => {
      if ('failed' in started) return this.fail(started.failed);
      const { worker } = started;
      this.worker = worker;
      worker.once('exit', () => {
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
      });
      return worker;
    });
    return this.ready;
  }

  /** Stops the worker while no scan runs or waits; the next scan starts it again. */
  async release(): Promise<void> {
    if (this.running || this.queue.length > 0) return;
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    this.ready = null;
    await worker.terminate();
  }

  private fail(reason: string): null {
    this.fallbackReason = reason;
    return null;
  }

  /**
   * Sends the next job. A worker already running gets it at once, not a microtask later:
   * the write path drafts the batch on this thread while the worker scans it, and only a
   * message already posted is scanned meanwhile.
   */
  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    const job = this.queue.shift() as Job;
    const go = (worker: Worker | null): Promise<ScanResult> => {
      worker?.ref();
      return worker ? this.run(worker, job) : scanHere(job.texts).then((scans) => ({ scans }));
    };
    const scanning = this.fallbackReason
      ? go(null)
      : this.worker
        ? go(this.worker)
        : this.start().then(go);
    void scanning
      // A scan that could not run at all holds its texts back like one that failed.
      .catch(() => ({ scans: job.texts.map(() => ({ rules: [SCAN_FAILED_RULE] })) }))
      .then((result) => {
        job.resolve(result);
        this.running = false;
        if (this.queue.length > 0) this.pump();
        else this.worker?.unref();
      });
  }

  private run(worker: Worker, { texts, drafts, handoff }: Job): Promise<ScanResult> {
    const id = this.nextId++;
    // Drafting reads the same texts again: its share counts in the budget like a scan.
    const draftKiB = (drafts ?? []).reduce((n, d) => n + d.content.length, 0) / 1024;
    const kib = texts.reduce((n, t) => n + t.length, 0) / 1024 + draftKiB;
    const budgetMs = this.budget.baseMs + kib * this.budget.perKiBMs;
    // Drafts handed over apart from the scans: the channel they come back on, and the
    // flag a writer waits on. Their deadline is the budget of the drafting alone.
    const channel = handoff && drafts ? new MessageChannel() : null;
    const signal = channel ? new SharedArrayBuffer(4) : null;
    return new Promise((resolve) => {
      const marked = (rule: string) => ({ scans: texts.map(() => ({ rules: [rule] })) });
      const finish = (result: ScanResult, kill: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onFailure);
        worker.off('exit', onFailure);
        if (!result.handoff) channel?.port1.close();
        if (kill) {
          if (this.worker === worker) {
            this.worker = null;
            this.ready = null;
          }
          void worker.terminate();
        }
        resolve(result);
      };
      const onMessage = (m: ScanResponse) => {
        if (m.op === 'done' && m.id === id && channel && signal) {
          const waitMs = this.budget.baseMs + draftKiB * this.budget.perKiBMs;
          const handoff = new DraftHandoff(channel.port1, signal, waitMs, drafts?.length ?? 0);
          finish({ scans: m.scans, handoff }, false);
        } else if (m.op === 'done' && m.id === id)
          finish({ scans: m.scans, ...(m.drafts ? { drafts: m.drafts } : {}) }, false);
        else if (m.op === 'failed' && m.id === id) finish(marked(SCAN_FAILED_RULE), false);
      };
      const onFailure = () => finish(marked(SCAN_FAILED_RULE), true);
      const timer = setTimeout(() => {
        this.timeouts++;
        finish(marked(SCAN_TIMEOUT_RULE), true);
      }, budgetMs);
      worker.on('message', onMessage);
      worker.on('error', onFailure);
      worker.on('exit', onFailure);
      if (channel && signal) {
        worker.postMessage(
          { id, texts, drafts, handoff: { port: channel.port2, signal } } satisfies ScanRequest,
          [channel.port2],
        );
      } else worker.postMessage({ id, texts, ...(drafts ? { drafts } : {}) } satisfies ScanRequest);
    });
  }
}

async function scanHere(texts: string[]): Promise<SecretScan[]> {
  const { scanTexts } = await import('./secrets');
  return scanTexts(texts);
}

const host = new ScanHost();

/**
 * Scans many texts for credentials, off this thread. Never rejects: a scan that fails or
 * goes past its budget reports its texts as `scan-failed` / `scan-timeout`.
 */
export async function scanSecretsMany(texts: readonly string[]): Promise<SecretScan[]> {
  return (await host.scan(texts)).scans;
}

/**
 * Scans a batch and drafts a share of it in the worker (the write path): the drafts come
 * back with the scans — or, with `handoff`, after them (ScanResult.handoff) — or not at
 * all when the worker could not make them: the caller drafts those itself.
 */
export function scanAndDraft(
  texts: readonly string[],
  drafts: readonly TextDraftInput[],
  { handoff = false }: { handoff?: boolean } = {},
): Promise<ScanResult> {
  return host.scan(texts, drafts, handoff);
}

/** Whether a scan worker runs now: a draft shared with it is made there. */
export function scannerRunning(): boolean {
  return host.alive;
}

export async function scanSecrets(text: string): Promise<SecretScan> {
  const [scan] = (await host.scan([text])).scans;
  return scan as SecretScan;
}

/** Lets the scan worker go while it has nothing to do (engine/footprint.ts). */
export function releaseScanner(): Promise<void> {
  return host.release();
}

export function scannerStatus(): ScannerStatus {
  return host.status();
}

/** For tests: the per-request budget (restored with `setScanBudget()`). */
export function setScanBudget(budget?: Partial<ScanBudget>): void {
  host.budget = { ...DEFAULT_BUDGET, ...budget };
}
