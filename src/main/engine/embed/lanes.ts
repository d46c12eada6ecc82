// The order in which embedding requests reach a worker (workerHost.ts). The worker runs
// one request at a time and cannot be interrupted, so the order is decided here: one
// request in flight, interactive ones ahead of background ones, background work cut into
// pieces of `backgroundChunk` texts (a recall's query waits for at most one piece of a
// backfill), and interactive requests that queued up behind a piece sent together as one.
import type { EmbedKind, EmbedLane } from './types';

export interface LaneOptions {
  /** Texts per background request (the most an interactive request waits behind). */
  backgroundChunk: number;
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

export class LaneScheduler {
  private readonly interactive: Job[] = [];
  private readonly background: Job[] = [];
  private busy = false;
  /** Requests sent, by lane (tests and the doctor read them). */
  readonly sent = { interactive: 0, background: 0 };

  constructor(
    private readonly send: (texts: string[], kind: EmbedKind) => Promise<Float32Array[]>,
    private readonly o: LaneOptions,
  ) {}

  get queued(): number {
    return this.interactive.length + this.background.length;
  }

  get idle(): boolean {
    return !this.busy && this.queued === 0;
  }

  run(texts: readonly string[], kind: EmbedKind, lane: EmbedLane): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    if (lane === 'background' && texts.length > this.o.backgroundChunk) {
      const pieces: Promise<Float32Array[]>[] = [];
      for (let i = 0; i < texts.length; i += this.o.backgroundChunk) {
        pieces.push(this.run(texts.slice(i, i + this.o.backgroundChunk), kind, lane));
      }
      return Promise.all(pieces).then((parts) => parts.flat());
    }
    return new Promise((resolve, reject) => {
      (lane === 'interactive' ? this.interactive : this.background).push({
        texts,
        kind,
        lane,
        resolve,
        reject,
      });
      this.pump();
    });
  }

  private pump(): void {
    if (this.busy) return;
    const batch = this.next();
    if (batch.length === 0) return;
    this.busy = true;
    const lane = (batch[0] as Job).lane;
    this.sent[lane]++;
    const texts = batch.flatMap((j) => j.texts);
    this.send(texts, (batch[0] as Job).kind)
      .then(
        (vectors) => {
          let at = 0;
          for (const job of batch) {
            job.resolve(vectors.slice(at, at + job.texts.length));
            at += job.texts.length;
          }
        },
        (err: Error) => {
          for (const job of batch) job.reject(err);
        },
      )
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  /** The next request: interactive jobs of one kind merged, else one background piece. */
  private next(): Job[] {
    const first = this.interactive.shift();
    if (!first) {
      const bg = this.background.shift();
      return bg ? [bg] : [];
    }
    const batch = [first];
    let size = first.texts.length;
    while (this.interactive.length > 0) {
      const j = this.interactive[0] as Job;
      if (j.kind !== first.kind || size + j.texts.length > this.o.maxMerge) break;
      batch.push(this.interactive.shift() as Job);
      size += j.texts.length;
    }
    return batch;
  }
}
