// Doctor: every health check of the store and its surroundings, grouped, with status in
// words and colour, one line on what was found and one on what to do. Safe fixes run
// from here after a confirmation; the report runs again afterwards. Re-run at any time.
import { useMemo, useState } from 'react';
import type { DoctorCheck, DoctorReport } from '../../../shared/api';
import { Button } from '../components/Button';
import { Dialog } from '../components/Dialog';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { TimeAgo } from '../components/TimeAgo';
import { useEngineClient } from '../lib/engineContext';
import { toLociError, useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import { CheckRow, StatusBadge } from './doctor/CheckRow';
import type { ViewProps } from './index';
import './doctor/doctor.css';

const VERDICT: Record<DoctorReport['status'], string> = {
  ok: 'All is well',
  warn: 'Working, with things to look at',
  fail: 'Something needs fixing',
};

function groupChecks(checks: DoctorCheck[]): [string, DoctorCheck[]][] {
  const groups = new Map<string, DoctorCheck[]>();
  for (const c of checks) {
    const list = groups.get(c.group) ?? [];
    list.push(c);
    groups.set(c.group, list);
  }
  return [...groups.entries()];
}

export default function DoctorView(_props: ViewProps) {
  const store = useUiStore((s) => s.store) ?? undefined;
  const client = useEngineClient();
  const report = useEngineQuery('doctor.run', store ? { store } : {});
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [confirming, setConfirming] = useState<DoctorCheck | null>(null);
  const [fixing, setFixing] = useState<string | null>(null);

  const groups = useMemo(() => {
    const checks = report.data?.checks ?? [];
    return groupChecks(onlyProblems ? checks.filter((c) => c.status !== 'ok') : checks);
  }, [report.data, onlyProblems]);

  const applyFix = async (check: DoctorCheck) => {
    setConfirming(null);
    setFixing(check.id);
    const toast = useUiStore.getState().toast;
    try {
      const r = await client.call('doctor.fix', { ...(store ? { store } : {}), check: check.id });
      toast({
        message: `${check.title}: ${r.done}`,
        tone: r.after.status === 'ok' ? 'success' : 'info',
      });
    } catch (err) {
      toast({ message: `${check.title}: ${toLociError(err).message}`, tone: 'error' });
    } finally {
      setFixing(null);
      report.reload();
    }
  };

  const data = report.data;
  return (
    <div className="view dr-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Doctor</h1>
          <p className="view-subtitle">
            {data ? (
              <>
                {data.checks.length} checks · ran <TimeAgo iso={data.ran_at} /> in{' '}
                {data.duration_ms} ms
              </>
            ) : (
              'Checks of the store, the indexes, the model, the endpoint and your editors'
            )}
          </p>
        </div>
        <Button icon="refresh" busy={report.refreshing} onClick={report.reload}>
          Re-run
        </Button>
      </header>

      {report.loading ? (
        <LoadingState label="Running the checks…" />
      ) : report.error && !data ? (
        <ErrorState title="Could not run the doctor" error={report.error} onRetry={report.reload} />
      ) : data ? (
        <>
          <section
            className={`card dr-verdict dr-verdict-${data.status}`}
            aria-labelledby="dr-verdict-title"
            data-testid="doctor-verdict"
          >
            <div className="dr-verdict-line">
              <StatusBadge status={data.status} />
              <h2 id="dr-verdict-title" className="dr-verdict-title">
                {VERDICT[data.status]}
              </h2>
            </div>
            <p className="card-note">
              {data.counts.ok} ok · {data.counts.warn} warning{data.counts.warn === 1 ? '' : 's'} ·{' '}
              {data.counts.fail} failure{data.counts.fail === 1 ? '' : 's'}. Fixes offered here are
              safe (they rebuild derived data or rewrite a file with a backup); the others are
              explained.
            </p>
            <label className="dr-toggle">
              <input
                type="checkbox"
                checked={onlyProblems}
                onChange={(e) => setOnlyProblems(e.target.checked)}
              />
              Show only problems
            </label>
          </section>
          {report.error ? (
            <ErrorState
              compact
              title="Could not re-run"
              error={report.error}
              onRetry={report.reload}
            />
          ) : null}
          {groups.length === 0 ? (
            <p className="card-note">No problems: every check passes.</p>
          ) : (
            <div className="dr-groups">
              {groups.map(([group, checks]) => (
                <section key={group} className="card dr-group" aria-labelledby={`dr-g-${group}`}>
                  <h2 className="card-title" id={`dr-g-${group}`}>
                    {group}
                  </h2>
                  <ul className="dr-checks">
                    {checks.map((c) => (
                      <CheckRow
                        key={c.id}
                        check={c}
                        fixing={fixing === c.id}
                        onFix={setConfirming}
                      />
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          )}
        </>
      ) : null}

      <Dialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? `Fix “${confirming.title}”?` : 'Fix'}
      >
        {confirming ? (
          <div className="dr-confirm">
            <p>{confirming.finding}</p>
            <p>
              <strong>The fix:</strong> {confirming.fix}
            </p>
            <div className="dr-confirm-actions">
              <Button variant="ghost" onClick={() => setConfirming(null)}>
                Cancel
              </Button>
              <Button variant="primary" onClick={() => void applyFix(confirming)}>
                Apply the fix
              </Button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </div>
  );
}
