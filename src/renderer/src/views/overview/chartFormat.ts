// Labels for the Overview charts: days (the engine counts UTC days, so they are shown as
// UTC dates, never shifted by the local zone), latency buckets and durations.

const dayShort = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const dayLong = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** `2026-03-03` → "Mar 3". */
export function formatDayShort(day: string): string {
  const d = asDate(day);
  return Number.isNaN(d.getTime()) ? day : dayShort.format(d);
}

/** `2026-03-03` → "Tue, Mar 3, 2026". */
export function formatDayLong(day: string): string {
  const d = asDate(day);
  return Number.isNaN(d.getTime()) ? day : dayLong.format(d);
}

/** 0.42 → "0.42 ms", 12.5 → "12.5 ms", 1500 → "1.5 s". */
export function formatMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return `${Number(ms.toPrecision(2))} ms`;
}

/** A histogram bucket's bound: `1000` → "1 s", `null` → "more". */
function bound(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The bucket's range: "≤ 5 ms", and "> 1 s" for the last (open) one. */
export function bucketLabel(le: number | null, previous: number | null): string {
  if (le === null) return previous === null ? 'any' : `> ${bound(previous)}`;
  return `≤ ${bound(le)}`;
}

/** Short axis label: "≤5", ">1k". */
export function bucketTick(le: number | null, previous: number | null): string {
  const short = (ms: number) => (ms >= 1000 ? `${ms / 1000}k` : String(ms));
  if (le === null) return previous === null ? 'all' : `>${short(previous)}`;
  return short(le);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${new Intl.NumberFormat().format(n)} ${n === 1 ? one : many}`;
}
