// Nothing here yet: says what this place will show and what to do first, with an
// optional action that does it.
import type { ReactNode } from 'react';
import { Button } from './Button';
import { Icon, type IconName } from './Icon';

export interface EmptyStateProps {
  title: string;
  /** What to do first: a sentence or two, may hold <code> for commands. */
  children?: ReactNode;
  icon?: IconName;
  action?: { label: string; onClick: () => void; icon?: IconName };
}

export function EmptyState({ title, children, icon = 'info', action }: EmptyStateProps) {
  return (
    <section className="state state-fill empty-state" aria-label={title}>
      <span className="state-icon" aria-hidden>
        <Icon name={icon} size={22} />
      </span>
      <h2 className="state-title">{title}</h2>
      {children ? <div className="state-body">{children}</div> : null}
      {action ? (
        <Button
          variant="primary"
          onClick={action.onClick}
          {...(action.icon ? { icon: action.icon } : {})}
        >
          {action.label}
        </Button>
      ) : null}
    </section>
  );
}
