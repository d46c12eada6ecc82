// The number of open conflicts beside "Conflicts" in the navigation: a person sees that
// something waits for a decision from any view. Kept current by `conflict.changed`;
// nothing is shown while there is none (or the count cannot be had).
import { formatCount } from '../../lib/format';
import { useEngineQuery } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';

export function useOpenConflicts(): number | null {
  const store = useUiStore((s) => s.store);
  const q = useEngineQuery(
    'conflict.list',
    { ...(store ? { store } : {}), state: 'open', limit: 1 },
    { refreshOn: ['conflict.changed'], enabled: store !== null },
  );
  return q.data?.open ?? null;
}

export function ConflictsBadge() {
  const open = useOpenConflicts();
  if (!open) return null;
  return (
    <span className="nav-badge" data-testid="conflicts-badge" title={`${formatCount(open)} open`}>
      {open > 99 ? '99+' : formatCount(open)}
      <span className="visually-hidden"> open</span>
    </span>
  );
}
