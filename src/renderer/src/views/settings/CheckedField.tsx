// A text field with its submit button and a hint line that turns into the problem once
// the person has typed something wrong and left the field (or submitted): the Settings
// forms that name something new (a store, an allowed folder).
import { useId } from 'react';
import { Button } from '../../components/Button';

export function CheckedField({
  label,
  value,
  onChange,
  onBlur,
  placeholder,
  mono = false,
  problem,
  hint,
  submitLabel,
  busy,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  onBlur(): void;
  placeholder: string;
  mono?: boolean;
  /** The problem to show (already decided: shown only once touched), or null. */
  problem: string | null;
  hint: string;
  submitLabel: string;
  busy: boolean;
}) {
  const fieldId = useId();
  const hintId = useId();
  return (
    <>
      <label htmlFor={fieldId} className="sv-label">
        {label}
      </label>
      <div className="sv-row">
        <input
          id={fieldId}
          className={mono ? 'input mono' : 'input'}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={hintId}
        />
        <Button type="submit" icon="plus" busy={busy} disabled={value.trim() === ''}>
          {submitLabel}
        </Button>
      </div>
      <p id={hintId} className={problem ? 'sv-hint sv-hint-error' : 'sv-hint'}>
        {problem ?? hint}
      </p>
    </>
  );
}
