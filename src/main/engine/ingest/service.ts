// File ingestion (DESIGN.md §1 journey 4): walk what was dropped, parse each file off
// the main thread, write each file's memories in one transaction, report every file.
// Batches are recorded so they can be listed, cancelled, undone and redone.
import { isAbsolute, resolve } from 'node:path';
import type {
  Actor,
  IngestCancelResult,
  IngestFoldersResult,
  IngestListResult,
  IngestReport,
  IngestUndoResult,
  IngestUploadResult,
  ParsedArgs,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { MemoryChange } from '../../../shared/events';
import { updateConfig, type Config } from '../config';
import type { EngineEvents } from '../events';
import { actorName, isPerson, visibilityFilter } from '../memory/model';
import { forgetMemory, restoreMemory } from '../memory/mutate';
import { loadRow } from '../memory/read';
import type { CreatedMemory } from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { getBatch, insertBatch, listBatches, markRedone, markUndone, toBatchInfo } from './batches';
import type { ConfirmHook } from '../memory/bulkGuard';
import { checkAllowed, validateFolders } from './folders';
import { DEFAULT_INGEST_LIMITS, type IngestLimits } from './limits';
import { ParserPool } from './pool';
import { BatchRunner, type Running } from './runner';
import { Staging } from './staging';

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

export class IngestService {
  readonly limits: IngestLimits;
  private readonly pool: ParserPool;
  private readonly staging: Staging;
  private readonly running = new Map<string, Running>();
  private readonly runner: BatchRunner;
  private allowed: string[];

  constructor(private readonly o: IngestServiceOptions) {
    this.limits = { ...DEFAULT_INGEST_LIMITS, ...o.limits };
    this.pool = new ParserPool(this.limits.workerHeapMb);
    this.staging = new Staging(o.dataDir, this.limits.maxUploadBytes);
    this.runner = new BatchRunner(o, this.limits, this.pool);
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

  async files(
    args: ParsedArgs<'ingest.files'>,
    actor: Actor,
    /** The person's yes, asked in the client, to a folder agents may not read on their own. */
    confirm?: ConfirmHook,
  ): Promise<IngestReport> {
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
      if (actor.kind === 'mcp') {
        try {
          await checkAllowed(roots, this.allowed);
        } catch (err) {
          if (!(err instanceof LociError && err.code === 'forbidden' && confirm)) throw err;
          if (!confirm.granted) {
            throw confirm.ask(
              err.message,
              `${actorName(actor)} asks to read ${roots.join(', ')} into memory, outside the folders agents may ingest from. Allow it this once?`,
              err.data ?? {},
            );
          }
        }
      }
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
      return await this.runner.run(store, actor, args, batch, run, roots, displayRoot);
    } finally {
      this.running.delete(batch);
      if (args.upload !== undefined) await this.staging.remove(args.upload).catch(() => undefined);
    }
  }

  /** An import batch runs. */
  get working(): boolean {
    return this.running.size > 0;
  }

  /** Lets the parser worker go while no file is read (engine/footprint.ts). */
  releaseParser(): Promise<void> {
    return this.pool.release();
  }

  async close(): Promise<void> {
    for (const run of this.running.values()) {
      run.cancelled = true;
      run.abort.abort();
    }
    await this.pool.close();
  }
}
