// A scan of the store for contradictions running now: memories compared of how many and
// the pairs found so far, live from `conflict.progressed`. Announced politely.
import { plural } from './conflictsModel';

export interface LiveScan {
  done: number;
  total: number;
  found: number;
}

export function ScanProgress({ scan }: { scan: LiveScan }) {
  const label = 'Scanning the store for contradictions';
  return (
    <section className="card cf-progress" aria-label={label}>
      <div className="cf-progress-row">
        <span className="spinner spinner-sm" aria-hidden />
        <p className="cf-progress-text" role="status" aria-live="polite">
          <strong>{label}</strong>
          {scan.total > 0
            ? ` · ${scan.done.toLocaleString()} of ${plural(scan.total, 'memory', 'memories')} compared`
            : ' · starting'}
          {scan.found ? ` · ${plural(scan.found, 'new conflict')} so far` : ''}
        </p>
      </div>
      <progress
        className="cf-progress-bar"
        max={Math.max(1, scan.total)}
        value={Math.min(scan.done, Math.max(1, scan.total))}
        aria-label={`${scan.done} of ${scan.total} memories compared`}
      />
    </section>
  );
}
