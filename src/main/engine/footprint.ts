// What a long-running engine keeps in memory, and giving it back. Parts of the engine
// that hold something they can rebuild (worker threads, caches, in-memory indexes)
// register a release; after a quiet spell (no call for `idleMs`) the light ones are
// released and the heap collected, and under memory pressure (little free memory, or
// the kernel reporting stalls) the heavy ones too. Whatever was released is rebuilt by
// the next call that needs it: nothing here changes an answer, only how soon it comes.
import { readFileSync } from 'node:fs';
import { freemem, totalmem } from 'node:os';
import {
  busyNativeHeap,
  collectGarbage,
  limitNativeArenas,
  quietNativeHeap,
  returnFreedNativeMemory,
  workingNativeHeap,
} from './runtimeHeap';
import { warn } from './warnings';

/** `idle`: cheap to rebuild (a worker, a cache); `pressure`: costly (an index of every memory). */
export type TrimDepth = 'idle' | 'pressure';

export interface Releasable {
  name: string;
  /** Releases what this part holds at `depth` (a pressure trim also releases idle parts). */
  release(depth: TrimDepth): void | Promise<void>;
}

export interface PressureReading {
  /** Free memory, as a share of the machine's (0–1). */
  freeShare: number;
  /** Linux PSI: the share of the last 10 s some task stalled waiting for memory (0–100). */
  stallPct: number | null;
}

export interface FootprintOptions {
  now: () => number;
  /** Quiet this long (ms) before an idle trim; 0 turns idle trims off. */
  idleMs: number;
  /** How often idleness and pressure are looked at (ms). */
  pollMs: number;
  /** Free memory below this share of the machine's is pressure. */
  minFreeShare: number;
  /** Memory stalls above this share of time (PSI avg10) are pressure. */
  maxStallPct: number;
  /**
   * At least this long (ms) between two pressure trims: what one releases, the calls
   * after it rebuild, and releasing it again at once would only trade memory for work.
   */
  pressureGapMs: number;
  /**
   * At most this many malloc arenas for the process's threads, set when the footprint
   * starts (runtimeHeap.ts limitNativeArenas); absent or 0: the C library's own rule.
   */
  nativeArenas?: number;
  /**
   * Sets the C allocator's working threshold when the footprint starts (runtimeHeap.ts
   * workingNativeHeap), for a process whose work comes in bursts (an engine); absent:
   * glibc's own rule until the first quiet spell (a forwarder, whose own rule stays low).
   */
  workingThreshold?: boolean;
  readPressure?: () => PressureReading;
}

export interface TrimReport {
  /** When it ran (epoch ms, the engine's clock). */
  at: number;
  depth: TrimDepth;
  reason: 'idle' | 'pressure' | 'asked';
  released: string[];
  rssBefore: number;
  rssAfter: number;
}

/** Free memory and, on Linux, the kernel's memory-stall figure (absent elsewhere). */
export function readSystemPressure(): PressureReading {
  let stallPct: number | null = null;
  try {
    const m = /some avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/memory', 'utf8'));
    if (m) stallPct = Number(m[1]);
  } catch {
    /* not Linux, or PSI off: free memory alone decides */
  }
  return { freeShare: freemem() / totalmem(), stallPct };
}

export class Footprint {
  private readonly parts: Releasable[] = [];
  private readonly working: (() => boolean)[] = [];
  private lastActivity: number;
  /** The depth released since the last activity (nothing to do until something runs). */
  private trimmedAt: TrimDepth | null = null;
  private timer: NodeJS.Timeout | null = null;
  private trimming: Promise<TrimReport> | null = null;
  private lastPressureTrim = -Infinity;
  /** Calls running now: a trim waits for a quiet moment, never under a call. */
  private busy = 0;
  trims = 0;
  lastTrim: TrimReport | null = null;

  constructor(private readonly o: FootprintOptions) {
    this.lastActivity = o.now();
  }

  add(part: Releasable): void {
    this.parts.push(part);
  }

  /**
   * Work that runs on its own after the calls that caused it (a backfill, the
   * contradiction check of a batch, an import, a dream): while any of it runs the engine
   * is not quiet, so the trim comes `idleMs` after it ends, not in its middle.
   */
  addWork(working: () => boolean): void {
    this.working.push(working);
  }

  /** A call begins; the returned function ends it. */
  begin(): () => void {
    this.busy++;
    this.lastActivity = this.o.now();
    this.awake();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.busy--;
      this.lastActivity = this.o.now();
    };
  }

  /** Something ran outside a call (a backfill batch, a sync pull): not idle yet. */
  touch(): void {
    this.lastActivity = this.o.now();
    this.awake();
  }

  /** Work, maybe after (or during) a trim: freed memory is kept for reuse again. */
  private awake(): void {
    busyNativeHeap();
    this.trimmedAt = null;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.o.pollMs);
    this.timer.unref();
    if (this.o.nativeArenas) {
      limitNativeArenas(this.o.nativeArenas).catch((err: Error) =>
        warn(`capping the C allocator's arenas failed: ${err.message}`),
      );
    }
    // From the start, not only after a first quiet spell: what the heaps' free ends keep
    // during the work before it is what no idle trim reaches later.
    if (this.o.workingThreshold) {
      workingNativeHeap().catch((err: Error) =>
        warn(`setting the C allocator's threshold failed: ${err.message}`),
      );
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look at idleness and pressure (the timer's; tests call it directly). */
  async poll(): Promise<TrimReport | null> {
    if (this.busy > 0 || this.trimming) return null;
    if (this.working.some((w) => w())) {
      this.touch();
      return null;
    }
    const p = (this.o.readPressure ?? readSystemPressure)();
    const pressed =
      p.freeShare < this.o.minFreeShare || (p.stallPct !== null && p.stallPct > this.o.maxStallPct);
    if (
      pressed &&
      this.trimmedAt !== 'pressure' &&
      this.o.now() - this.lastPressureTrim >= this.o.pressureGapMs
    ) {
      this.lastPressureTrim = this.o.now();
      return this.trim('pressure', 'pressure');
    }
    const quiet = this.o.idleMs > 0 && this.o.now() - this.lastActivity >= this.o.idleMs;
    if (quiet && this.trimmedAt === null) return this.trim('idle', 'idle');
    return null;
  }

  /** Releases every part at `depth`, then collects the heap. One trim at a time. */
  trim(depth: TrimDepth, reason: TrimReport['reason'] = 'asked'): Promise<TrimReport> {
    this.trimming ??= this.run(depth, reason).finally(() => (this.trimming = null));
    return this.trimming;
  }

  private async run(depth: TrimDepth, reason: TrimReport['reason']): Promise<TrimReport> {
    const rssBefore = process.memoryUsage.rss();
    const released: string[] = [];
    for (const part of this.parts) {
      try {
        await part.release(depth);
        released.push(part.name);
      } catch (err) {
        warn(`releasing ${part.name} failed: ${(err as Error).message}`);
      }
    }
    // Before the collections, whose frees in the helper threads' heaps then give back
    // those heaps' free ends.
    await quietNativeHeap();
    // Twice, a moment apart: the first collection's sweeping finishes in the background,
    // and the second returns the pages it emptied (measured: one alone often left them).
    // Both compact: what a quiet process keeps should be its live objects, not the
    // half-empty pages its work left (about 2 MiB of a daemon's heap).
    collectGarbage({ compact: true });
    await new Promise<void>((resolve) => setTimeout(resolve, 1000).unref());
    collectGarbage({ compact: true });
    // What the collections, SQLite's shrunk caches and the stopped workers freed in C.
    await returnFreedNativeMemory();
    // A call that began meanwhile keeps what it rebuilt; the next quiet spell trims again.
    if (this.busy === 0) this.trimmedAt = depth;
    this.trims++;
    this.lastTrim = {
      at: this.o.now(),
      depth,
      reason,
      released,
      rssBefore,
      rssAfter: process.memoryUsage.rss(),
    };
    return this.lastTrim;
  }
}
