// The contradiction detector on the cases the issue names (a port that changed, allowed /
// forbidden, a new owner), and on what must not be a conflict (detail added, another
// subject). The labelled set's figures come from `npm run eval -- --suite contradictions`.
import { describe, expect, it } from 'vitest';
import { comparePair } from './detect';

describe('comparePair', () => {
  it('finds another value on the same subject, with the differing spans', () => {
    const r = comparePair('Billing runs on port 8080.', 'Billing runs on port 9090.');
    expect(r.relation).toBe('contradicting');
    expect(r.spans).toEqual([{ kind: 'number', older: '8080', newer: '9090' }]);
    expect(r.confidence).toBeGreaterThan(0.5);
    expect(
      comparePair('Deploys are allowed on Fridays.', 'Deploys are forbidden on Fridays.').spans[0],
    ).toMatchObject({ kind: 'opposite', older: 'allowed', newer: 'forbidden' });
    expect(
      comparePair('Priya owns the billing service.', 'Marco owns the billing service.').spans[0],
    ).toMatchObject({ kind: 'name', older: 'priya', newer: 'marco' });
  });

  it('tells an update (the newer one says things changed) from a contradiction', () => {
    expect(comparePair('Billing runs on port 8080.', 'Billing moved to port 8081.').relation).toBe(
      'updating',
    );
    expect(
      comparePair(
        'Feature flags are stored in Redis.',
        'Feature flags were migrated from Redis to PostgreSQL.',
      ),
    ).toMatchObject({
      relation: 'updating',
      spans: [{ kind: 'name', older: 'redis', newer: 'postgresql' }],
    });
  });

  it('leaves added detail and other subjects alone', () => {
    expect(
      comparePair(
        'The release train leaves every Thursday.',
        'The release train leaves every Thursday after QA.',
      ).relation,
    ).toBe('compatible');
    expect(
      comparePair('The team standup is at 9:30.', 'The team standup lasts 15 minutes.').relation,
    ).toBe('compatible');
    expect(
      comparePair('Priya owns the billing service.', 'Priya prefers tea to coffee.').relation,
    ).toBe('unrelated');
  });
});
