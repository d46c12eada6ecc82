// The order in which embedding requests reach a worker (workerHost.ts). The worker runs
// one request at a time and cannot be interrupted, so the order is decided here: one
// request in flight, interactive ones ahead of background ones, background work cut into
// pieces (a recall's query waits for at most one piece of a backfill), and interactive
// requests that queued up behind a piece sent together as one. With a time budget, a
// piece holds as many texts as the worker embeds in that time (learnt from the pieces
// before it), so a query waits about the budget behind a backfill whatever the model
// and the machine.
import type { EmbedKind, EmbedLane } from './types';

export interface LaneOptions {
  /** Texts per background request at most. */
  backgroundChunk: number;
  /**
   * Milliseconds a background piece should take (the most an interactive request waits
   * behind one); unset: always `backgroundChunk` texts.
   */
  backgroundBudgetMs?: number;
  /** The clock pieces are timed by (tests give their own). */
  now?: () => number;
  /** Interactive requests waiting together are merged up to this many texts. */
  maxMerge: number;
}

interface Job {
  texts: readonly string[];
  kind: EmbedKind;
  lane: EmbedLane;
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
}

/** Background work, sent a piece at a time from `at`. */
interface BackgroundJob extends Job {
  at: number;
  done: Float32Array[];
}

/** A request in flight: the jobs whose texts it carries (for a background job, a piece). */
interface Batch {
  jobs: Job[];
  texts: string[];
  lane: EmbedLane;
  kind: EmbedKind;
}

/** Weight of the newest piece in the running estimate of milliseconds per text. */
const LEARN = 0.3;

export class LaneScheduler {
  private readonly interactive: Job[] = [];
  private readonly background: BackgroundJob[] = [];
  private busy = false;
  /** Milliseconds per background text, learnt from the pieces sent (null: none yet). */
  private msPerText: number | null = null;
  /** Requests sent, by lane (tests and the doctor read them). */
  readonly sent = { interactive: 0, background: 0 };

  constructor(
    private readonly send: (texts: string[], kind: EmbedKind) => Promise<Float32Array[]>,
    private readonly o: LaneOptions,
  ) {}

  get queued(): number {
    return this.interactive.length + this.background.length;
  }

  /** Texts the next background piece holds. */
  get pieceSize(): number {
    const { backgroundChunk, backgroundBudgetMs } = this.o;
    if (backgroundBudgetMs === undefined || this.msPerText === null) {
      // Until a piece has been timed, one text: the first is as short as it can be.
      return backgroundBudgetMs === undefined ? backgroundChunk : 1;
    }
    const fits = Math.floor(backgroundBudgetMs / Math.max(this.msPerText, 0.001));
    return Math.max(1, Math.min(backgroundChunk, fits));
  }

  get idle(): boolean {
    return !this.busy && this.queued === 0;
  }

  run(texts: readonly string[], kind: EmbedKind, lane: EmbedLane): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      const job = { texts, kind, lane, resolve, reject };
      if (lane === 'interactive') this.interactive.push(job);
      else this.background.push({ ...job, at: 0, done: [] });
      this.pump();
    });
  }

  private pump(): void {
    if (this.busy) return;
    const batch = this.next();
    if (!batch) return;
    this.busy = true;
    this.sent[batch.lane]++;
    const clock = this.o.now ?? (() => performance.now());
    const started = clock();
    // Free for the next request before anyone hears back (so `idle` is true by then).
    const settle = (finish: () => void) => {
      this.busy = false;
      finish();
      this.pump();
    };
    this.send(batch.texts, batch.kind).then(
      (vectors) =>
        settle(() => {
          if (batch.lane === 'background') {
            this.learn((clock() - started) / batch.texts.length);
            const job = batch.jobs[0] as BackgroundJob;
            job.done.push(...vectors);
            if (job.at >= job.texts.length) job.resolve(job.done);
            return;
          }
          let at = 0;
          for (const job of batch.jobs) {
            job.resolve(vectors.slice(at, at + job.texts.length));
            at += job.texts.length;
          }
        }),
      (err: Error) =>
        settle(() => {
          for (const job of batch.jobs) {
            job.reject(err);
            // The rest of a failed background job is not sent.
            const queued = this.background.indexOf(job as BackgroundJob);
            if (queued >= 0) this.background.splice(queued, 1);
          }
        }),
    );
  }

  private learn(ms: number): void {
    this.msPerText = this.msPerText === null ? ms : this.msPerText + LEARN * (ms - this.msPerText);
  }

  /** The next request: interactive jobs of one kind merged, else one background piece. */
  private next(): Batch | null {
    const first = this.interactive.shift();
    if (!first) {
      const bg = this.background[0];
      if (!bg) return null;
      const texts = bg.texts.slice(bg.at, bg.at + this.pieceSize);
      bg.at += texts.length;
      // Its last piece is on its way: the job leaves the queue (it resolves when answered).
      if (bg.at >= bg.texts.length) this.background.shift();
      return { jobs: [bg], texts, lane: 'background', kind: bg.kind };
    }
    const jobs = [first];
    let size = first.texts.length;
    while (this.interactive.length > 0) {
      const j = this.interactive[0] as Job;
      if (j.kind !== first.kind || size + j.texts.length > this.o.maxMerge) break;
      jobs.push(this.interactive.shift() as Job);
      size += j.texts.length;
    }
    return { jobs, texts: jobs.flatMap((j) => j.texts), lane: 'interactive', kind: first.kind };
  }
}
