// Quality: the quality lab on the user's own data. Recalls marked in Activity ("this
// recall missed…", "this one was wrong") are the cases; "Run now" replays them through
// recall and keeps the scores, so the trend with its 95 % intervals shows whether recall
// is getting better; two ranking configurations can be compared, paired case by case.
import { useState } from 'react';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { LoadingState } from '../components/LoadingState';
import { useEngineClient } from '../lib/engineContext';
import { navigate } from '../lib/router';
import { toLociError, useEngineQuery } from '../lib/useEngineQuery';
import { useUiStore } from '../stores/uiStore';
import type { ViewProps } from './index';
import { CasesList } from './quality/CasesList';
import { CompareConfigs } from './quality/CompareConfigs';
import { formatEstimate, METRICS, trendRuns, type MetricKey } from './quality/qualityModel';
import { TrendChart } from './quality/TrendChart';
import './overview/charts.css';
import './quality/quality.css';

function NoCases() {
  return (
    <EmptyState
      icon="check"
      title="No marked recalls yet"
      action={{ label: 'Open Activity', icon: 'activity', onClick: () => navigate('/activity') }}
    >
      <p>
        The quality lab measures recall on your own memories. First mark a few recalls: in Activity,
        open a <code>recall</code> call an agent made, then press{' '}
        <strong>This one was wrong</strong> on a result that should not be there, or{' '}
        <strong>This recall missed a memory…</strong> and pick the memory it should have found.
      </p>
      <p>
        Then come back and press <strong>Run now</strong>, or run <code>loci eval</code>.
      </p>
    </EmptyState>
  );
}

export default function QualityView(_props: ViewProps) {
  const client = useEngineClient();
  const store = useUiStore((s) => s.store) ?? undefined;
  const storeArg = store ? { store } : {};
  const cases = useEngineQuery('eval.cases', storeArg, { refreshOn: ['eval.changed'] });
  const runs = useEngineQuery('eval.runs', storeArg, { refreshOn: ['eval.changed'] });
  const [metric, setMetric] = useState<MetricKey>('ndcg10');
  const [running, setRunning] = useState(false);

  const runNow = async () => {
    setRunning(true);
    try {
      const r = await client.call('eval.run', storeArg);
      runs.reload();
      useUiStore.getState().toast({
        message: `Ran ${r.run.cases} case${r.run.cases === 1 ? '' : 's'}: nDCG@10 ${formatEstimate(r.run.summary.ndcg10)}.`,
        tone: 'success',
      });
    } catch (err) {
      useUiStore
        .getState()
        .toast({ message: `The run failed: ${toLociError(err).message}`, tone: 'error' });
    } finally {
      setRunning(false);
    }
  };

  const caseList = cases.data?.cases ?? [];
  const allRuns = runs.data?.runs ?? [];
  const trend = trendRuns(allRuns);
  const latest = trend[trend.length - 1];

  return (
    <div className="view q-view" data-testid="quality-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Quality</h1>
          <p className="view-subtitle">
            Recall measured on the recalls you marked: {caseList.length} case
            {caseList.length === 1 ? '' : 's'}, {trend.length} run{trend.length === 1 ? '' : 's'}
          </p>
        </div>
        <Button
          variant="primary"
          icon="refresh"
          busy={running}
          disabled={caseList.length === 0}
          onClick={() => void runNow()}
        >
          Run now
        </Button>
      </header>

      {cases.loading ? (
        <LoadingState label="Loading the marked cases…" />
      ) : cases.error && !cases.data ? (
        <ErrorState
          title="Could not load the quality lab"
          error={cases.error}
          onRetry={cases.reload}
        />
      ) : caseList.length === 0 ? (
        <NoCases />
      ) : (
        <div className="q-grid">
          <section className="card q-trend" aria-labelledby="q-trend-title">
            <div className="q-trend-head">
              <h2 className="card-title" id="q-trend-title">
                Trend
              </h2>
              <fieldset className="q-metrics">
                <legend className="visually-hidden">Metric</legend>
                {METRICS.map((m) => (
                  <label key={m.key} className={metric === m.key ? 'is-on' : undefined}>
                    <input
                      type="radio"
                      name="q-metric"
                      value={m.key}
                      checked={metric === m.key}
                      onChange={() => setMetric(m.key)}
                    />
                    {m.label}
                  </label>
                ))}
              </fieldset>
            </div>
            {runs.error && !runs.data ? (
              <ErrorState
                compact
                title="Could not load the runs"
                error={runs.error}
                onRetry={runs.reload}
              />
            ) : trend.length === 0 ? (
              <p className="card-note">
                No run yet: press <strong>Run now</strong> (or <code>loci eval</code>) to measure
                the store&apos;s ranking on these cases.
              </p>
            ) : (
              <>
                <TrendChart runs={trend} metric={metric} />
                <p className="card-note" data-testid="quality-latest">
                  Latest run: {METRICS.find((m) => m.key === metric)?.hint};{' '}
                  {latest ? formatEstimate(latest.summary[metric]) : '—'} (mean [95 % interval] over{' '}
                  {latest?.cases ?? 0} case{latest?.cases === 1 ? '' : 's'}
                  {latest && latest.summary.skipped > 0
                    ? `; ${latest.summary.skipped} skipped, their memories are gone`
                    : ''}
                  ).
                </p>
              </>
            )}
          </section>

          <section className="card" aria-labelledby="q-cases-title">
            <h2 className="card-title" id="q-cases-title">
              Marked cases
            </h2>
            <CasesList cases={caseList} store={store} />
          </section>

          <CompareConfigs store={store} />

          {allRuns.length > 0 ? (
            <section className="card" aria-labelledby="q-runs-title">
              <h2 className="card-title" id="q-runs-title">
                Runs
              </h2>
              <div className="q-table-wrap">
                <table className="q-table" data-testid="quality-runs">
                  <caption className="visually-hidden">
                    Every saved run, newest first, with 95 % intervals
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Configuration</th>
                      <th scope="col">Cases</th>
                      {METRICS.map((m) => (
                        <th key={m.key} scope="col">
                          {m.label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {[...allRuns].reverse().map((r) => (
                      <tr key={r.id ?? r.at}>
                        <th scope="row">{new Date(r.at).toLocaleString()}</th>
                        <td>{r.label}</td>
                        <td className="num">{r.cases}</td>
                        {METRICS.map((m) => (
                          <td key={m.key} className="num">
                            {formatEstimate(r.summary[m.key])}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ) : null}
        </div>
      )}
    </div>
  );
}
