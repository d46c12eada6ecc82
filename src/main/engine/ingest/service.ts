// File ingestion (DESIGN.md §1 journey 4): walk what was dropped, parse each file off
// the main thread, write each file's memories in one transaction, report every file.
// Batches are recorded so they can be listed, cancelled, undone and redone.
import { basename, isAbsolute, resolve } from 'node:path';
import type {
  Actor,
  IngestCancelResult,
  IngestFileReport,
  IngestFoldersResult,
  IngestListResult,
  IngestReport,
  IngestTotals,
  IngestUndoResult,
  IngestUploadResult,
  ParsedArgs,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { EventMap, MemoryChange } from '../../../shared/events';
import { updateConfig, type Config } from '../config';
import type { EngineEvents } from '../events';
import { actorName, isPerson, visibilityFilter } from '../memory/model';
import { forgetMemory, restoreMemory } from '../memory/mutate';
import { loadRow } from '../memory/read';
import type { CreatedMemory } from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import {
  emptyTotals,
  finishBatch,
  getBatch,
  insertBatch,
  listBatches,
  markRedone,
  markUndone,
  saveProgress,
  toBatchInfo,
} from './batches';
import { detectFormat } from './detect';
import { checkAllowed, validateFolders } from './folders';
import {
  CHARS_PER_TOKEN,
  DEFAULT_CHUNK_TOKENS,
  DEFAULT_INGEST_LIMITS,
  MAX_DEFAULT_CHUNK_TOKENS,
  type IngestLimits,
} from './limits';
import { ParserPool } from './pool';
import { readStable } from './readFile';
import { Staging } from './staging';
import { walk, type WalkedFile } from './walker';
import { prepareFile, writeFile, type FileToWrite } from './write';

/** Test seams: a fault inside a file's transaction, a change while a file is read. */
export interface IngestHooks {
  beforeLinks?: (file: string, chunkIndex: number) => void;
  afterRead?: (file: string, attempt: number) => Promise<void> | void;
}

export interface IngestServiceOptions {
  dataDir: string;
  config: Config;
  events: EngineEvents;
  now: () => number;
  newId: () => string;
  store: (name: string | undefined) => Promise<OpenStore>;
  /** The active embedding model's window in tokens, null when there is none. */
  modelMaxTokens: () => number | null;
  /** What Engine.rememberItems does after new memories are committed. */
  created: (store: OpenStore, created: CreatedMemory[], actor: Actor) => Promise<void>;
  /** What Engine does after memories were forgotten or restored. */
  changed: (store: OpenStore, ids: string[], change: MemoryChange, actor: Actor) => Promise<void>;
  limits?: Partial<IngestLimits>;
  hooks?: IngestHooks;
}

interface Running {
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

export class IngestService {
  readonly limits: IngestLimits;
  private readonly pool: ParserPool;
  private readonly staging: Staging;
  private readonly running = new Map<string, Running>();
  private allowed: string[];

  constructor(private readonly o: IngestServiceOptions) {
    this.limits = { ...DEFAULT_INGEST_LIMITS, ...o.limits };
    this.pool = new ParserPool(this.limits.workerHeapMb);
    this.staging = new Staging(o.dataDir, this.limits.maxUploadBytes);
    this.staging.sweep();
    this.allowed = [...o.config.ingest.allowed_folders];
  }

  // ------------------------------------------------------------------ folders

  folders(): IngestFoldersResult {
    return { folders: [...this.allowed] };
  }

  async setFolders(
    args: ParsedArgs<'ingest.setFolders'>,
    actor: Actor,
  ): Promise<IngestFoldersResult> {
    if (!isPerson(actor)) {
      throw new LociError(
        'forbidden',
        'Only a person can change the folders agents may ingest from.',
      );
    }
    const folders = await validateFolders(args.folders);
    updateConfig(this.o.dataDir, (raw) => {
      const ingest = (raw.ingest ?? {}) as Record<string, unknown>;
      raw.ingest = { ...ingest, allowed_folders: folders };
    });
    this.allowed = folders;
    return { folders: [...folders] };
  }

  // ------------------------------------------------------------------ uploads

  upload(args: ParsedArgs<'ingest.upload'>): Promise<IngestUploadResult> {
    return this.staging.put(args.upload, args.path, args.content_base64, args.modified);
  }

  // ------------------------------------------------------------------ batches

  cancel(args: ParsedArgs<'ingest.cancel'>): IngestCancelResult {
    const run = this.running.get(args.batch);
    if (!run) return { batch: args.batch, cancelled: false };
    run.cancelled = true;
    run.abort.abort();
    return { batch: args.batch, cancelled: true };
  }

  async list(args: ParsedArgs<'ingest.list'>): Promise<IngestListResult> {
    const store = await this.o.store(args.store);
    return {
      store: store.name,
      batches: listBatches(store, args.limit).map((r) =>
        toBatchInfo(store.name, r, this.running.has(r.id)),
      ),
    };
  }

  private requireBatch(store: OpenStore, batch: string) {
    const row = getBatch(store, batch);
    if (!row) {
      throw new LociError(
        'not-found',
        `There is no import batch ${batch} in store "${store.name}".`,
        { batch },
      );
    }
    if (this.running.has(batch)) {
      throw new LociError('conflict', `Import batch ${batch} is still running: cancel it first.`, {
        batch,
      });
    }
    return row;
  }

  /** Forgets (soft-deletes) every memory the batch wrote, in one transaction. */
  async undo(args: ParsedArgs<'ingest.undo'>, actor: Actor): Promise<IngestUndoResult> {
    const store = await this.o.store(args.store);
    const row = this.requireBatch(store, args.batch);
    if (row.status === 'undone') {
      throw new LociError(
        'conflict',
        `Import batch ${args.batch} is already undone; redo it to bring its memories back.`,
        { batch: args.batch },
      );
    }
    const vis = visibilityFilter(actor);
    const ids = (
      stmt(
        store.db,
        `SELECT m.id FROM memory m JOIN memory_tag t ON t.rid = m.rid
          WHERE t.tag = ? AND m.deleted_at IS NULL AND ${vis.sql} ORDER BY m.rid`,
      ).all(`batch:${args.batch}`, ...vis.params) as { id: string }[]
    ).map((r) => r.id);
    const now = this.o.now();
    store.db.transaction(() => {
      for (const id of ids) forgetMemory(store, actor, id, now);
      markUndone(store, row, ids, now);
      store.audit.append(
        {
          actor: actorName(actor),
          action: 'ingest.undo',
          target: args.batch,
          data: { memories: ids.length },
        },
        now,
      );
    })();
    if (ids.length) await this.o.changed(store, ids, 'forgotten', actor);
    this.o.events.emit('ingest.changed', {
      store: store.name,
      batch: args.batch,
      status: 'undone',
    });
    return { batch: args.batch, store: store.name, status: 'undone', memories: ids.length };
  }

  /** Restores exactly the memories the undo forgot (those not erased since). */
  async redo(args: ParsedArgs<'ingest.redo'>, actor: Actor): Promise<IngestUndoResult> {
    const store = await this.o.store(args.store);
    const row = this.requireBatch(store, args.batch);
    if (row.status !== 'undone') {
      throw new LociError(
        'conflict',
        `Import batch ${args.batch} is not undone: there is nothing to redo.`,
        { batch: args.batch },
      );
    }
    const ids = (JSON.parse(row.undone_ids) as string[]).filter((id) => {
      const m = loadRow(store, id);
      return m !== undefined && m.deleted_at !== null;
    });
    const now = this.o.now();
    store.db.transaction(() => {
      for (const id of ids) restoreMemory(store, actor, id, now);
      markRedone(store, row);
      store.audit.append(
        {
          actor: actorName(actor),
          action: 'ingest.redo',
          target: args.batch,
          data: { memories: ids.length },
        },
        now,
      );
    })();
    if (ids.length) await this.o.changed(store, ids, 'restored', actor);
    this.o.events.emit('ingest.changed', { store: store.name, batch: args.batch, status: 'done' });
    const status = getBatch(store, args.batch)?.status ?? 'done';
    return { batch: args.batch, store: store.name, status, memories: ids.length };
  }

  // ------------------------------------------------------------------ ingesting

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

  async files(args: ParsedArgs<'ingest.files'>, actor: Actor): Promise<IngestReport> {
    const store = await this.o.store(args.store);
    let roots: string[];
    let shown: string[];
    let displayRoot: string | undefined;
    if (args.upload !== undefined) {
      if (!isPerson(actor))
        throw new LociError('forbidden', 'Only a person can ingest uploaded files.');
      if (!(await this.staging.exists(args.upload))) {
        throw new LociError(
          'not-found',
          `No files were staged under upload ${args.upload} (send them with ingest.upload first).`,
          { upload: args.upload },
        );
      }
      displayRoot = this.staging.dirOf(args.upload);
      roots = [displayRoot];
      shown = await this.staging.topLevel(args.upload);
    } else {
      const paths = args.paths ?? [];
      for (const p of paths) {
        if (!isAbsolute(p)) {
          throw new LociError(
            'invalid-args',
            `"${p}" is not an absolute path: give the whole path of the file or folder`,
            { field: 'paths' },
          );
        }
      }
      roots = paths.map((p) => resolve(p));
      if (actor.kind === 'mcp') await checkAllowed(roots, this.allowed);
      shown = roots;
    }
    const batch = args.batch ?? this.o.newId();
    if (this.running.has(batch) || getBatch(store, batch)) {
      throw new LociError(
        'conflict',
        `An import batch ${batch} exists already: choose another id.`,
        { batch },
      );
    }
    insertBatch(store, { id: batch, actor: actorName(actor), roots: shown, now: this.o.now() });
    const run: Running = { cancelled: false, abort: new AbortController() };
    this.running.set(batch, run);
    try {
      return await this.runBatch(store, actor, args, batch, run, roots, displayRoot);
    } finally {
      this.running.delete(batch);
      if (args.upload !== undefined) await this.staging.remove(args.upload).catch(() => undefined);
    }
  }

  private async runBatch(
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
    let next: Promise<Loaded> | null = files[0] ? this.load(files[0], run, sizes) : null;
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
      next = following && !run.cancelled ? this.load(following, run, sizes) : null;
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
      );
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
        bytes: read.bytes.length,
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
        process.emitWarning(
          `ingest of ${file.display} failed: ${(err as Error)?.stack ?? message}`,
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

  async close(): Promise<void> {
    for (const run of this.running.values()) {
      run.cancelled = true;
      run.abort.abort();
    }
    await this.pool.close();
  }
}
