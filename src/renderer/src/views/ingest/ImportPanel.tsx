// The import of now: overall progress (bytes sent, then files read by the engine) with
// Cancel, a live line for screen readers that changes per file (not per chunk), the
// rows, and once done the totals, links to the new memories, Undo and Redo.
import { useState } from 'react';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { useEngineClient } from '../../lib/engineContext';
import { formatBytes, formatCount } from '../../lib/format';
import { toLociError } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { runBatchAction } from './batchActions';
import { FileTable } from './FileTable';
import { announce, countRows, plural, type FileRow, type ImportRun } from './importModel';
import { isRunning, useImportStore } from './importStore';
import { BatchMemoriesLink } from './BatchMemoriesLink';

const isProblem = (r: FileRow) => r.status === 'skipped' || r.status === 'failed';

function Bar({ label, value, text }: { label: string; value: number | null; text: string }) {
  const pct = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="ig-progress">
      <div className="ig-progress-text">
        <span>{label}</span>
        <span className="ig-muted">{text}</span>
      </div>
      <span
        className={pct === null ? 'bar ig-bar ig-bar-indeterminate' : 'bar ig-bar'}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuetext={text}
        {...(pct === null ? {} : { 'aria-valuenow': pct })}
      >
        <span className="bar-fill" style={pct === null ? undefined : { width: `${pct}%` }} />
      </span>
    </div>
  );
}

const TITLES: Record<ImportRun['phase'], string> = {
  uploading: 'Sending the files',
  ingesting: 'Importing',
  done: 'Import finished',
  cancelled: 'Import cancelled',
  failed: 'Import failed',
};

function Progress({ run }: { run: ImportRun }) {
  if (run.phase === 'uploading')
    return (
      <Bar
        label="Sending to Loci"
        value={
          run.uploadBytes > 0
            ? run.uploadedBytes / run.uploadBytes
            : run.uploadedFiles / Math.max(1, run.uploadFiles)
        }
        text={`${formatBytes(run.uploadedBytes)} of ${formatBytes(run.uploadBytes)} · ${run.uploadedFiles} of ${plural(run.uploadFiles, 'file')}`}
      />
    );
  const i = run.ingest;
  return (
    <Bar
      label="Reading and writing memories"
      value={i && i.bytesTotal > 0 ? i.bytesDone / i.bytesTotal : null}
      text={
        i
          ? `${i.filesDone} of ${plural(i.files, 'file')} · ${formatBytes(i.bytesDone)} of ${formatBytes(i.bytesTotal)}`
          : 'Looking through the files…'
      }
    />
  );
}

function Summary({ run }: { run: ImportRun }) {
  const c = countRows(run.rows);
  const tiles: [string, number][] = [
    ['Files imported', c.ingested],
    ['Memories', c.memories],
    ['Skipped', c.skipped],
    ['Failed', c.failed],
    ['Quarantined', c.quarantined],
  ];
  return (
    <dl className="tiles ig-tiles" data-testid="ingest-summary">
      {tiles.map(([label, n]) => (
        <div className="tile" key={label}>
          <dt>{label}</dt>
          <dd data-stat>{formatCount(n)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ImportPanel({ run }: { run: ImportRun }) {
  const client = useEngineClient();
  const shown = useUiStore((s) => s.store);
  const [busy, setBusy] = useState(false);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const running = isRunning(run);
  const problems = running ? 0 : run.rows.filter(isProblem).length;
  const memories = countRows(run.rows).memories;
  const finished = run.phase === 'done' || run.phase === 'cancelled';

  const cancel = async () => {
    try {
      await useImportStore.getState().cancel(client);
    } catch (err) {
      useUiStore
        .getState()
        .toast({ message: `Could not cancel: ${toLociError(err).message}`, tone: 'error' });
    }
  };
  const undoRedo = async (action: 'undo' | 'redo') => {
    setBusy(true);
    await runBatchAction(client, run.store, run.batch, action);
    setBusy(false);
  };

  return (
    <section className="card ig-run" aria-labelledby="ig-run-title" data-phase={run.phase}>
      <div className="ig-run-head">
        <h2 id="ig-run-title" className="ig-run-title">
          {running ? <span className="spinner spinner-sm" aria-hidden /> : null}
          {TITLES[run.phase]}
          {run.undone ? <span className="pill ig-pill-muted">undone</span> : null}
        </h2>
        <div className="ig-run-actions">
          {running ? (
            <Button
              variant="secondary"
              icon="close"
              busy={run.cancelling}
              onClick={() => void cancel()}
            >
              Cancel
            </Button>
          ) : null}
          {finished && memories > 0 ? (
            run.undone ? (
              <Button icon="redo" busy={busy} onClick={() => void undoRedo('redo')}>
                Redo
              </Button>
            ) : (
              <Button icon="undo" busy={busy} onClick={() => void undoRedo('undo')}>
                Undo
              </Button>
            )
          ) : null}
          {!running ? (
            <Button
              variant="ghost"
              onClick={() => {
                useImportStore.getState().clear();
                // This panel goes away: the keyboard continues at the drop zone.
                document
                  .querySelector<HTMLButtonElement>('[data-testid="ingest-dropzone"] button')
                  ?.focus();
              }}
            >
              Done
            </Button>
          ) : null}
        </div>
      </div>
      <p className="ig-status" role="status" aria-live="polite" data-testid="ingest-status">
        {announce(run)}
      </p>
      {shown !== null && shown !== run.store ? (
        <p className="ig-other-store" role="note">
          This import went into the store <strong>{run.store}</strong>; its links open there.{' '}
          <Button size="sm" onClick={() => useUiStore.getState().setStore(run.store)}>
            Switch to {run.store}
          </Button>
        </p>
      ) : null}
      {running ? <Progress run={run} /> : null}
      {run.error ? <ErrorState compact title={run.error.title} error={run.error.error} /> : null}
      {finished ? <Summary run={run} /> : null}
      {finished && memories > 0 ? (
        <p className="ig-links">
          <Icon name="link" />
          <span>
            Each file’s name links to its document memory
            {run.undone ? ' (forgotten now: Redo brings them back)' : ''}.
          </span>
          <BatchMemoriesLink run={run} />
        </p>
      ) : null}
      {problems > 0 && problems < run.rows.length ? (
        <label className="ig-only-problems">
          <input
            type="checkbox"
            checked={onlyProblems}
            onChange={(e) => setOnlyProblems(e.currentTarget.checked)}
          />
          Only the files skipped or failed ({problems})
        </label>
      ) : null}
      <FileTable
        rows={onlyProblems && problems > 0 ? run.rows.filter(isProblem) : run.rows}
        caption={`The files of this import (${run.rows.length})`}
      />
    </section>
  );
}
