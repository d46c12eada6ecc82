// The state of one import as the Ingest view shows it, and the pure steps that move it:
// files picked → rows (with what is refused before sending), progress events and the
// engine's report applied to the rows. No I/O here (importStore.ts runs the import).
import type {
  IngestFileReport,
  IngestFileStatus,
  IngestFormat,
  IngestReport,
} from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import type { EventMap } from '../../../../shared/events';
import { isUploadPath, LIMITS } from '../../../../shared/constants';
import type { PickedFiles } from '../../lib/droppedFiles';
import { formatBytes } from '../../lib/format';

export const UPLOAD_FILE_MAX_BYTES: (typeof LIMITS)['uploadFileMaxBytes'] =
  LIMITS.uploadFileMaxBytes;

/** Before the engine's word: waiting, on its way, sent; then the engine's statuses. */
export type RowStatus = 'waiting' | 'uploading' | 'uploaded' | 'reading' | IngestFileStatus;

export interface FileRow {
  path: string;
  bytes: number;
  format: IngestFormat | null;
  status: RowStatus;
  reason: string | null;
  chunksDone: number;
  chunksTotal: number | null;
  documentId: string | null;
  memoryIds: string[];
  quarantined: number;
  duplicates: number;
  /** What the engine noted while reading it (a summarised CSV, replaced bytes…). */
  notes: string[];
  /** Refused here, never sent (too large, a path the engine would refuse, a hidden folder). */
  local: boolean;
}

export type ImportPhase = 'uploading' | 'ingesting' | 'done' | 'cancelled' | 'failed';

export interface ImportRun {
  store: string;
  upload: string;
  batch: string;
  phase: ImportPhase;
  rows: FileRow[];
  /** The files to send (not refused here). */
  uploadFiles: number;
  uploadBytes: number;
  uploadedFiles: number;
  uploadedBytes: number;
  /** The engine's own progress once it works on the batch. */
  ingest: { files: number; filesDone: number; bytesDone: number; bytesTotal: number } | null;
  report: IngestReport | null;
  error: { title: string; error: LociError } | null;
  /** After Undo: the batch's memories are forgotten (Redo brings them back). */
  undone: boolean;
  /** A cancel was asked and not yet answered. */
  cancelling: boolean;
}

/** The format the engine will likely give the file, from its extension (shown until the report). */
const EXTENSIONS: Record<string, IngestFormat> = {
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  txt: 'text',
  text: 'text',
  log: 'text',
  rst: 'text',
  json: 'json',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  csv: 'csv',
  tsv: 'csv',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
  docx: 'docx',
};
const CODE = new Set(
  'ts tsx js jsx mjs cjs py rb go rs java kt kts swift c h cc cpp hpp cs php scala sh bash zsh sql lua r dart ex exs erl hs ml clj vue svelte css scss less yaml yml toml ini xml'.split(
    ' ',
  ),
);

export function guessFormat(path: string): IngestFormat | null {
  const name = path.split('/').pop() ?? path;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = name.slice(dot + 1).toLowerCase();
  return EXTENSIONS[ext] ?? (CODE.has(ext) ? 'code' : null);
}

function row(path: string, bytes: number, extra: Partial<FileRow> = {}): FileRow {
  return {
    path,
    bytes,
    format: guessFormat(path),
    status: 'waiting',
    reason: null,
    chunksDone: 0,
    chunksTotal: null,
    documentId: null,
    memoryIds: [],
    quarantined: 0,
    duplicates: 0,
    notes: [],
    local: false,
    ...extra,
  };
}

/** Two dropped files with one name ("notes.md" twice): the second becomes "notes (2).md". */
function uniquePath(path: string, taken: Set<string>): string {
  if (!taken.has(path)) return path;
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  const cut = dot > slash + 1 ? dot : path.length;
  for (let n = 2; ; n++) {
    const candidate = `${path.slice(0, cut)} (${n})${path.slice(cut)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

const ORDER = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export interface PlannedImport {
  rows: FileRow[];
  /** The files to send, with the path they are sent under. */
  send: { path: string; file: File }[];
}

/** The rows of an import, and what to send: what the engine would refuse anyway stays here. */
export function planImport(picked: PickedFiles): PlannedImport {
  const rows: FileRow[] = [];
  const send: PlannedImport['send'] = [];
  const taken = new Set<string>();
  // Folders come from the browser in no useful order: a person reads paths sorted.
  const files = picked.files.slice().sort((a, b) => ORDER.compare(a.path, b.path));
  for (const { path: given, file } of files) {
    const path = uniquePath(given, taken);
    taken.add(path);
    if (file.size > UPLOAD_FILE_MAX_BYTES) {
      rows.push(
        row(path, file.size, {
          status: 'skipped',
          local: true,
          reason: `larger than ${formatBytes(UPLOAD_FILE_MAX_BYTES)}, the most the observatory can send (use \`loci ingest\` for it)`,
        }),
      );
      continue;
    }
    if (!isUploadPath(path)) {
      rows.push(
        row(path, file.size, {
          status: 'skipped',
          local: true,
          reason: 'its name cannot be sent (a backslash, or an empty or "." part in its path)',
        }),
      );
      continue;
    }
    rows.push(row(path, file.size));
    send.push({ path, file });
  }
  for (const left of picked.left)
    rows.push(
      row(left.path, 0, { status: 'skipped', local: true, reason: left.reason, format: null }),
    );
  return { rows, send };
}

export function newRun(
  store: string,
  upload: string,
  batch: string,
  plan: PlannedImport,
): ImportRun {
  return {
    store,
    upload,
    batch,
    phase: 'uploading',
    rows: plan.rows,
    uploadFiles: plan.send.length,
    uploadBytes: plan.send.reduce((n, s) => n + s.file.size, 0),
    uploadedFiles: 0,
    uploadedBytes: 0,
    ingest: null,
    report: null,
    error: null,
    undone: false,
    cancelling: false,
  };
}

export function setRow(run: ImportRun, path: string, patch: Partial<FileRow>): ImportRun {
  const index = run.rows.findIndex((r) => r.path === path);
  if (index < 0) return { ...run, rows: [...run.rows, { ...row(path, 0), ...patch }] };
  const rows = run.rows.slice();
  rows[index] = { ...(rows[index] as FileRow), ...patch };
  return { ...run, rows };
}

export type IngestProgress = EventMap['ingest.progressed'];

/** One progress event of this run's batch. */
export function applyProgress(run: ImportRun, e: IngestProgress): ImportRun {
  const filesDone =
    e.phase === 'finished' ? e.files : e.phase === 'file-done' ? e.file_index + 1 : e.file_index;
  let next: ImportRun = {
    ...run,
    ingest: {
      files: e.files,
      filesDone: Math.min(e.files, Math.max(filesDone, run.ingest?.filesDone ?? 0)),
      bytesDone: e.bytes_done,
      bytesTotal: e.bytes_total,
    },
  };
  if (e.file === null) return next;
  const total = e.chunks_total === null ? {} : { chunksTotal: e.chunks_total };
  if (e.phase === 'file')
    next = setRow(next, e.file, { status: 'reading', chunksDone: 0, ...total });
  else if (e.phase === 'chunk')
    next = setRow(next, e.file, { status: 'reading', chunksDone: e.chunks_done, ...total });
  else if (e.phase === 'file-done')
    next = setRow(next, e.file, {
      status: e.status ?? 'ingested',
      chunksDone: e.chunks_done,
      ...total,
    });
  return next;
}

function fromReport(f: IngestFileReport): Partial<FileRow> {
  return {
    bytes: f.bytes,
    format: f.format,
    status: f.status,
    reason: f.reason,
    chunksDone: f.chunks,
    chunksTotal: f.chunks,
    documentId: f.document_id,
    memoryIds: f.memory_ids,
    quarantined: f.quarantined,
    duplicates: f.duplicates,
    notes: f.notes ?? [],
    local: false,
  };
}

/** The engine's answer: every file it saw gets its final word; rows refused here stay. */
export function applyReport(run: ImportRun, report: IngestReport): ImportRun {
  // One pass over the rows (an import may hold thousands of files).
  const byPath = new Map(report.files.map((f) => [f.path, f]));
  const rows = run.rows.map((r): FileRow => {
    const f = byPath.get(r.path);
    if (f) {
      byPath.delete(r.path);
      return { ...r, ...fromReport(f) };
    }
    // Files sent that the report does not name were never reached (a cancel).
    return r.local
      ? r
      : { ...r, status: 'cancelled', reason: r.reason ?? 'not reached before the cancel' };
  });
  for (const f of byPath.values()) rows.push({ ...row(f.path, f.bytes), ...fromReport(f) });
  return { ...run, rows, report, phase: report.status, cancelling: false };
}

export interface RowCounts {
  ingested: number;
  skipped: number;
  failed: number;
  cancelled: number;
  memories: number;
  chunks: number;
  quarantined: number;
}

/** Totals over the rows: the engine's totals plus what was refused here. */
export function countRows(rows: readonly FileRow[]): RowCounts {
  const c: RowCounts = {
    ingested: 0,
    skipped: 0,
    failed: 0,
    cancelled: 0,
    memories: 0,
    chunks: 0,
    quarantined: 0,
  };
  for (const r of rows) {
    if (r.status === 'ingested') c.ingested++;
    else if (r.status === 'skipped') c.skipped++;
    else if (r.status === 'failed') c.failed++;
    else if (r.status === 'cancelled') c.cancelled++;
    if (r.status === 'ingested') {
      c.chunks += r.chunksDone;
      // As the engine counts: its document, and each chunk not already in the store.
      c.memories += r.chunksDone - r.duplicates + 1;
    }
    c.quarantined += r.quarantined;
  }
  return c;
}

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** One line for the live region: changes per file, not per chunk. */
export function announce(run: ImportRun): string {
  switch (run.phase) {
    case 'uploading':
      return run.cancelling
        ? 'Cancelling the import…'
        : `Sending ${plural(run.uploadFiles, 'file')} to Loci: ${run.uploadedFiles} sent.`;
    case 'ingesting': {
      if (run.cancelling) return 'Cancelling the import…';
      const i = run.ingest;
      return i
        ? `Importing: ${i.filesDone} of ${plural(i.files, 'file')} done.`
        : 'Importing: Loci is reading the files…';
    }
    case 'done':
    case 'cancelled': {
      const c = countRows(run.rows);
      const head = run.phase === 'done' ? 'Import finished' : 'Import cancelled';
      return `${head}: ${plural(c.ingested, 'file')} imported as ${plural(c.memories, 'memory', 'memories')}, ${c.skipped} skipped, ${c.failed} failed.`;
    }
    case 'failed':
      return `Import failed: ${run.error?.error.message ?? 'see the error'}`;
  }
}
