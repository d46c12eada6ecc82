// Who is connected now (MCP sessions over HTTP or stdio) with each one's last call, and
// the clients seen recently that are not connected any more. Without any: how to connect.
import type { ActivitySummary, ClientListResult } from '../../../../shared/api';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import { TimeAgo } from '../../components/TimeAgo';
import { formatCount } from '../../lib/format';
import type { EngineQuery } from '../../lib/useEngineQuery';
import { actorName, lastCallOf } from './useClients';

function LastCall({ call }: { call: ActivitySummary | undefined }) {
  if (!call) return <span className="muted">none yet</span>;
  return (
    <span className="cv-call">
      <code>{call.tool}</code>{' '}
      <span className={call.ok ? 'cv-ok' : 'cv-fail'}>
        {call.ok ? 'ok' : (call.error_code ?? 'failed')}
      </span>{' '}
      <span className="muted">
        {formatCount(Math.round(call.duration_ms))} ms · <TimeAgo iso={call.at} />
      </span>
    </span>
  );
}

export function LiveClientsCard({ query }: { query: EngineQuery<ClientListResult> }) {
  const { data, error } = query;
  let body;
  if (!data) {
    body = query.loading ? (
      <LoadingState label="Loading the connected clients…" fill={false} />
    ) : (
      <ErrorState compact title="Could not list the clients" error={error} onRetry={query.reload} />
    );
  } else {
    const connected = new Set(data.sessions.map((s) => `mcp:${s.client}`));
    const earlier = data.last_calls.filter(
      (c) => c.actor.startsWith('mcp:') && !connected.has(c.actor),
    );
    body = (
      <>
        {data.sessions.length === 0 ? (
          <div className="cv-empty" role="note" aria-label="No clients connected">
            <p>
              <strong>No MCP client is connected right now.</strong>
            </p>
            <ol className="cv-list">
              <li>
                Pick your editor under <em>Editors</em> above and press <em>Write config</em> (or
                run <code>loci setup</code> in a terminal).
              </li>
              <li>Restart the editor, or reload its MCP servers.</li>
              <li>
                Ask its agent to <em>remember</em> something: it appears here on its first call.
              </li>
            </ol>
          </div>
        ) : (
          <div className="cv-table-wrap">
            <table className="cv-table" data-testid="sessions-table">
              <caption className="visually-hidden">MCP clients connected now</caption>
              <thead>
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">Transport</th>
                  <th scope="col">Connected</th>
                  <th scope="col">Last seen</th>
                  <th scope="col" className="cv-num">
                    Calls
                  </th>
                  <th scope="col">Last call</th>
                </tr>
              </thead>
              <tbody>
                {data.sessions.map((s) => (
                  <tr key={s.id} data-client={s.client}>
                    <th scope="row">
                      <span className="cv-live" aria-hidden /> {s.client}
                    </th>
                    <td>{s.transport}</td>
                    <td>
                      <TimeAgo iso={s.connected_at} />
                    </td>
                    <td>
                      <TimeAgo iso={s.last_seen} />
                    </td>
                    <td className="cv-num">{formatCount(s.calls)}</td>
                    <td>
                      <LastCall call={lastCallOf(s, data.last_calls)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {earlier.length > 0 ? (
          <div className="cv-earlier">
            <h3 className="cv-subtitle">Seen earlier</h3>
            <ul className="cv-earlier-list">
              {earlier.map((c) => (
                <li key={c.actor}>
                  <strong>{actorName(c.actor)}</strong>{' '}
                  <span className="muted">({c.transport})</span> <LastCall call={c} />
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </>
    );
  }
  return (
    <section className="card card-wide" aria-labelledby="cv-live">
      <h2 id="cv-live" className="card-title">
        <Icon name="activity" /> Connected clients
        {data ? <span className="cv-count">{formatCount(data.sessions.length)}</span> : null}
      </h2>
      {error && data ? (
        <ErrorState compact title="Could not refresh" error={error} onRetry={query.reload} />
      ) : null}
      {body}
    </section>
  );
}
