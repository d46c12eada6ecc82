// What the benchmark scripts share to report: a percentile of timings, and a progress bar
// for their long loads.
import { Presets, SingleBar } from 'cli-progress';

/** The p-th percentile (nearest rank) of `xs`, to two decimals. */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Number((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0).toFixed(2));
}

/** A progress bar for `total` steps, started at 0. */
export function bar(label: string, total: number): SingleBar {
  const b = new SingleBar(
    { format: `${label} [{bar}] {value}/{total}`, hideCursor: true },
    Presets.shades_classic,
  );
  b.start(total, 0);
  return b;
}
