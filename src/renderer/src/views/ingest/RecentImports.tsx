// The store's recent imports (ingest.list), from any client (the observatory, `loci
// ingest`, an agent's ingest_file): what was imported, when, by whom, the totals, and
// Undo or Redo. Refreshes when an import finishes or a batch is undone or redone.
import { useState } from 'react';
import type { IngestBatchInfo } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineClient } from '../../lib/engineContext';
import { formatCount } from '../../lib/format';
import { useEngineEvent } from '../../lib/useEngineEvent';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { runBatchAction } from './batchActions';
import { FORMATS_LINE } from './DropZone';

export const RECENT_LIMIT = 20;

const STATUS: Record<IngestBatchInfo['status'], { label: string; tone: string }> = {
  running: { label: 'Running', tone: 'busy' },
  done: { label: 'Done', tone: 'ok' },
  cancelled: { label: 'Cancelled', tone: 'warn' },
  undone: { label: 'Undone', tone: 'muted' },
};

function what(b: IngestBatchInfo): string {
  const [first, ...others] = b.roots;
  if (!first) return `${b.totals.files} files`;
  return others.length ? `${first} and ${others.length} more` : first;
}

function BatchRow({ b, store }: { b: IngestBatchInfo; store: string }) {
  const client = useEngineClient();
  const [busy, setBusy] = useState(false);
  const act = async (action: 'undo' | 'redo') => {
    setBusy(true);
    await runBatchAction(client, store, b.batch, action);
    setBusy(false);
  };
  const t = b.totals;
  const name = what(b);
  return (
    <tr data-batch={b.batch} data-status={b.status}>
      <th scope="row" className="ig-file">
        <span title={b.roots.join('\n')}>{name}</span>
        <span className="ig-size">by {b.actor}</span>
      </th>
      <td>
        <TimeAgo iso={b.started_at} />
      </td>
      <td>
        <span className={`pill ig-pill-${STATUS[b.status].tone}`}>{STATUS[b.status].label}</span>
      </td>
      <td className="ig-num">
        {formatCount(t.ingested)} / {formatCount(t.files)}
        {t.skipped + t.failed > 0 ? (
          <span className="ig-size">
            {t.skipped} skipped, {t.failed} failed
          </span>
        ) : null}
      </td>
      <td className="ig-num">{formatCount(t.memories)}</td>
      <td className="ig-actions">
        {b.status === 'undone' ? (
          <Button
            size="sm"
            icon="redo"
            busy={busy}
            aria-label={`Redo the import of ${name}`}
            onClick={() => void act('redo')}
          >
            Redo
          </Button>
        ) : b.status !== 'running' && t.memories > 0 ? (
          <Button
            size="sm"
            icon="undo"
            busy={busy}
            aria-label={`Undo the import of ${name}`}
            onClick={() => void act('undo')}
          >
            Undo
          </Button>
        ) : null}
      </td>
    </tr>
  );
}

export function RecentImports({ store }: { store: string }) {
  const list = useEngineQuery(
    'ingest.list',
    { store, limit: RECENT_LIMIT },
    { refreshOn: ['ingest.changed'] },
  );
  // Progress events come per chunk: only the start and end of a batch change this list.
  useEngineEvent('ingest.progressed', (e) => {
    if (e.store === store && (e.phase === 'finished' || e.phase === 'scanning')) list.reload();
  });

  return (
    <section className="card ig-recent" aria-labelledby="ig-recent-title">
      <h2 id="ig-recent-title" className="card-title">
        <Icon name="ingest" /> Recent imports
      </h2>
      {!list.data ? (
        list.loading ? (
          <LoadingState label="Loading the recent imports…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not list the recent imports"
            error={list.error}
            onRetry={list.reload}
          />
        )
      ) : list.data.batches.length === 0 ? (
        <EmptyState title="No imports in this store yet" icon="ingest">
          <p>
            Drop files or a folder on this window, or choose them above. {FORMATS_LINE} Agents can
            import files too, with the MCP tool <code>ingest_file</code> (inside the folders allowed
            in Settings), and so can <code>loci ingest &lt;paths…&gt;</code>.
          </p>
        </EmptyState>
      ) : (
        <div className="ig-table-wrap">
          <table className="ig-table" data-testid="ingest-recent">
            <caption className="visually-hidden">The latest imports into {store}</caption>
            <thead>
              <tr>
                <th scope="col">Imported</th>
                <th scope="col">When</th>
                <th scope="col">Status</th>
                <th scope="col" className="ig-num">
                  Files
                </th>
                <th scope="col" className="ig-num">
                  Memories
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.batches.map((b) => (
                <BatchRow key={b.batch} b={b} store={store} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
