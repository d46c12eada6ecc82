// One import batch, file by file: walk what was named, read and parse each file in the
// worker (the next one while the current one is written), write each file in its own
// transaction, report every file and announce the progress. Cancel stops between files
// and stops a parse in progress.
import { basename } from 'node:path';
import type {
  Actor,
  IngestFileReport,
  IngestReport,
  IngestTotals,
  ParsedArgs,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { EventMap } from '../../../shared/events';
import { actorName } from '../memory/model';
import type { OpenStore } from '../store/registry';
import { emptyTotals, finishBatch, saveProgress } from './batches';
import { detectFormat } from './detect';
import {
  CHARS_PER_TOKEN,
  DEFAULT_CHUNK_TOKENS,
  MAX_DEFAULT_CHUNK_TOKENS,
  type IngestLimits,
} from './limits';
import type { ParserPool } from './pool';
import { readStable } from './readFile';
import type { IngestServiceOptions } from './service';
import { walk, type WalkedFile } from './walker';
import { prepareFile, writeFile, type FileToWrite } from './write';
import { warn } from '../warnings';

export interface Running {
  cancelled: boolean;
  /** Aborted on cancel: stops the parse in progress. */
  abort: AbortController;
}

/** A file read and parsed, waiting to be written (`ready` null: its report is final). */
interface Loaded {
  t0: number;
  report: IngestFileReport;
  ready: Omit<FileToWrite, 'display' | 'batch' | 'extraTags'> | null;
}

const CANCELLED_WHILE_READ = 'the import was cancelled while this file was read';

/** Chunk progress events per batch at most this often. */
const CHUNK_EVENT_MS = 250;

export class BatchRunner {
  constructor(
    private readonly o: IngestServiceOptions,
    private readonly limits: IngestLimits,
    private readonly pool: ParserPool,
  ) {}

  private chunkSizes(args: ParsedArgs<'ingest.files'>): {
    chunkChars: number;
    overlapChars: number;
  } {
    const model = this.o.modelMaxTokens();
    const tokens =
      args.chunk_tokens ??
      (model ? Math.min(MAX_DEFAULT_CHUNK_TOKENS, model) : DEFAULT_CHUNK_TOKENS);
    const overlap = Math.min(args.overlap_tokens ?? Math.floor(tokens / 8), Math.floor(tokens / 2));
    return {
      chunkChars: Math.round(tokens * CHARS_PER_TOKEN),
      overlapChars: Math.round(overlap * CHARS_PER_TOKEN),
    };
  }

  async run(
    store: OpenStore,
    actor: Actor,
    args: ParsedArgs<'ingest.files'>,
    batch: string,
    run: Running,
    roots: string[],
    displayRoot: string | undefined,
  ): Promise<IngestReport> {
    const started = Date.now();
    const totals: IngestTotals = emptyTotals();
    const reports: IngestFileReport[] = [];
    const progress = (
      p: Partial<EventMap['ingest.progressed']> & Pick<EventMap['ingest.progressed'], 'phase'>,
    ) =>
      this.o.events.emit('ingest.progressed', {
        store: store.name,
        batch,
        file: null,
        file_index: 0,
        files: 0,
        chunks_done: 0,
        chunks_total: null,
        bytes_done: 0,
        bytes_total: 0,
        status: null,
        totals: null,
        ...p,
      });
    let lastScan = 0;
    let lastChunk = 0;
    progress({ phase: 'scanning' });
    const walked = await walk(roots, {
      maxFileBytes: this.limits.maxFileBytes,
      maxFiles: this.limits.maxFilesPerBatch,
      ...(displayRoot ? { displayRoot } : {}),
      shouldStop: () => run.cancelled,
      onFound: (n) => {
        const t = Date.now();
        if (t - lastScan < CHUNK_EVENT_MS) return;
        lastScan = t;
        progress({ phase: 'scanning', files: n });
      },
    });
    const add = (r: IngestFileReport) => {
      reports.push(r);
      totals.files++;
      totals[r.status]++;
      totals.bytes += r.status === 'ingested' ? r.bytes : 0;
      totals.chunks += r.chunks;
      totals.memories += r.status === 'ingested' ? r.chunks - r.duplicates + 1 : 0;
      totals.quarantined += r.quarantined;
    };
    const blank = (display: string, bytes: number): IngestFileReport => ({
      path: display,
      format: null,
      status: 'skipped',
      reason: null,
      bytes,
      chunks: 0,
      document_id: null,
      memory_ids: [],
      quarantined: 0,
      duplicates: 0,
      duration_ms: 0,
      notes: [],
    });
    for (const s of walked.skipped) add({ ...blank(s.display, s.bytes), reason: s.reason });
    const files = walked.files;
    const bytesTotal = files.reduce((a, f) => a + f.bytes, 0);
    let bytesDone = 0;
    const sizes = this.chunkSizes(args);
    // The next file is read and parsed (in the worker) while this one is written.
    // Anything unexpected about one file fails that file, never the batch.
    const failed = (file: WalkedFile, err: unknown): IngestFileReport => {
      warn(
        `ingest of ${file.display} failed: ${(err as Error)?.stack ?? String(err)}`,
        `ingest of ${file.display} failed: ${(err as Error)?.message ?? String(err)}`,
      );
      return {
        ...blank(file.display, file.bytes),
        status: 'failed',
        reason: `could not be read: ${(err as Error)?.message ?? String(err)}`,
      };
    };
    const load = (file: WalkedFile): Promise<Loaded> =>
      this.load(file, run, sizes).catch((err: unknown) => ({
        t0: Date.now(),
        report: failed(file, err),
        ready: null,
      }));
    let next: Promise<Loaded> | null = files[0] ? load(files[0]) : null;
    for (let i = 0; i < files.length; i++) {
      const file = files[i] as WalkedFile;
      const current = next;
      const following = files[i + 1];
      const base = {
        file: file.display,
        file_index: i,
        files: files.length,
        bytes_done: bytesDone,
        bytes_total: bytesTotal,
      };
      if (run.cancelled || !current) {
        await current;
        next = null;
        add({
          ...blank(file.display, file.bytes),
          status: 'cancelled',
          reason: 'the import was cancelled before this file',
        });
        continue;
      }
      progress({ phase: 'file', ...base });
      const loaded = await current;
      next = following && !run.cancelled ? load(following) : null;
      const report = await this.commit(
        store,
        actor,
        args,
        batch,
        run,
        file,
        loaded,
        (done, total) => {
          // A few chunk events a second at most: file and file-done say the rest.
          const t = Date.now();
          if (t - lastChunk < CHUNK_EVENT_MS) return;
          lastChunk = t;
          progress({ phase: 'chunk', ...base, chunks_done: done, chunks_total: total });
        },
      ).catch((err: unknown) => failed(file, err));
      add(report);
      bytesDone += file.bytes;
      progress({
        phase: 'file-done',
        ...base,
        bytes_done: bytesDone,
        status: report.status,
        chunks_done: report.chunks,
        chunks_total: report.chunks,
      });
      if (i % 20 === 19) saveProgress(store, batch, totals, reports);
    }
    totals.duration_ms = Date.now() - started;
    const status = run.cancelled ? 'cancelled' : 'done';
    const now = this.o.now();
    store.db.transaction(() => {
      finishBatch(store, batch, status, totals, reports, now);
      store.audit.append(
        {
          actor: actorName(actor),
          action: 'ingest.batch',
          target: batch,
          data: {
            status,
            files: totals.files,
            ingested: totals.ingested,
            skipped: totals.skipped,
            failed: totals.failed,
            cancelled: totals.cancelled,
            memories: totals.memories,
            quarantined: totals.quarantined,
          },
        },
        now,
      );
    })();
    progress({
      phase: 'finished',
      files: files.length,
      bytes_done: bytesDone,
      bytes_total: bytesTotal,
      totals,
    });
    return { batch, store: store.name, status, files: reports, totals };
  }

  /** Reading and parsing one file (in the worker); runs while the previous file is written. */
  private async load(
    file: WalkedFile,
    run: Running,
    sizes: { chunkChars: number; overlapChars: number },
  ): Promise<Loaded> {
    const t0 = Date.now();
    const report: IngestFileReport = {
      path: file.display,
      format: null,
      status: 'failed',
      reason: null,
      bytes: file.bytes,
      chunks: 0,
      document_id: null,
      memory_ids: [],
      quarantined: 0,
      duplicates: 0,
      duration_ms: 0,
      notes: [],
    };
    const ended = (status: IngestFileReport['status'], reason: string | null): Loaded => {
      report.status = status;
      report.reason = reason;
      return { t0, report, ready: null };
    };
    const read = await readStable(
      file.abs,
      this.limits.maxFileBytes,
      this.o.hooks?.afterRead
        ? (attempt) => this.o.hooks?.afterRead?.(file.display, attempt)
        : undefined,
    );
    if (!read.ok)
      return ended(read.reason.startsWith('too large') ? 'skipped' : 'failed', read.reason);
    report.bytes = read.bytes.length;
    if (read.bytes.length === 0) return ended('skipped', 'empty file');
    const detected = detectFormat(file.abs, read.bytes.subarray(0, 8192));
    if (!detected.ok) return ended('skipped', detected.reason);
    report.format = detected.format;
    const name = basename(file.display);
    const parsed = await this.pool.parse(
      {
        bytes: read.bytes,
        format: detected.format,
        name,
        ...sizes,
        maxChunks: this.limits.maxChunksPerFile,
        maxInflatedBytes: this.limits.maxInflatedBytes,
        maxJsonDepth: this.limits.maxJsonDepth,
        csvRowsPerMemory: this.limits.csvRowsPerMemory,
        csvSampleRows: this.limits.csvSampleRows,
      },
      this.limits.fileTimeoutMs,
      run.abort.signal,
    );
    if (run.cancelled) return ended('cancelled', CANCELLED_WHILE_READ);
    if (!parsed.ok) return ended('failed', parsed.reason);
    report.notes = parsed.info.notes;
    return {
      t0,
      report,
      ready: {
        name,
        format: detected.format,
        bytes: report.bytes,
        mtimeMs: read.mtimeMs,
        info: parsed.info,
        chunks: parsed.chunks,
      },
    };
  }

  /** Writing one loaded file: the secret scan, then one transaction. */
  private async commit(
    store: OpenStore,
    actor: Actor,
    args: ParsedArgs<'ingest.files'>,
    batch: string,
    run: Running,
    file: WalkedFile,
    loaded: Loaded,
    onChunks: (done: number, total: number) => void,
  ): Promise<IngestFileReport> {
    const { report, ready, t0 } = loaded;
    const end = (status: IngestFileReport['status'], reason: string | null) => {
      report.status = status;
      report.reason = reason;
      report.duration_ms = Date.now() - t0;
      return report;
    };
    if (!ready) return end(report.status, report.reason);
    onChunks(0, ready.chunks.length);
    if (run.cancelled) return end('cancelled', CANCELLED_WHILE_READ);
    let prepared;
    try {
      prepared = await prepareFile({
        display: file.display,
        ...ready,
        batch,
        extraTags: args.tags ?? [],
      });
    } catch (err) {
      if (err instanceof LociError) return end('failed', err.message);
      throw err;
    }
    if (run.cancelled) return end('cancelled', CANCELLED_WHILE_READ);
    let written;
    try {
      const hook = this.o.hooks?.beforeLinks;
      written = writeFile(store, actor, prepared, {
        newId: this.o.newId,
        now: this.o.now(),
        ...(hook ? { beforeLinks: (i: number) => hook(file.display, i) } : {}),
      });
    } catch (err) {
      const message =
        err instanceof LociError ? err.message : ((err as Error)?.message ?? String(err));
      if (!(err instanceof LociError))
        warn(
          `ingest of ${file.display} failed: ${(err as Error)?.stack ?? message}`,
          `ingest of ${file.display} failed: ${message}`,
        );
      return end('failed', `nothing of it was written: ${message}`);
    }
    if (written.unchanged) {
      report.document_id = written.documentId;
      return end('skipped', `already in the store, unchanged (document ${written.documentId})`);
    }
    report.document_id = written.documentId;
    report.memory_ids = written.chunkIds;
    report.chunks = written.chunkIds.length;
    report.quarantined = written.quarantined;
    report.duplicates = written.duplicates;
    onChunks(report.chunks, report.chunks);
    if (written.created.length) await this.o.created(store, written.created, actor);
    return end('ingested', null);
  }
}
