// "Check" (`loci setup check`): every client's configuration audited — a Loci entry that
// is missing, points at an old port or token, is there twice, or sits in a file that is
// not valid JSON — with the problems in the engine's words.
import type { SetupCheck, SetupCheckResult } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { ErrorState } from '../../components/ErrorState';
import { Icon } from '../../components/Icon';
import { LoadingState } from '../../components/LoadingState';
import type { EngineQuery } from '../../lib/useEngineQuery';

export const CHECK_TEXT: Record<SetupCheck['status'], string> = {
  ok: 'connected',
  missing: 'no Loci entry',
  stale: 'out of date',
  duplicate: 'duplicate entries',
  invalid: 'file not valid',
  'not-installed': 'not installed',
};

/** For the summary line: "1 connected · 2 without a Loci entry". */
const SUMMARY_TEXT: Record<SetupCheck['status'], string> = {
  ok: 'connected',
  missing: 'without a Loci entry',
  stale: 'out of date',
  duplicate: 'with duplicate entries',
  invalid: 'with a file Loci cannot read',
  'not-installed': 'not installed',
};

const TONE: Record<SetupCheck['status'], string> = {
  ok: 'pill pill-ok',
  missing: 'pill pill-warn',
  stale: 'pill pill-warn',
  duplicate: 'pill pill-warn',
  invalid: 'pill cv-pill-danger',
  'not-installed': 'pill cv-pill-muted',
};

const ORDER: SetupCheck['status'][] = [
  'ok',
  'stale',
  'duplicate',
  'invalid',
  'missing',
  'not-installed',
];

function summary(clients: SetupCheck[]): string {
  return ORDER.map((s) => [s, clients.filter((c) => c.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${SUMMARY_TEXT[s]}`)
    .join(' · ');
}

export function CheckCard({ query }: { query: EngineQuery<SetupCheckResult> }) {
  const { data, error } = query;
  return (
    <section className="card card-wide" aria-labelledby="cv-check">
      <div className="cv-card-head">
        <h2 id="cv-check" className="card-title">
          <Icon name="audit" /> Check
        </h2>
        <Button
          size="sm"
          icon="refresh"
          onClick={query.reload}
          busy={query.loading || query.refreshing}
        >
          Check again
        </Button>
      </div>
      {error && data ? (
        <ErrorState compact title="Could not check again" error={error} onRetry={query.reload} />
      ) : null}
      {!data ? (
        query.loading ? (
          <LoadingState label="Checking every editor's configuration…" fill={false} />
        ) : (
          <ErrorState
            compact
            title="Could not check the configurations"
            error={error}
            onRetry={query.reload}
          />
        )
      ) : (
        <>
          <p className="card-note" role="status">
            {summary(data.clients)}. Entries should point at{' '}
            <code className="mono">{data.endpoint}</code>.
          </p>
          <div className="cv-table-wrap">
            <table className="cv-table" data-testid="check-table">
              <caption className="visually-hidden">Each editor's Loci entry, checked</caption>
              <thead>
                <tr>
                  <th scope="col">Editor</th>
                  <th scope="col">Status</th>
                  <th scope="col">File and problems</th>
                </tr>
              </thead>
              <tbody>
                {data.clients.map((c) => (
                  <tr key={c.client} data-client={c.client} data-status={c.status}>
                    <th scope="row">{c.name}</th>
                    <td>
                      <span className={TONE[c.status]}>{CHECK_TEXT[c.status]}</span>
                    </td>
                    <td>
                      <code className="mono cv-path">{c.file}</code>
                      {c.problems.length > 0 ? (
                        <ul className="cv-problems">
                          {c.problems.map((p) => (
                            <li key={p}>{p}</li>
                          ))}
                        </ul>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
