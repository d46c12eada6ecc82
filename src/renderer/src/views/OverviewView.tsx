// Overview: the current store at a glance (stats.get), kept current by engine events,
// with pictures (stats.overview, clients.list): memories over time, sources, recall
// latency and connected clients. Loading, empty and error states each say what to do.
import { connectEditorAction } from './connect/connectAction';
import type { ClientListResult, OverviewResult, StatsResult } from '../../../shared/api';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { Icon } from '../components/Icon';
import { KIND_HINTS, KINDS, KindBadge } from '../components/KindBadge';
import { LoadingState } from '../components/LoadingState';
import { TimeAgo } from '../components/TimeAgo';
import { formatBytes, formatCount, formatPercent } from '../lib/format';
import { routeHref } from '../lib/router';
import { useEngineQuery, type EngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import { useClients } from './connect/useClients';
import { NeedsYou } from './overview/NeedsYou';
import { QualityCard } from './overview/QualityCard';
import { ClientsCard, CreatedCard, LatencyCard, SourcesCard } from './overview/OverviewCharts';
import { ModelOffer } from './settings/ModelOffer';

/** The longest window of the "memories over time" chart. */
const MAX_DAYS = 90;
/** The shortest, for a store a few days old. */
const MIN_DAYS = 7;

/** The chart's window fitted to the store's age: from its oldest memory to today. */
export function fittedDays(oldest: string | null | undefined, now = Date.now()): number {
  if (!oldest) return MIN_DAYS;
  const age = Math.ceil((now - Date.parse(oldest)) / 86_400_000) + 1;
  return Math.min(MAX_DAYS, Math.max(MIN_DAYS, age));
}

function Tile({
  label,
  value,
  stat,
  note,
  href,
}: {
  label: string;
  value: string;
  stat: string;
  note?: string;
  /** The view that lists what it counts. */
  href: string;
}) {
  return (
    <div className="tile">
      <dt>
        <a className="tile-link" href={href}>
          {label}
        </a>
      </dt>
      <dd data-stat={stat}>{value}</dd>
      {note ? <dd className="tile-note">{note}</dd> : null}
    </div>
  );
}

function Bar({ part, whole }: { part: number; whole: number }) {
  const width = whole > 0 ? Math.min(100, (part / whole) * 100) : 0;
  return (
    <span className="bar" aria-hidden>
      <span className="bar-fill" style={{ width: `${width}%` }} />
    </span>
  );
}

function Stats({
  stats,
  overview,
  clients,
}: {
  stats: StatsResult;
  overview: EngineQuery<OverviewResult>;
  clients: EngineQuery<ClientListResult>;
}) {
  const m = stats.memories;
  const v = stats.vectors;
  const vectorTotal = v.embedded + v.pending;
  return (
    <div className="overview-grid">
      <section className="card card-wide" aria-labelledby="ov-memories">
        <h2 id="ov-memories" className="card-title">
          <Icon name="memories" /> Memories
        </h2>
        <dl className="tiles">
          <Tile
            label="Live"
            stat="live"
            value={formatCount(m.live)}
            note="recallable now"
            href={routeHref('/memories')}
          />
          <Tile
            label="Pinned"
            stat="pinned"
            value={formatCount(m.pinned)}
            note="always kept"
            href={routeHref('/memories', { pinned: '1' })}
          />
          <Tile
            label="Quarantined"
            stat="quarantined"
            value={formatCount(m.quarantined)}
            note="held back from recall"
            href={routeHref('/memories', { trust: 'quarantined' })}
          />
          <Tile
            label="Deleted"
            stat="deleted"
            value={formatCount(m.deleted)}
            note="restorable"
            href={routeHref('/memories', { deleted: 'only' })}
          />
        </dl>
      </section>

      <CreatedCard query={overview} live={m.live} />

      <section className="card" aria-labelledby="ov-kinds">
        <h2 id="ov-kinds" className="card-title">
          <Icon name="overview" /> By kind
        </h2>
        <ul className="kind-list">
          {KINDS.map((kind) => (
            <li key={kind} title={KIND_HINTS[kind]}>
              <a className="kind-link" href={routeHref('/memories', { kind })}>
                <KindBadge kind={kind} />
                <span className="visually-hidden"> memories</span>
              </a>
              <Bar part={m.by_kind[kind] ?? 0} whole={m.live} />
              <span className="num" data-stat={`kind.${kind}`}>
                {formatCount(m.by_kind[kind] ?? 0)}
              </span>
            </li>
          ))}
        </ul>
      </section>

      <SourcesCard query={overview} />

      <section className="card" aria-labelledby="ov-vectors">
        <h2 id="ov-vectors" className="card-title">
          <Icon name="vector" /> Vectors
        </h2>
        <p className="card-lead">
          <span className={v.semantic === 'on' ? 'pill pill-ok' : 'pill pill-warn'}>
            semantic {v.semantic}
          </span>{' '}
          <code className="mono">{v.model}</code>
        </p>
        <Bar part={v.embedded} whole={vectorTotal} />
        <dl className="pairs">
          <dt>Embedded</dt>
          <dd data-stat="vectors.embedded">
            {formatCount(v.embedded)}{' '}
            <span className="muted">({formatPercent(v.embedded, vectorTotal)})</span>
          </dd>
          <dt>Pending</dt>
          <dd data-stat="vectors.pending">{formatCount(v.pending)}</dd>
        </dl>
        {v.semantic === 'off' ? (
          <p className="card-note">
            No embedding model is in use: recall matches words, not meaning. Install one with{' '}
            <code>loci models install</code>.
          </p>
        ) : null}
      </section>

      <LatencyCard query={overview} />

      <ClientsCard query={clients} />

      <section className="card" aria-labelledby="ov-database">
        <h2 id="ov-database" className="card-title">
          <Icon name="database" /> Database
        </h2>
        <dl className="pairs">
          <dt>Size</dt>
          <dd data-stat="database.size">{formatBytes(stats.database.size_bytes)}</dd>
          <dt>Write-ahead log</dt>
          <dd>{formatBytes(stats.database.wal_bytes)}</dd>
          <dt>
            <a href={routeHref('/atlas')}>Links</a>
          </dt>
          <dd data-stat="links">{formatCount(stats.links)}</dd>
          <dt>Versions</dt>
          <dd>{formatCount(stats.versions)}</dd>
          <dt>
            <a href={routeHref('/audit')}>Audit entries</a>
          </dt>
          <dd>{formatCount(stats.audit_entries)}</dd>
          <dt>Oldest</dt>
          <dd>{stats.oldest ? <TimeAgo iso={stats.oldest} /> : '—'}</dd>
          <dt>Newest</dt>
          <dd>{stats.newest ? <TimeAgo iso={stats.newest} /> : '—'}</dd>
          <dt>Schema · SQLite</dt>
          <dd>
            v{stats.database.schema_version} · {stats.database.sqlite_version}
          </dd>
        </dl>
        <p className="card-note mono truncate" title={stats.database.path}>
          {stats.database.path}
        </p>
      </section>
    </div>
  );
}

export default function OverviewView() {
  const store = useUiStore((s) => s.store);
  const query = useEngineQuery('stats.get', store ? { store } : {}, {
    refreshOn: ['memory.changed', 'link.changed', 'embedding.progressed'],
  });
  // The time axis spans the store's life (a week at least, 90 days at most).
  const days = fittedDays(query.data?.oldest);
  const overview = useEngineQuery(
    'stats.overview',
    store ? { store, days } : { days },
    // Recall timings move with every MCP call; a busy agent must not mean a busy page.
    {
      refreshOn: ['memory.changed', 'activity.recorded', 'clients.changed'],
      throttleMs: 2_000,
      enabled: query.data !== undefined,
    },
  );
  const clients = useClients();
  const { data, error } = query;
  const empty =
    data && data.memories.live + data.memories.deleted + data.memories.quarantined === 0;

  return (
    <div className="view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Overview</h1>
          <p className="view-subtitle">
            Store <strong>{data?.store ?? store ?? '…'}</strong> · updates live
          </p>
        </div>
        <Button
          icon="refresh"
          size="sm"
          variant="ghost"
          onClick={() => {
            query.reload();
            overview.reload();
            clients.reload();
          }}
          busy={query.refreshing}
        >
          Refresh
        </Button>
      </header>
      {error && data ? (
        <ErrorState compact title="Could not refresh" error={error} onRetry={query.reload} />
      ) : null}
      <ModelOffer />
      {query.loading ? (
        <LoadingState label="Loading the store's statistics…" />
      ) : !data ? (
        <ErrorState title="Could not load the statistics" error={error} onRetry={query.reload} />
      ) : empty ? (
        <EmptyState
          icon="memories"
          title={`No memories in “${data.store}” yet`}
          {...connectEditorAction()}
        >
          <p>
            Memories arrive when an agent calls <em>remember</em> over MCP. Connect your editor with{' '}
            <code>loci setup</code>, or add one yourself:
          </p>
          <p>
            <code>loci remember "The deploy script lives in ops/deploy.sh"</code>
          </p>
        </EmptyState>
      ) : (
        <>
          <NeedsYou store={store} />
          <QualityCard store={store} />
          <Stats stats={data} overview={overview} clients={clients} />
        </>
      )}
    </div>
  );
}
