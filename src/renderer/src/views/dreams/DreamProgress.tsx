// The cycle running now: which phase of how many, live from `dream.progressed`, with a
// Cancel button. Announced politely to screen readers.
import type { DreamPhaseName } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { PHASE_INFO } from './dreamsModel';

export interface LiveCycle {
  id: string;
  dryRun: boolean;
  phase: DreamPhaseName | null;
  index: number;
  phases: number;
  done: number;
}

export function DreamProgress({
  live,
  onCancel,
  cancelling,
}: {
  live: LiveCycle;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const label = `${live.dryRun ? 'Dry run' : 'Dream'} in progress`;
  return (
    <section className="card dr-progress" aria-label={label}>
      <div className="dr-progress-row">
        <span className="spinner spinner-sm" aria-hidden />
        <p className="dr-progress-text" role="status" aria-live="polite">
          <strong>{label}</strong>
          {live.phase
            ? ` · ${PHASE_INFO[live.phase].label} (${live.index + 1} of ${live.phases})`
            : ' · starting'}
        </p>
        <Button size="sm" variant="ghost" busy={cancelling} onClick={onCancel}>
          Cancel
        </Button>
      </div>
      <progress
        className="dr-progress-bar"
        max={Math.max(1, live.phases)}
        value={live.done}
        aria-label={`${live.done} of ${live.phases} phases done`}
      />
    </section>
  );
}
