// The contract by domain (ingest): ingestion: files, batches, uploads and the folders
// agents may read.
import type { INGEST_FORMATS } from '../schemas';

export type IngestFormat = (typeof INGEST_FORMATS)[number];

/**
 * What happened to one file: `ingested` (all its memories written in one transaction),
 * `skipped` (hidden, ignored, binary, too large, a link leading outside the root, not a
 * regular file, unchanged duplicate…: `reason` says which), `failed` (parsing failed or
 * went past its time or memory budget; nothing of it was written), `cancelled`.
 */
export type IngestFileStatus = 'ingested' | 'skipped' | 'failed' | 'cancelled';

export interface IngestFileReport {
  /** As given (absolute), or relative to the upload's root. */
  path: string;
  format: IngestFormat | null;
  status: IngestFileStatus;
  /** Why it was skipped or failed, in a sentence; null when ingested. */
  reason: string | null;
  bytes: number;
  /** Chunk memories written (the document memory not counted). */
  chunks: number;
  /** The memory that stands for the whole file (its chunks are `part_of` it). */
  document_id: string | null;
  /** The chunk memories in reading order. */
  memory_ids: string[];
  /** Memories of this file held back because they look like they hold a secret. */
  quarantined: number;
  /** Chunks that were already in the store (exact duplicates): linked, not written again. */
  duplicates: number;
  duration_ms: number;
  /**
   * What is worth knowing about a file that was read: invalid UTF-8 replaced, a large
   * CSV summarised, malformed quoting read without quotes, pages without text…
   */
  notes: string[];
}

export interface IngestTotals {
  files: number;
  ingested: number;
  skipped: number;
  failed: number;
  cancelled: number;
  /** Memories written: documents and chunks. */
  memories: number;
  chunks: number;
  bytes: number;
  quarantined: number;
  duration_ms: number;
}

export interface IngestReport {
  batch: string;
  store: string;
  status: 'done' | 'cancelled';
  files: IngestFileReport[];
  totals: IngestTotals;
}

export type IngestBatchStatus = 'running' | 'done' | 'cancelled' | 'undone';

export interface IngestBatchInfo {
  batch: string;
  store: string;
  status: IngestBatchStatus;
  actor: string;
  /** What was dropped or named: the paths (or the upload's top-level names). */
  roots: string[];
  started_at: string;
  finished_at: string | null;
  undone_at: string | null;
  totals: IngestTotals;
}

export interface IngestListResult {
  store: string;
  batches: IngestBatchInfo[];
}

export interface IngestUndoResult {
  batch: string;
  store: string;
  status: IngestBatchStatus;
  /** Memories forgotten (undo) or restored (redo). */
  memories: number;
}

export interface IngestUploadResult {
  upload: string;
  path: string;
  bytes: number;
  /** Files staged under this upload so far. */
  files: number;
}

export interface IngestCancelResult {
  batch: string;
  /** False when no such batch was running (already finished, or unknown). */
  cancelled: boolean;
}

export interface IngestFoldersResult {
  /** Folders the MCP tool ingest_file may read from. */
  folders: string[];
}
