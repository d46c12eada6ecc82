// The rows of a very long list, fetched on demand in fixed blocks by offset: the list
// says which rows it shows, the cache fetches only the blocks those rows need (adjacent
// missing blocks in one request, a block already on its way never twice), cancels
// requests for blocks scrolled away from, and keeps a bounded number of blocks. One
// cache serves one set of filters; a new filter set gets a new cache (the old one is
// disposed, aborting what it had in flight). It knows nothing of React.
import type { LociError } from '../../../../shared/errors';
import { toLociError } from '../../lib/useEngineQuery';

export interface PageCacheOptions<T> {
  /** Rows per block. */
  blockSize: number;
  /** The most rows one request may ask for (the contract's list limit). */
  maxRequestRows: number;
  /** Blocks kept in memory; the least recently shown beyond the visible ones go first. */
  maxBlocks: number;
  /** Requests start at most this often while the range keeps moving (ms; 0: at once). */
  throttleMs: number;
  fetch(
    offset: number,
    limit: number,
    signal: AbortSignal,
  ): Promise<{ items: readonly T[]; total: number }>;
}

interface Request {
  controller: AbortController;
  first: number;
  last: number;
}

interface Block<T> {
  items: readonly T[] | null;
  /** Shown until a fresh copy arrives (after invalidate). */
  stale: boolean;
  request: Request | null;
  error: LociError | null;
  used: number;
}

const isAbort = (err: unknown) => (err as { name?: unknown } | null)?.name === 'AbortError';

export class PageCache<T> {
  /** Rows matching in all; null until the first answer. */
  total: number | null = null;
  /** The latest failure, cleared by the next success. */
  error: LociError | null = null;
  /** Bumped on every change (for useSyncExternalStore). */
  version = 0;

  private readonly opts: PageCacheOptions<T>;
  private readonly blocks = new Map<number, Block<T>>();
  private readonly listeners = new Set<() => void>();
  private range = { start: 0, end: -1 };
  private timer: ReturnType<typeof setTimeout> | null = null;
  private clock = 0;
  private disposed = false;
  /** Every request ever started (for tests and diagnostics). */
  readonly requested: { offset: number; limit: number }[] = [];

  constructor(opts: PageCacheOptions<T>) {
    this.opts = opts;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /** The row at an index, if its block has arrived (possibly stale). */
  item(index: number): T | undefined {
    const block = this.blocks.get(Math.floor(index / this.opts.blockSize));
    return block?.items?.[index % this.opts.blockSize];
  }

  /** True while no copy of the row's block is here yet and one is on its way. */
  isPending(index: number): boolean {
    const block = this.blocks.get(Math.floor(index / this.opts.blockSize));
    return !block?.items && !block?.error;
  }

  /** A request for some block runs now. */
  get busy(): boolean {
    for (const b of this.blocks.values()) if (b.request) return true;
    return false;
  }

  get loadedBlockCount(): number {
    let n = 0;
    for (const b of this.blocks.values()) if (b.items) n++;
    return n;
  }

  /** The rows the list shows now (inclusive). Requests what they need, soon. */
  setRange(start: number, end: number): void {
    if (this.disposed) return;
    this.range = { start: Math.max(0, start), end };
    const { blockSize } = this.opts;
    for (let b = Math.floor(this.range.start / blockSize); b <= Math.floor(end / blockSize); b++) {
      const block = this.blocks.get(b);
      if (block) block.used = ++this.clock;
    }
    if (this.opts.throttleMs <= 0) {
      this.flush();
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.flush();
      }, this.opts.throttleMs);
    }
  }

  /**
   * The data moved (an engine event): keep showing what is here, marked stale, and fetch
   * the visible blocks again; requests in flight may hold the old state, so they go.
   */
  invalidate(): void {
    if (this.disposed) return;
    for (const block of this.blocks.values()) {
      block.request?.controller.abort();
      block.request = null;
      block.stale = true;
      block.error = null;
    }
    this.flush();
  }

  /** After a failure: try the visible blocks again. */
  retry(): void {
    if (this.disposed) return;
    for (const block of this.blocks.values()) block.error = null;
    this.error = null;
    this.flush();
  }

  /**
   * Every row from start to end (inclusive), fetching the blocks missing (for selecting a
   * range of rows that was never on screen). At most `cap` rows.
   */
  async rows(start: number, end: number, cap = 5_000): Promise<T[]> {
    const last = Math.min(end, start + cap - 1, (this.total ?? end + 1) - 1);
    const { blockSize } = this.opts;
    const missing: number[] = [];
    for (let b = Math.floor(start / blockSize); b <= Math.floor(last / blockSize); b++)
      if (!this.blocks.get(b)?.items) missing.push(b);
    for (const [first, lastBlock] of this.runs(missing)) {
      const controller = new AbortController();
      const res = await this.opts.fetch(
        first * blockSize,
        (lastBlock - first + 1) * blockSize,
        controller.signal,
      );
      this.store(first, lastBlock, res);
    }
    const out: T[] = [];
    for (let i = start; i <= last; i++) {
      const row = this.item(i);
      if (row !== undefined) out.push(row);
    }
    return out;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const block of this.blocks.values()) block.request?.controller.abort();
    this.listeners.clear();
  }

  private emit(): void {
    this.version++;
    for (const listener of [...this.listeners]) listener();
  }

  /** Contiguous runs of block numbers, each small enough for one request. */
  private runs(blocks: number[]): [number, number][] {
    const perRequest = Math.max(1, Math.floor(this.opts.maxRequestRows / this.opts.blockSize));
    const out: [number, number][] = [];
    for (const b of blocks.sort((x, y) => x - y)) {
      const run = out[out.length - 1];
      if (run && b === run[1] + 1 && b - run[0] + 1 <= perRequest) run[1] = b;
      else out.push([b, b]);
    }
    return out;
  }

  private flush(): void {
    if (this.disposed) return;
    const { blockSize } = this.opts;
    const lastRow = this.total === null ? this.range.end : Math.min(this.range.end, this.total - 1);
    const first = Math.floor(this.range.start / blockSize);
    const last = Math.max(first, Math.floor(lastRow / blockSize));

    // Requests for blocks no longer near the view are not worth their answer.
    for (const [n, block] of this.blocks) {
      const r = block.request;
      if (r && (r.last < first - 1 || r.first > last + 1)) {
        r.controller.abort();
        for (let b = r.first; b <= r.last; b++) {
          const other = this.blocks.get(b);
          if (other?.request === r) other.request = null;
        }
        if (!block.items) this.blocks.delete(n);
      }
    }

    const wanted: number[] = [];
    for (let b = first; b <= last; b++) {
      if (this.total !== null && b * blockSize >= this.total && b > 0) break;
      const block = this.blocks.get(b);
      if (block?.request || block?.error) continue;
      if (!block?.items || block.stale) wanted.push(b);
    }
    for (const [runFirst, runLast] of this.runs(wanted)) this.request(runFirst, runLast);
    this.evict(first, last);
  }

  private request(first: number, last: number): void {
    const { blockSize } = this.opts;
    const request: Request = { controller: new AbortController(), first, last };
    for (let b = first; b <= last; b++) {
      const block = this.blocks.get(b);
      if (block) block.request = request;
      else
        this.blocks.set(b, {
          items: null,
          stale: false,
          request,
          error: null,
          used: ++this.clock,
        });
    }
    const offset = first * blockSize;
    const limit = (last - first + 1) * blockSize;
    this.requested.push({ offset, limit });
    this.emit();
    this.opts.fetch(offset, limit, request.controller.signal).then(
      (res) => {
        if (this.disposed || request.controller.signal.aborted) return;
        this.store(first, last, res, request);
        this.error = null;
        this.emit();
        // The total may have grown into rows the view already shows.
        if (this.total !== null && this.range.end >= (last + 1) * blockSize) this.flush();
      },
      (err: unknown) => {
        if (this.disposed || isAbort(err) || request.controller.signal.aborted) return;
        const error = toLociError(err);
        for (let b = first; b <= last; b++) {
          const block = this.blocks.get(b);
          if (block?.request === request) {
            block.request = null;
            block.error = error;
          }
        }
        this.error = error;
        this.emit();
      },
    );
  }

  private store(
    first: number,
    last: number,
    res: { items: readonly T[]; total: number },
    request?: Request,
  ): void {
    const { blockSize } = this.opts;
    this.total = res.total;
    for (let b = first; b <= last; b++) {
      const items = res.items.slice((b - first) * blockSize, (b - first + 1) * blockSize);
      const block = this.blocks.get(b);
      if (block && request && block.request !== request) continue;
      this.blocks.set(b, {
        items,
        stale: false,
        request: null,
        error: null,
        used: block?.used ?? ++this.clock,
      });
    }
  }

  private evict(first: number, last: number): void {
    const excess = this.blocks.size - this.opts.maxBlocks;
    if (excess <= 0) return;
    const candidates = [...this.blocks.entries()]
      .filter(([n, b]) => (n < first || n > last) && !b.request)
      .sort((a, b) => a[1].used - b[1].used)
      .slice(0, excess);
    for (const [n] of candidates) this.blocks.delete(n);
  }
}
