// The import running now (or the last one), kept outside the view so it goes on while
// the person looks elsewhere: files are sent with ingest.upload a few at a time under a
// fresh upload id, then ingest.files {upload, batch} runs with a batch id chosen here, so
// Cancel works before the engine answers; its progress events fill the rows.
import { ulid } from 'ulidx';
import { create } from 'zustand';
import { LociError } from '../../../../shared/errors';
import type { EngineClient } from '../../lib/engineClient';
import type { PickedFiles } from '../../lib/droppedFiles';
import { toLociError } from '../../lib/useEngineQuery';
import { fileToBase64 } from './base64';
import {
  applyProgress,
  applyReport,
  newRun,
  planImport,
  setRow,
  type ImportRun,
} from './importModel';

/** Uploads in flight at once: enough to keep the daemon busy, few enough to stay light. */
export const UPLOAD_CONCURRENCY = 3;

/** How often the rows of a running import are redrawn, at most. */
export const FLUSH_MS = 100;

export interface StartOptions {
  /** Extra tags on every memory of the batch. */
  tags?: string[];
}

export interface ImportState {
  run: ImportRun | null;
  /** Starts an import of these files into `store`; false when one is running already. */
  start(client: EngineClient, store: string, picked: PickedFiles, options?: StartOptions): boolean;
  cancel(client: EngineClient): Promise<void>;
  /** Marks the current run undone or redone after ingest.undo / ingest.redo. */
  markUndone(batch: string, undone: boolean): void;
  /** Forgets the finished run (back to the drop zone). */
  clear(): void;
  /** Drops everything, a running import's steps included (tests). */
  reset(): void;
}

export const isRunning = (run: ImportRun | null): boolean =>
  run !== null && (run.phase === 'uploading' || run.phase === 'ingesting');

/** Sending one file failed: the whole import stops, naming the file. */
class UploadFailure extends Error {
  constructor(
    readonly title: string,
    readonly error: LociError,
  ) {
    super(error.message);
  }
}

const isAbort = (err: unknown) => (err as { name?: unknown } | null)?.name === 'AbortError';

// The upload in flight can be stopped; it is not state to render.
let uploadAbort: AbortController | null = null;

export const useImportStore = create<ImportState>()((set, get) => {
  // Steps of a run land in a draft first and reach the view at most every FLUSH_MS: a
  // folder of a thousand files makes thousands of steps, and a render for each would
  // cost more than the upload itself. What the person did or must see (a phase, a
  // cancel, an error) is shown at once.
  let draft: ImportRun | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (draft) set({ run: draft });
    draft = null;
  };
  const current = () => draft ?? get().run;

  /** Applies a step to the run, only while it is still the run with this batch. */
  const update = (batch: string, step: (run: ImportRun) => ImportRun, now = false) => {
    const run = current();
    if (!run || run.batch !== batch) return;
    draft = step(run);
    if (now || draft.phase !== run.phase || draft.cancelling !== run.cancelling) flush();
    else timer ??= setTimeout(flush, FLUSH_MS);
  };
  const fail = (batch: string, title: string, error: LociError) =>
    update(batch, (r) => ({ ...r, phase: 'failed', cancelling: false, error: { title, error } }));

  async function upload(
    client: EngineClient,
    run: ImportRun,
    send: { path: string; file: File }[],
  ) {
    const controller = new AbortController();
    uploadAbort = controller;
    const queue = send.slice();
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        if (controller.signal.aborted) return;
        const { path, file } = next;
        update(run.batch, (r) => setRow(r, path, { status: 'uploading' }));
        let content: string;
        try {
          content = await fileToBase64(file);
        } catch {
          throw new UploadFailure(
            `Could not read ${path}`,
            new LociError(
              'not-found',
              `The browser could not read “${path}”: was it moved or deleted meanwhile?`,
            ),
          );
        }
        try {
          await client.call(
            'ingest.upload',
            {
              upload: run.upload,
              path,
              content_base64: content,
              ...(file.lastModified > 0 ? { modified: Math.floor(file.lastModified) } : {}),
            },
            { signal: controller.signal },
          );
        } catch (err) {
          if (isAbort(err)) return;
          throw new UploadFailure(`Could not send ${path} to Loci`, toLociError(err));
        }
        update(run.batch, (r) => ({
          ...setRow(r, path, { status: 'uploaded' }),
          uploadedFiles: r.uploadedFiles + 1,
          uploadedBytes: r.uploadedBytes + file.size,
        }));
      }
    };
    try {
      await Promise.all(Array.from({ length: UPLOAD_CONCURRENCY }, worker));
    } catch (err) {
      controller.abort();
      throw err;
    } finally {
      if (uploadAbort === controller) uploadAbort = null;
    }
    return !controller.signal.aborted;
  }

  async function execute(
    client: EngineClient,
    run: ImportRun,
    send: { path: string; file: File }[],
    options: StartOptions,
  ) {
    const off = client.on('ingest.progressed', (e) => {
      if (e.batch === run.batch) update(run.batch, (r) => applyProgress(r, e));
    });
    try {
      let sent: boolean;
      try {
        sent = await upload(client, run, send);
      } catch (err) {
        if (err instanceof UploadFailure) fail(run.batch, err.title, err.error);
        else fail(run.batch, 'The import failed', toLociError(err));
        return;
      }
      if (!sent) {
        update(run.batch, (r) => ({
          ...r,
          phase: 'cancelled',
          cancelling: false,
          rows: r.rows.map((row) =>
            row.local
              ? row
              : { ...row, status: 'cancelled', reason: 'cancelled before it was sent' },
          ),
        }));
        return;
      }
      update(run.batch, (r) => ({ ...r, phase: 'ingesting' }));
      try {
        const report = await client.call('ingest.files', {
          store: run.store,
          upload: run.upload,
          batch: run.batch,
          ...(options.tags?.length ? { tags: options.tags } : {}),
        });
        update(run.batch, (r) => applyReport(r, report));
      } catch (err) {
        fail(run.batch, 'The import failed', toLociError(err));
      }
    } finally {
      off();
    }
  }

  return {
    run: null,
    start(client, store, picked, options = {}) {
      if (isRunning(current())) return false;
      flush();
      const plan = planImport(picked);
      const run = newRun(store, ulid(), ulid(), plan);
      set({ run });
      if (plan.send.length === 0) {
        // Nothing to send: the rows say why each was refused.
        set({ run: { ...run, phase: 'done' } });
        return true;
      }
      void execute(client, run, plan.send, options);
      return true;
    },
    async cancel(client) {
      const run = current();
      if (!run || !isRunning(run)) return;
      update(run.batch, (r) => ({ ...r, cancelling: true }));
      if (run.phase === 'uploading') {
        uploadAbort?.abort();
        return;
      }
      try {
        const answer = await client.call('ingest.cancel', { batch: run.batch });
        // Not running any more: it finished meanwhile, and its report is on its way.
        if (!answer.cancelled) update(run.batch, (r) => ({ ...r, cancelling: false }));
      } catch (err) {
        update(run.batch, (r) => ({ ...r, cancelling: false }));
        throw err;
      }
    },
    markUndone(batch, undone) {
      update(batch, (r) => ({ ...r, undone }), true);
    },
    clear() {
      if (isRunning(current())) return;
      flush();
      set({ run: null });
    },
    reset() {
      if (timer) clearTimeout(timer);
      timer = null;
      draft = null;
      uploadAbort?.abort();
      set({ run: null });
    },
  };
});
