// Something is on its way. The spinner waits a moment before showing, so quick answers
// do not flash; the text is announced politely to screen readers.
import { useEffect, useState } from 'react';

export interface LoadingStateProps {
  /** What is loading, e.g. "Loading the store's statistics". */
  label?: string;
  /** Milliseconds before anything is shown. */
  delayMs?: number;
  /** Fills its container (centred) rather than sitting inline. */
  fill?: boolean;
}

export function LoadingState({
  label = 'Loading…',
  delayMs = 150,
  fill = true,
}: LoadingStateProps) {
  const [visible, setVisible] = useState(delayMs <= 0);
  useEffect(() => {
    if (delayMs <= 0) return;
    const t = setTimeout(() => setVisible(true), delayMs);
    return () => clearTimeout(t);
  }, [delayMs]);
  return (
    <div className={fill ? 'state state-fill' : 'state'} role="status" aria-live="polite">
      {visible ? (
        <>
          <span className="spinner" aria-hidden />
          <span className="state-text">{label}</span>
        </>
      ) : (
        <span className="visually-hidden">{label}</span>
      )}
    </div>
  );
}
