// The import-batch table: one row per ingest call, with its report, so that a batch can
// be listed, undone (its memories forgotten in one transaction) and redone.
import type {
  IngestBatchInfo,
  IngestBatchStatus,
  IngestFileReport,
  IngestTotals,
} from '../../../shared/api';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';

interface BatchRow {
  id: string;
  status: IngestBatchStatus;
  actor: string;
  roots: string;
  started_at: number;
  finished_at: number | null;
  undone_at: number | null;
  totals: string;
  files: string;
  undone_ids: string;
  status_before_undo: IngestBatchStatus | null;
}

export function emptyTotals(): IngestTotals {
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
    duration_ms: 0,
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toBatchInfo(store: string, row: BatchRow, running: boolean): IngestBatchInfo {
  return {
    batch: row.id,
    store,
    // A batch left `running` by a process that stopped mid-way ended there.
    status: row.status === 'running' && !running ? 'cancelled' : row.status,
    actor: row.actor,
    roots: JSON.parse(row.roots) as string[],
    started_at: iso(row.started_at) as string,
    finished_at: iso(row.finished_at),
    undone_at: iso(row.undone_at),
    totals: JSON.parse(row.totals) as IngestTotals,
  };
}

export function getBatch(store: OpenStore, id: string): BatchRow | undefined {
  return stmt(store.db, 'SELECT * FROM ingest_batch WHERE id = ?').get(id) as BatchRow | undefined;
}

export function insertBatch(
  store: OpenStore,
  row: { id: string; actor: string; roots: string[]; now: number },
): void {
  stmt(
    store.db,
    `INSERT INTO ingest_batch (id, status, actor, roots, started_at, totals, files)
     VALUES (?, 'running', ?, ?, ?, ?, '[]')`,
  ).run(row.id, row.actor, JSON.stringify(row.roots), row.now, JSON.stringify(emptyTotals()));
}

export function saveProgress(
  store: OpenStore,
  id: string,
  totals: IngestTotals,
  files: IngestFileReport[],
): void {
  stmt(store.db, 'UPDATE ingest_batch SET totals = ?, files = ? WHERE id = ?').run(
    JSON.stringify(totals),
    JSON.stringify(files),
    id,
  );
}

export function finishBatch(
  store: OpenStore,
  id: string,
  status: 'done' | 'cancelled',
  totals: IngestTotals,
  files: IngestFileReport[],
  now: number,
): void {
  stmt(
    store.db,
    'UPDATE ingest_batch SET status = ?, finished_at = ?, totals = ?, files = ? WHERE id = ?',
  ).run(status, now, JSON.stringify(totals), JSON.stringify(files), id);
}

export function listBatches(store: OpenStore, limit: number): BatchRow[] {
  return stmt(store.db, 'SELECT * FROM ingest_batch ORDER BY started_at DESC, id DESC LIMIT ?').all(
    limit,
  ) as BatchRow[];
}

export function markUndone(store: OpenStore, row: BatchRow, ids: string[], now: number): void {
  stmt(
    store.db,
    `UPDATE ingest_batch SET status = 'undone', undone_at = ?, undone_ids = ?,
       status_before_undo = ? WHERE id = ?`,
  ).run(now, JSON.stringify(ids), row.status === 'running' ? 'cancelled' : row.status, row.id);
}

export function markRedone(store: OpenStore, row: BatchRow): void {
  stmt(
    store.db,
    `UPDATE ingest_batch SET status = ?, undone_at = NULL, undone_ids = '[]',
       status_before_undo = NULL WHERE id = ?`,
  ).run(row.status_before_undo ?? 'done', row.id);
}

export type { BatchRow };
