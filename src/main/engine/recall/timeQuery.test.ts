import { describe, expect, it } from 'vitest';
import { timeCues, timeFit } from './timeQuery';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const day = (s: string) => Date.parse(`${s}T00:00:00Z`);

describe('timeCues', () => {
  it('reads months, days and years named with or without a year', () => {
    const month = timeCues('What setback did Melanie face in October 2023?', NOW);
    expect(month.windows).toEqual([
      expect.objectContaining({ from: day('2023-10-01'), to: day('2023-11-01') }),
    ]);
    const date = timeCues('What did Gina find on 1 February, 2023?', NOW);
    expect(date.windows[0]).toMatchObject({ from: day('2023-02-01'), to: day('2023-02-02') });
    const year = timeCues('How many times has Melanie gone to the beach in 2023?', NOW);
    expect(year.windows[0]).toMatchObject({ from: day('2023-01-01'), to: day('2024-01-01') });
    // A month without a year: that month of any of the last ten years.
    const june = timeCues('When did Melanie go camping in June?', NOW);
    expect(june.windows.map((w) => new Date(w.from).toISOString().slice(0, 7))).toContain(
      '2023-06',
    );
    expect(june.windows).toHaveLength(10);
  });

  it('reads spans relative to now', () => {
    const week = timeCues('what did we decide last week about the cache', NOW);
    expect(week.windows[0]!.to - week.windows[0]!.from).toBe(7 * 86_400_000);
    expect(week.windows[0]!.from).toBeLessThan(NOW);
    expect(week.windows[0]!.from).toBeGreaterThan(NOW - 14 * 86_400_000);
    expect(timeCues('what broke yesterday', NOW).windows[0]).toMatchObject({
      from: day('2026-11-30'),
    });
  });

  it('finds no time where there is none, nor in durations', () => {
    expect(timeCues('retry 3 times in 5 seconds', NOW).windows).toEqual([]);
    expect(timeCues('billing-svc port 8081', NOW).windows).toEqual([]);
    expect(timeCues('When did Caroline go to the support group?', NOW)).toEqual({
      windows: [],
      recent: false,
    });
    expect(timeCues('what did Marco work on recently', NOW).recent).toBe(true);
  });
});

describe('timeFit', () => {
  const w = [
    { from: day('2026-03-01'), to: day('2026-04-01'), after: 10 * 86_400_000, text: 'March' },
  ];
  it('is 1 inside the window and fades after it and, less far, before it', () => {
    expect(timeFit(day('2026-03-15'), w)).toBe(1);
    expect(timeFit(day('2026-04-06'), w)).toBeCloseTo(0.5, 5);
    expect(timeFit(day('2026-04-20'), w)).toBe(0);
    expect(timeFit(day('2026-02-28'), w)).toBeGreaterThan(0);
    expect(timeFit(day('2026-02-20'), w)).toBe(0);
  });
});
