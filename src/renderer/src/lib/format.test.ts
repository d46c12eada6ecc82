import { describe, expect, it } from 'vitest';
import { relativeTime } from '../components/TimeAgo';
import { formatBytes, formatPercent, formatScore } from './format';

describe('format', () => {
  it('sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1_572_864)).toBe('1.5 MB');
    expect(formatBytes(250 * 1024 * 1024)).toBe('250 MB');
    expect(formatBytes(-1)).toBe('—');
  });

  it('percentages never round a real share to 0 or 100', () => {
    expect(formatPercent(1, 1000)).toBe('<1%');
    expect(formatPercent(999, 1000)).toBe('>99%');
    expect(formatPercent(1, 2)).toBe('50%');
    expect(formatPercent(0, 0)).toBe('—');
  });

  it('scores with two decimals', () => {
    expect(formatScore(0.8149)).toBe('0.81');
  });

  it('relative times', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(relativeTime('2026-03-01T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-03-01T11:55:00Z', now)).toMatch(/5 min/);
    expect(relativeTime('2026-02-28T12:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('not a date', now)).toBe('—');
  });
});
