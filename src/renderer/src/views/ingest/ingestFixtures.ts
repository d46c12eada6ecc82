// Contract-shaped answers and browser-shaped drops for the Ingest view's tests.
import type {
  IngestBatchInfo,
  IngestFileReport,
  IngestReport,
  IngestTotals,
} from '../../../../shared/api';
import type { EventMap } from '../../../../shared/events';

export const DOC_A = '01JDOCA0000000000000000000';
export const DOC_B = '01JDOCB0000000000000000000';

export function totals(overrides: Partial<IngestTotals> = {}): IngestTotals {
  return {
    files: 0,
    ingested: 0,
    skipped: 0,
    failed: 0,
    cancelled: 0,
    memories: 0,
    chunks: 0,
    bytes: 0,
    quarantined: 0,
    duration_ms: 12,
    ...overrides,
  };
}

export function fileReport(
  path: string,
  overrides: Partial<IngestFileReport> = {},
): IngestFileReport {
  return {
    path,
    format: 'markdown',
    status: 'ingested',
    reason: null,
    bytes: 100,
    chunks: 0,
    document_id: null,
    memory_ids: [],
    quarantined: 0,
    duplicates: 0,
    duration_ms: 3,
    notes: [],
    ...overrides,
  };
}

export function report(
  batch: string,
  files: IngestFileReport[],
  status: IngestReport['status'] = 'done',
): IngestReport {
  const t = totals({ files: files.length });
  for (const f of files) {
    if (f.status === 'ingested') t.ingested++;
    else t[f.status]++;
    if (f.status === 'ingested') {
      t.chunks += f.chunks;
      t.memories += f.chunks + (f.document_id ? 1 : 0);
    }
    t.quarantined += f.quarantined;
    t.bytes += f.bytes;
  }
  return { batch, store: 'default', status, files, totals: t };
}

export function batchInfo(
  batch: string,
  overrides: Partial<IngestBatchInfo> = {},
): IngestBatchInfo {
  return {
    batch,
    store: 'default',
    status: 'done',
    actor: 'ui',
    roots: ['notes'],
    started_at: new Date(Date.now() - 120_000).toISOString(),
    finished_at: new Date(Date.now() - 110_000).toISOString(),
    undone_at: null,
    totals: totals({ files: 3, ingested: 2, skipped: 1, memories: 5, chunks: 3 }),
    ...overrides,
  };
}

export function progress(
  batch: string,
  overrides: Partial<EventMap['ingest.progressed']>,
): EventMap['ingest.progressed'] {
  return {
    store: 'default',
    batch,
    phase: 'file',
    file: null,
    file_index: 0,
    files: 2,
    chunks_done: 0,
    chunks_total: null,
    bytes_done: 0,
    bytes_total: 200,
    status: null,
    totals: null,
    ...overrides,
  };
}

/** A file entry as Chromium's webkitGetAsEntry gives it. */
export function fileEntry(file: File): FileSystemFileEntry {
  return {
    isFile: true,
    isDirectory: false,
    name: file.name,
    file: (ok: (f: File) => void) => ok(file),
  } as unknown as FileSystemFileEntry;
}

/** A folder entry whose reader answers in batches of two, then [] (as browsers do). */
export function dirEntry(name: string, children: FileSystemEntry[]): FileSystemDirectoryEntry {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader() {
      let at = 0;
      return {
        readEntries(ok: (entries: FileSystemEntry[]) => void) {
          const batch = children.slice(at, at + 2);
          at += batch.length;
          setTimeout(() => ok(batch), 0);
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

/** A DataTransfer of a drop carrying these entries (files or folders). */
export function dropData(entries: FileSystemEntry[]): DataTransfer {
  const items = entries.map((entry) => ({
    kind: 'file',
    type: '',
    webkitGetAsEntry: () => entry,
    getAsFile: () => null,
  }));
  return {
    types: ['Files'],
    items,
    files: [],
    dropEffect: 'none',
  } as unknown as DataTransfer;
}

export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
