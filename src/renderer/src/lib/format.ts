// Numbers, sizes and scores as the observatory shows them (the user's locale).

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export function formatCount(n: number): string {
  return integer.format(n);
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** 1536 → "1.5 KB" (powers of 1024, as file managers show database files). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: digits }).format(value)} ${UNITS[unit]}`;
}

/** A 0–1 share as a whole percentage; tiny non-zero shares never round to "0 %". */
export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return '—';
  const p = (part / whole) * 100;
  if (p > 0 && p < 1) return '<1%';
  if (p < 100 && p > 99) return '>99%';
  return `${Math.round(p)}%`;
}

/** Recall scores are 0–1: two decimals are as precise as they are meaningful. */
export function formatScore(score: number): string {
  return score.toFixed(2);
}
