// Dream reports as stored (one dream_report row per cycle, its phases as JSON) and
// their public shapes.
import type { DreamPhaseReport, DreamReport, DreamStatus, DreamSummary } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { iso, isoOrNull } from '../memory/model';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';

export interface ReportRow {
  id: string;
  started_at: number;
  finished_at: number | null;
  dry_run: number;
  status: DreamStatus;
  phases: string;
  trigger: 'manual' | 'idle';
  actor: string;
  error: string | null;
}

export function toReport(store: string, r: ReportRow): DreamReport {
  const phases = JSON.parse(r.phases) as DreamPhaseReport[];
  return {
    id: r.id,
    store,
    dry_run: r.dry_run === 1,
    status: r.status,
    trigger: r.trigger,
    actor: r.actor,
    started_at: iso(r.started_at),
    finished_at: isoOrNull(r.finished_at),
    phases,
    totals: {
      examined: phases.reduce((s, p) => s + p.examined, 0),
      changes: phases.reduce((s, p) => s + p.changes_total, 0),
      proposals: phases.reduce((s, p) => s + p.proposals, 0),
      duration_ms: Math.round(phases.reduce((s, p) => s + p.duration_ms, 0) * 10) / 10,
    },
    error: r.error,
  };
}

export function toSummary(report: DreamReport): DreamSummary {
  return { ...report, phases: report.phases.map((p) => p.phase) };
}

export function loadReport(store: OpenStore, id: string): DreamReport {
  const row = stmt(store.db, 'SELECT * FROM dream_report WHERE id = ?').get(id) as
    ReportRow | undefined;
  if (!row)
    throw new LociError('not-found', `No dream cycle ${id} in store "${store.name}".`, { id });
  return toReport(store.name, row);
}

export function listReports(store: OpenStore, limit: number): DreamReport[] {
  return (
    stmt(store.db, 'SELECT * FROM dream_report ORDER BY started_at DESC, id DESC LIMIT ?').all(
      limit,
    ) as ReportRow[]
  ).map((r) => toReport(store.name, r));
}

export function insertReport(
  store: OpenStore,
  r: { id: string; now: number; dryRun: boolean; trigger: 'manual' | 'idle'; actor: string },
): void {
  if (stmt(store.db, 'SELECT 1 FROM dream_report WHERE id = ?').get(r.id)) {
    throw new LociError('conflict', `A dream cycle ${r.id} exists already; choose another id.`, {
      id: r.id,
    });
  }
  stmt(
    store.db,
    `INSERT INTO dream_report (id, started_at, dry_run, status, phases, trigger, actor)
     VALUES (?, ?, ?, 'running', '[]', ?, ?)`,
  ).run(r.id, r.now, r.dryRun ? 1 : 0, r.trigger, r.actor);
}

export function savePhases(store: OpenStore, id: string, phases: DreamPhaseReport[]): void {
  stmt(store.db, 'UPDATE dream_report SET phases = ? WHERE id = ?').run(JSON.stringify(phases), id);
}

export function finishReport(
  store: OpenStore,
  id: string,
  status: DreamStatus,
  phases: DreamPhaseReport[],
  error: string | null,
  now: number,
): void {
  stmt(
    store.db,
    'UPDATE dream_report SET status = ?, phases = ?, error = ?, finished_at = ? WHERE id = ?',
  ).run(status, JSON.stringify(phases), error, now, id);
}

/** Cycles a crash left `running` (not running in this process) become `interrupted`. */
export function markInterrupted(
  store: OpenStore,
  runningHere: ReadonlySet<string>,
  now: number,
): number {
  const stale = (
    stmt(store.db, `SELECT id FROM dream_report WHERE status = 'running'`).all() as { id: string }[]
  )
    .map((r) => r.id)
    .filter((id) => !runningHere.has(id));
  for (const id of stale) {
    stmt(
      store.db,
      `UPDATE dream_report SET status = 'interrupted', finished_at = ?,
         error = 'The engine stopped during this cycle; the phases listed were committed, the rest did not run.'
       WHERE id = ?`,
    ).run(now, id);
  }
  return stale.length;
}
