// One doctor check: its status in words and colour, what was found, and what to do; a
// Fix button when the fix is safe to apply from here.
import type { DoctorCheck } from '../../../../shared/api';
import { Button } from '../../components/Button';
import { Icon, type IconName } from '../../components/Icon';

const STATUS: Record<DoctorCheck['status'], { label: string; icon: IconName }> = {
  ok: { label: 'OK', icon: 'check' },
  warn: { label: 'Warning', icon: 'alert' },
  fail: { label: 'Failure', icon: 'alert' },
};

export function StatusBadge({ status }: { status: DoctorCheck['status'] }) {
  const s = STATUS[status];
  return (
    <span className={`dr-badge dr-${status}`}>
      <Icon name={s.icon} size={14} />
      {s.label}
    </span>
  );
}

export interface CheckRowProps {
  check: DoctorCheck;
  fixing: boolean;
  onFix(check: DoctorCheck): void;
}

export function CheckRow({ check, fixing, onFix }: CheckRowProps) {
  return (
    <li className={`dr-check dr-check-${check.status}`} data-testid={`check-${check.id}`}>
      <StatusBadge status={check.status} />
      <div className="dr-check-body">
        <div className="dr-check-title">{check.title}</div>
        <div className="dr-finding">{check.finding}</div>
        {check.status !== 'ok' && check.fix ? (
          <div className="dr-fix">
            <Icon name="arrowRight" size={14} /> {check.fix}
          </div>
        ) : null}
      </div>
      {check.status !== 'ok' && check.fixable ? (
        <Button
          size="sm"
          busy={fixing}
          onClick={() => onFix(check)}
          aria-label={`Fix: ${check.title}`}
        >
          Fix
        </Button>
      ) : null}
    </li>
  );
}
