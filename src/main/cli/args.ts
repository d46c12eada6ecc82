// Parsers of command-line option values, shared by every command module: each one
// rejects a bad value with a message that names the option and what it takes.
import { InvalidArgumentError } from 'commander';

/** A repeatable option: `-t a -t b` → ['a', 'b']. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

function wholeNumber(name: string, min: number | null, what: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || (min !== null && n < min))
      throw new InvalidArgumentError(`${name} must be ${what}`);
    return n;
  };
}

/** Any whole number. */
export const intArg = (name: string) => wholeNumber(name, null, 'a whole number');
/** A whole number ≥ 0 (budgets that may be zero). */
export const nonNegativeIntArg = (name: string) => wholeNumber(name, 0, 'a whole number');
/** A whole number ≥ 1 (counts). */
export const positiveIntArg = (name: string) => wholeNumber(name, 1, 'a whole number ≥ 1');

export function floatArg(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number`);
    return n;
  };
}

/** Accepts ISO 8601 and plain dates (`2026-03-01` → midnight UTC). */
export function timeArg(value: string): string {
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(t))
    throw new InvalidArgumentError(
      `"${value}" is not a date or time (use ISO 8601, e.g. 2026-03-01 or 2026-03-01T09:30:00Z)`,
    );
  return new Date(t).toISOString();
}

/** A time, or "none" to clear one. */
export function timeOrNone(value: string): string | null {
  return value === 'none' ? null : timeArg(value);
}
