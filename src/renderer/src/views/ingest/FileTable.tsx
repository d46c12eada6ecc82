// A row per file of an import: its path (a link to its document memory once imported),
// format, status with the reason for a skip or failure, chunks written (with a bar while
// it is being read) and how many of its memories were quarantined.
import { memo } from 'react';
import { routeHref } from '../../lib/router';
import { formatBytes, formatCount } from '../../lib/format';
import type { FileRow, RowStatus } from './importModel';

const STATUS: Record<RowStatus, { label: string; tone: string }> = {
  waiting: { label: 'Waiting', tone: 'muted' },
  uploading: { label: 'Sending', tone: 'busy' },
  uploaded: { label: 'Sent', tone: 'muted' },
  reading: { label: 'Importing', tone: 'busy' },
  ingested: { label: 'Imported', tone: 'ok' },
  skipped: { label: 'Skipped', tone: 'warn' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'muted' },
};

export function StatusPill({ status }: { status: RowStatus }) {
  const s = STATUS[status];
  return <span className={`pill ig-pill-${s.tone}`}>{s.label}</span>;
}

function Chunks({ row }: { row: FileRow }) {
  if (row.status === 'reading') {
    const total = row.chunksTotal;
    const pct = total ? Math.min(100, Math.round((row.chunksDone / total) * 100)) : null;
    return (
      <div className="ig-chunks">
        <span>
          {formatCount(row.chunksDone)}
          {total !== null ? ` / ${formatCount(total)}` : ''}
        </span>
        <span
          className="bar ig-row-bar"
          role="progressbar"
          aria-label={`Chunks of ${row.path}`}
          aria-valuemin={0}
          aria-valuemax={100}
          {...(pct === null ? {} : { 'aria-valuenow': pct })}
        >
          <span className="bar-fill" style={{ width: `${pct ?? 0}%` }} />
        </span>
      </div>
    );
  }
  if (row.status === 'ingested' || row.chunksDone > 0) return <>{formatCount(row.chunksDone)}</>;
  return <span className="ig-muted">—</span>;
}

/**
 * One file's row. Memoised: an import of thousands of files updates one row per event,
 * and the rows whose data did not change keep their object (see setRow) and skip rendering.
 */
const FileRowView = memo(function FileRowView({ row }: { row: FileRow }) {
  return (
    <tr data-file={row.path} data-status={row.status}>
      <th scope="row" className="ig-file">
        {row.documentId ? (
          <a
            href={routeHref(`/memories/${row.documentId}`)}
            title="Open the document memory of this file"
          >
            {row.path}
          </a>
        ) : (
          <span>{row.path}</span>
        )}
        {row.bytes > 0 ? <span className="ig-size">{formatBytes(row.bytes)}</span> : null}
        {row.reason ? <span className="ig-reason">{row.reason}</span> : null}
        {row.notes.map((note) => (
          <span key={note} className="ig-note">
            {note}
          </span>
        ))}
        {row.duplicates > 0 ? (
          <span className="ig-note">
            {row.duplicates === 1
              ? '1 chunk was in the store already: linked, not written again'
              : `${row.duplicates} chunks were in the store already: linked, not written again`}
          </span>
        ) : null}
      </th>
      <td>{row.format ?? <span className="ig-muted">—</span>}</td>
      <td>
        <StatusPill status={row.status} />
      </td>
      <td className="ig-num">
        <Chunks row={row} />
      </td>
      <td className="ig-num">
        {row.quarantined > 0 ? (
          <span className="pill ig-pill-warn" title="Held back: they look like secrets">
            {formatCount(row.quarantined)}
          </span>
        ) : (
          <span className="ig-muted">0</span>
        )}
      </td>
    </tr>
  );
});

export function FileTable({ rows, caption }: { rows: readonly FileRow[]; caption: string }) {
  return (
    <div className="ig-table-wrap">
      <table className="ig-table ig-table-files" data-testid="ingest-files">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Format</th>
            <th scope="col">Status</th>
            <th scope="col" className="ig-num">
              Chunks
            </th>
            <th scope="col" className="ig-num">
              Quarantined
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <FileRowView key={row.path} row={row} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
