// A call failed: what went wrong in the engine's words (its message is written for
// people), the error code for reports, and a way to try again.
import type { LociError } from '../../../shared/errors';
import { Button } from './Button';
import { Icon } from './Icon';

export interface ErrorStateProps {
  title?: string;
  error: Pick<LociError, 'code' | 'message'> | null;
  onRetry?: () => void;
  /** Inline (a strip inside a view) rather than filling the view. */
  compact?: boolean;
}

export function ErrorState({
  title = 'Could not load this',
  error,
  onRetry,
  compact = false,
}: ErrorStateProps) {
  return (
    <section
      className={compact ? 'state state-error state-compact' : 'state state-fill state-error'}
      role="alert"
    >
      <span className="state-icon" aria-hidden>
        <Icon name="alert" size={compact ? 16 : 22} />
      </span>
      <div className="state-main">
        <h2 className="state-title">{title}</h2>
        {error ? (
          <p className="state-body">
            {error.message} <span className="state-code">({error.code})</span>
          </p>
        ) : null}
      </div>
      {onRetry ? (
        <Button icon="refresh" onClick={onRetry} size={compact ? 'sm' : 'md'}>
          Try again
        </Button>
      ) : null}
    </section>
  );
}
