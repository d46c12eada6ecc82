// The timeline of cycles, newest first: when, how it was started, its status and what
// it changed and proposed. Choosing one shows it phase by phase.
import type { DreamSummary } from '../../../../shared/api';
import { TimeAgo } from '../../components/TimeAgo';
import { plural, STATUS_LABEL, statusTone } from './dreamsModel';

export function CycleTimeline({
  cycles,
  selected,
  onSelect,
}: {
  cycles: DreamSummary[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <ol className="dr-timeline" aria-label="Dream cycles, newest first">
      {cycles.map((c) => (
        <li key={c.id}>
          <button
            type="button"
            className="dr-cycle"
            aria-current={c.id === selected ? 'true' : undefined}
            onClick={() => onSelect(c.id)}
          >
            <span className={`dr-dot dr-tone-${statusTone(c.status)}`} aria-hidden />
            <span className="dr-cycle-main">
              <span className="dr-cycle-title">
                {c.dry_run ? 'Dry run' : c.trigger === 'idle' ? 'Scheduled dream' : 'Dream'}
                <span className={`dr-badge dr-tone-${statusTone(c.status)}`}>
                  {STATUS_LABEL[c.status]}
                </span>
              </span>
              <span className="dr-muted">
                <TimeAgo iso={c.started_at} /> · by {c.actor} · {plural(c.totals.changes, 'change')}
                , {plural(c.totals.proposals, 'proposal')}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
