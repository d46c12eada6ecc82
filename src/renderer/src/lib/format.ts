// Numbers, sizes and scores as the observatory shows them (the user's locale).
import { formatBytes as formatSize } from '../../../shared/format';

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export function formatCount(n: number): string {
  return integer.format(n);
}

/** 1536 → "1.5 KB": Loci's one size format, with the user's locale for the number. */
export function formatBytes(bytes: number): string {
  return formatSize(bytes, (value, digits) =>
    new Intl.NumberFormat(undefined, { maximumFractionDigits: digits }).format(value),
  );
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
