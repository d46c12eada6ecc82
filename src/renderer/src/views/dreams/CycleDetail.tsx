// One cycle, phase by phase: what each examined, changed (each change with its target
// and before → after) and proposed, how long it took, and its notes (skipped steps,
// failures).
import { useMemo } from 'react';
import type { DreamPhaseReport, DreamReport } from '../../../../shared/api';
import { ErrorState } from '../../components/ErrorState';
import { LoadingState } from '../../components/LoadingState';
import { MemoryRef, TitlesProvider, useMemoryTitles } from '../../components/MemoryRef';
import { TimeAgo } from '../../components/TimeAgo';
import { useEngineQuery } from '../../lib/useEngineQuery';
import {
  formatValue,
  PHASE_INFO,
  plural,
  STATUS_LABEL,
  statusTone,
  targetIds,
} from './dreamsModel';

function Target({ target }: { target: string }) {
  const ids = targetIds({ kind: '', target, before: null, after: null });
  if (ids.length === 0) return <code>{target}</code>;
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 ? ' → ' : ''}
          <MemoryRef id={id} />
        </span>
      ))}
    </>
  );
}

function PhaseSection({ phase, dryRun }: { phase: DreamPhaseReport; dryRun: boolean }) {
  const info = PHASE_INFO[phase.phase];
  return (
    <details className="dr-phase" open={phase.changes_total > 0 || phase.status === 'failed'}>
      <summary>
        <span className={`dr-dot dr-tone-${statusTone(phase.status)}`} aria-hidden />
        <span className="dr-phase-name">{info.label}</span>
        <span className="dr-muted dr-phase-what">{info.what}</span>
        <span className="dr-phase-counts">
          {plural(phase.examined, 'examined', 'examined')} ·{' '}
          {plural(
            phase.changes_total,
            dryRun ? 'change proposed' : 'change',
            dryRun ? 'changes proposed' : 'changes',
          )}
          {phase.proposals ? ` · ${plural(phase.proposals, 'for review', 'for review')}` : ''} ·{' '}
          {phase.duration_ms} ms
          {phase.status !== 'done' ? ` · ${phase.status}` : ''}
        </span>
      </summary>
      {phase.notes.length ? (
        <ul className="dr-notes">
          {phase.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      {phase.changes.length ? (
        <table className="dr-changes">
          <caption className="visually-hidden">Changes of {info.label}</caption>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">Target</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {phase.changes.map((c, i) => (
              <tr key={`${c.kind}-${c.target}-${i}`}>
                <td>{c.kind}</td>
                <td>
                  <Target target={c.target} />
                </td>
                <td className="dr-before">
                  <del>{formatValue(c.before)}</del>
                </td>
                <td className="dr-after">
                  <ins>{formatValue(c.after)}</ins>
                </td>
                <td className="dr-muted">{c.note ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {phase.changes_total > phase.changes.length ? (
        <p className="dr-muted">
          … and {phase.changes_total - phase.changes.length} more (see <code>loci dream show</code>
          ).
        </p>
      ) : null}
    </details>
  );
}

export function CycleDetail({ store, id }: { store: string | undefined; id: string }) {
  const q = useEngineQuery('dream.get', { ...(store ? { store } : {}), id });
  const ids = useMemo(
    () => (q.data?.phases ?? []).flatMap((p) => p.changes.flatMap((c) => targetIds(c))),
    [q.data],
  );
  const titles = useMemoryTitles(ids);
  if (q.loading) return <LoadingState label="Loading the cycle…" />;
  if (q.error && !q.data)
    return <ErrorState title="Could not load this cycle" error={q.error} onRetry={q.reload} />;
  const r = q.data as DreamReport;
  return (
    <section className="card dr-detail" aria-label={`Cycle ${r.id}`}>
      <header className="dr-detail-head">
        <h2 className="dr-h2">
          {r.dry_run ? 'Dry run' : 'Dream'}{' '}
          <span className={`dr-badge dr-tone-${statusTone(r.status)}`}>
            {STATUS_LABEL[r.status]}
          </span>
        </h2>
        <p className="dr-muted">
          Started <TimeAgo iso={r.started_at} /> by {r.actor} ({r.trigger}) ·{' '}
          {plural(r.totals.changes, 'change')} · {plural(r.totals.proposals, 'proposal')} ·{' '}
          {r.totals.duration_ms} ms · <code>{r.id}</code>
        </p>
        {r.error ? <p className="dr-error">{r.error}</p> : null}
      </header>
      {r.phases.length === 0 ? (
        <p className="dr-muted">No phase ran.</p>
      ) : (
        <TitlesProvider book={titles}>
          {r.phases.map((p) => (
            <PhaseSection key={p.phase} phase={p} dryRun={r.dry_run} />
          ))}
        </TitlesProvider>
      )}
    </section>
  );
}
