// Reads by MCP clients, per client and day ("cursor read 37 memories today"), from the
// read log; choosing a row lists the memories that client read that day.
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { actorLabel, inStore } from './auditModel';

const RANGES = [1, 7, 30, 90] as const;

export function AccessPanel({ store }: { store: string | undefined }) {
  const [days, setDays] = useState<number>(7);
  const [picked, setPicked] = useState<{ client: string; day: string } | null>(null);
  const groups = useEngineQuery('audit.access', inStore(store, { days }));
  const detail = useEngineQuery(
    'audit.access',
    inStore(store, picked ? { client: picked.client, day: picked.day } : {}),
    { enabled: picked !== null },
  );

  return (
    <div className="au-access">
      <div className="au-filters">
        <label className="au-field">
          <span>Period</span>
          <select
            value={days}
            onChange={(e) => {
              setDays(Number(e.target.value));
              setPicked(null);
            }}
          >
            {RANGES.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? 'Today' : `Last ${d} days`}
              </option>
            ))}
          </select>
        </label>
        <p className="card-note">
          Which memories each MCP client read. People’s own reads are not logged; the log keeps 90
          days.
        </p>
      </div>
      {groups.loading ? (
        <LoadingState label="Loading the read log…" />
      ) : groups.error ? (
        <ErrorState
          title="Could not load the read log"
          error={groups.error}
          onRetry={groups.reload}
        />
      ) : !groups.data || groups.data.groups.length === 0 ? (
        <EmptyState icon="eye" title="No reads by MCP clients in this period">
          <p>
            When an agent recalls or reads memories over MCP, this shows which client read what, day
            by day.
          </p>
        </EmptyState>
      ) : (
        <div className="au-access-grid">
          <div
            className="au-table-wrap"
            role="region"
            aria-label="Reads per client and day"
            tabIndex={0}
          >
            <table className="au-table" aria-label="Reads per client and day">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Client</th>
                  <th scope="col">Memories</th>
                  <th scope="col">Reads</th>
                  <th scope="col">Tools</th>
                </tr>
              </thead>
              <tbody>
                {groups.data.groups.map((g) => {
                  const selected = picked?.client === g.client && picked.day === g.day;
                  return (
                    <tr
                      key={`${g.client} ${g.day}`}
                      className={selected ? 'is-selected' : undefined}
                    >
                      <td className="au-time">{g.day}</td>
                      <td>
                        <button
                          type="button"
                          className="au-link"
                          aria-pressed={selected}
                          onClick={() => setPicked({ client: g.client, day: g.day })}
                        >
                          {actorLabel(g.client)}
                        </button>
                      </td>
                      <td className="au-num">{g.memories}</td>
                      <td className="au-num">{g.reads}</td>
                      <td className="au-muted">{g.methods.join(', ')}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {picked ? (
            <section
              className="card au-read-list"
              aria-live="polite"
              aria-labelledby="au-read-title"
            >
              <h3 className="card-title" id="au-read-title">
                {actorLabel(picked.client)} read{' '}
                {detail.data?.memories ? detail.data.memories.length : '…'} memories on {picked.day}
              </h3>
              {detail.loading ? (
                <LoadingState label="Loading…" />
              ) : detail.error ? (
                <ErrorState compact error={detail.error} onRetry={detail.reload} />
              ) : (
                <ul className="au-reads">
                  {(detail.data?.memories ?? []).map((m) => (
                    <li key={m.id}>
                      {m.erased ? (
                        <span className="au-muted">{m.id} (erased since)</span>
                      ) : (
                        <a href={`#/memories/${m.id}`}>{m.title}</a>
                      )}
                      <span className="au-muted">
                        {' '}
                        · {m.reads} read{m.reads === 1 ? '' : 's'}
                        {m.forgotten ? ' · forgotten since' : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ) : null}
        </div>
      )}
    </div>
  );
}
