// "3 min ago" that stays true: every TimeAgo on the page shares one minute ticker. The
// exact local time is in the tooltip and the machine-readable `dateTime`.
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let tick = 0;
let ticker: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!ticker)
    ticker = setInterval(() => {
      tick++;
      for (const l of listeners) l();
    }, 30_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.345],
  ['month', 12],
  ['year', Infinity],
];

export function relativeTime(iso: string, nowMs: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '—';
  let value = (then - nowMs) / 1000;
  if (Math.abs(value) < 45) return 'just now';
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return rtf.format(Math.round(value), unit);
    value /= size;
  }
  return rtf.format(Math.round(value), 'year');
}

export function TimeAgo({ iso }: { iso: string }) {
  // The ticker only asks for a re-render; the time itself is read fresh.
  useSyncExternalStore(
    subscribe,
    () => tick,
    () => tick,
  );
  const nowMs = Date.now();
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={Number.isNaN(date.getTime()) ? iso : date.toLocaleString()}>
      {relativeTime(iso, nowMs)}
    </time>
  );
}
