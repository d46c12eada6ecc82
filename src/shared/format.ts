// Sizes as Loci writes them everywhere (CLI, messages, doctor, observatory): powers of
// 1024 with the units file managers show (KB, MB, GB), one decimal below 100.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * 1536 → "1.5 KB", 250 MiB → "250 MB". `number` formats the value (the observatory
 * passes the user's locale); by default it is written plainly, as 1.5.
 */
export function formatBytes(
  bytes: number,
  number: (value: number, fractionDigits: number) => string = (v, d) =>
    String(Math.round(v * 10 ** d) / 10 ** d),
): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${number(value, digits)} ${UNITS[unit]}`;
}
