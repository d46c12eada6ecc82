// The Overview's pictures: memories over time, where they come from, how fast recall
// answers, and who is connected. Each card shows its own loading, error and empty state,
// so one missing answer never hides the others.
import type { ReactNode } from 'react';
import type { ClientListResult, OverviewResult } from '../../../../shared/api';
import { ErrorState } from '../../components/ErrorState';
import { Icon, type IconName } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { relativeTime, TimeAgo } from '../../components/TimeAgo';
import { formatCount } from '../../lib/format';
import { routeHref } from '../../lib/router';
import type { EngineQuery } from '../../lib/useEngineQuery';
import { actorName, lastCallOf } from '../connect/useClients';
import { formatMs, plural } from './chartFormat';
import { CreatedChart, createdSummary } from './CreatedChart';
import { HBarChart } from './HBarChart';
import { LatencyChart } from './LatencyChart';
import './charts.css';

function ChartCard<T>({
  id,
  title,
  icon,
  query,
  wide = false,
  what,
  children,
}: {
  id: string;
  title: string;
  icon: IconName;
  query: EngineQuery<T>;
  wide?: boolean;
  /** "the daily counts": for the loading and error text. */
  what: string;
  children: (data: T) => ReactNode;
}) {
  const headingId = `ov-${id}`;
  return (
    <section className={wide ? 'card card-wide' : 'card'} aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        <Icon name={icon} /> {title}
      </h2>
      {query.data !== undefined ? (
        children(query.data)
      ) : query.loading ? (
        <LoadingState label={`Loading ${what}…`} fill={false} />
      ) : (
        <ErrorState
          compact
          title={`Could not load ${what}`}
          error={query.error}
          onRetry={query.reload}
        />
      )}
    </section>
  );
}

function ChartEmpty({ children }: { children: ReactNode }) {
  return <p className="chart-empty">{children}</p>;
}

export function CreatedCard({ query, live }: { query: EngineQuery<OverviewResult>; live: number }) {
  return (
    <ChartCard
      id="created"
      title="Memories over time"
      icon="activity"
      query={query}
      wide
      what="the daily counts"
    >
      {(data) => {
        const { created, busiest } = createdSummary(data.created_per_day, live);
        return (
          <>
            <p className="chart-lead">
              <span className="chart-figure" data-stat="created.window">
                {formatCount(created)}
              </span>{' '}
              created in the last {plural(data.days, 'day')}
              {busiest ? (
                <span className="muted"> · busiest day {formatCount(busiest.count)}</span>
              ) : null}
              <span className="chart-legend" aria-hidden>
                <span className="chart-key chart-key-bar" /> per day
                <span className="chart-key chart-key-area" /> in the store (right scale)
              </span>
            </p>
            {created === 0 ? (
              <ChartEmpty>
                Nothing new in the last {plural(data.days, 'day')}: the store's{' '}
                {plural(live, 'memory', 'memories')} are older.
              </ChartEmpty>
            ) : (
              <CreatedChart days={data.created_per_day} live={live} />
            )}
          </>
        );
      }}
    </ChartCard>
  );
}

export function SourcesCard({ query }: { query: EngineQuery<OverviewResult> }) {
  return (
    <ChartCard id="sources" title="By source" icon="ingest" query={query} what="the sources">
      {(data) => {
        const total = data.by_source.reduce((s, r) => s + r.count, 0);
        if (data.by_source.length === 0)
          return <ChartEmpty>No memories yet, so no sources either.</ChartEmpty>;
        const top = data.by_source[0];
        return (
          <HBarChart
            id="sources"
            unit="memories"
            label={
              `Memories by source: ${plural(data.by_source.length, 'source')}, ${formatCount(total)} memories` +
              (top ? `; most from ${top.source} (${formatCount(top.count)})` : '') +
              '.'
            }
            caption="Live memories by the client or tool that wrote them"
            rows={data.by_source.map((r) => ({
              key: r.source,
              label: r.source,
              value: r.count,
              detail:
                total > 0 ? `${Math.round((r.count / total) * 100)}% of the store` : undefined,
            }))}
          />
        );
      }}
    </ChartCard>
  );
}

export function LatencyCard({ query }: { query: EngineQuery<OverviewResult> }) {
  return (
    <ChartCard
      id="latency"
      title="Recall latency"
      icon="recall"
      query={query}
      what="recall timings"
    >
      {({ recall }) => (
        <>
          <dl className="chart-stats">
            <div>
              <dt>Recalls</dt>
              <dd data-stat="recall.count">{formatCount(recall.count)}</dd>
            </div>
            <div>
              <dt>Median</dt>
              <dd data-stat="recall.p50">{formatMs(recall.p50_ms)}</dd>
            </div>
            <div>
              <dt>95th pct.</dt>
              <dd data-stat="recall.p95">{formatMs(recall.p95_ms)}</dd>
            </div>
          </dl>
          {recall.count === 0 ? (
            <ChartEmpty>
              No recalls answered since the daemon started. They appear here as agents (or the
              Recall lab) ask.
            </ChartEmpty>
          ) : (
            <LatencyChart recall={recall} />
          )}
        </>
      )}
    </ChartCard>
  );
}

export function ClientsCard({ query }: { query: EngineQuery<ClientListResult> }) {
  return (
    <ChartCard
      id="clients"
      title="Connected clients"
      icon="connect"
      query={query}
      what="the clients"
    >
      {({ sessions, last_calls }) => {
        if (sessions.length === 0)
          return (
            <ChartEmpty>
              No MCP client is connected right now.{' '}
              <a href={routeHref('/connect')}>Connect an editor</a> — it shows up here on its first
              call.
              {last_calls.length > 0 ? (
                <>
                  {' '}
                  Last seen:{' '}
                  {last_calls
                    .slice(0, 3)
                    .map((c) => `${actorName(c.actor)} (${relativeTime(c.at, Date.now())})`)
                    .join(', ')}
                  .
                </>
              ) : null}
            </ChartEmpty>
          );
        const calls = sessions.reduce((s, c) => s + c.calls, 0);
        return (
          <>
            <p className="chart-lead">
              <span className="chart-figure" data-stat="clients.connected">
                {formatCount(sessions.length)}
              </span>{' '}
              connected · {plural(calls, 'call')}
            </p>
            <HBarChart
              id="clients"
              unit="calls"
              tone="ok"
              label={`${plural(sessions.length, 'client')} connected: ${sessions
                .map((s) => `${s.client} over ${s.transport}, ${plural(s.calls, 'call')}`)
                .join('; ')}.`}
              caption="MCP clients connected now, with their calls this session"
              rows={sessions.map((s) => {
                const last = lastCallOf(s, last_calls);
                return {
                  key: s.id,
                  label: s.client,
                  value: s.calls,
                  detail: (
                    <>
                      {s.transport} · seen <TimeAgo iso={s.last_seen} />
                      {last ? ` · last: ${last.tool}` : ''}
                    </>
                  ),
                };
              })}
              extra={{
                columns: ['Transport', 'Connected', 'Last seen'],
                values: (row) => {
                  const s = sessions.find((x) => x.id === row.key);
                  return s
                    ? [
                        s.transport,
                        relativeTime(s.connected_at, Date.now()),
                        relativeTime(s.last_seen, Date.now()),
                      ]
                    : ['', '', ''];
                },
              }}
            />
          </>
        );
      }}
    </ChartCard>
  );
}
