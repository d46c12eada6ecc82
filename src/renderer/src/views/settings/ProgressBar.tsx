// A determinate (or, without a total, indeterminate) progress bar, named and valued for
// assistive technology; the visible text beside it is the caller's.
export interface ProgressBarProps {
  label: string;
  /** 0–1, or null while the total is unknown. */
  value: number | null;
  /** What a screen reader says for the value, e.g. "12 MB of 23 MB". */
  valueText?: string;
}

export function ProgressBar({ label, value, valueText }: ProgressBarProps) {
  const pct = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      className={pct === null ? 'sv-progress sv-progress-indeterminate' : 'sv-progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(pct === null ? {} : { 'aria-valuenow': pct })}
      {...(valueText ? { 'aria-valuetext': valueText } : {})}
    >
      <span className="sv-progress-fill" style={pct === null ? undefined : { width: `${pct}%` }} />
    </div>
  );
}
