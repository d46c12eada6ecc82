import { describe, expect, it } from 'vitest';
import { baseLevelActivation } from './actr';

const now = Date.parse('2026-03-01T12:00:00Z');
const ago = (s: number) => now - s * 1000;

describe('ACT-R base-level activation', () => {
  it('is ln(Σ t^−0.5) over the kept accesses', () => {
    // ln(10^−0.5 + 100^−0.5) = ln(0.416228) = −0.876523
    const b = baseLevelActivation({
      accesses: [ago(10), ago(100)],
      totalCount: 2,
      createdAt: ago(100),
      now,
    });
    expect(b).toBeCloseTo(-0.876523, 5);
  });

  it("adds Petrov's approximation for accesses that were not kept", () => {
    // + 1·(1000^0.5 − 100^0.5) / (0.5·(1000 − 100)) = 0.048050 → ln(0.464278) = −0.767271
    const b = baseLevelActivation({
      accesses: [ago(10), ago(100)],
      totalCount: 3,
      createdAt: ago(1000),
      now,
    });
    expect(b).toBeCloseTo(-0.767271, 5);
  });

  it('is higher for recent and frequent use', () => {
    const once = baseLevelActivation({
      accesses: [ago(3600)],
      totalCount: 1,
      createdAt: ago(3600),
      now,
    })!;
    const recent = baseLevelActivation({
      accesses: [ago(60)],
      totalCount: 1,
      createdAt: ago(60),
      now,
    })!;
    const often = baseLevelActivation({
      accesses: [ago(3600), ago(1800), ago(600)],
      totalCount: 3,
      createdAt: ago(3600),
      now,
    })!;
    expect(recent).toBeGreaterThan(once);
    expect(often).toBeGreaterThan(once);
  });

  it('treats accesses in the future (clock set back) as one second old', () => {
    const b = baseLevelActivation({
      accesses: [now + 60_000],
      totalCount: 1,
      createdAt: now + 60_000,
      now,
    });
    expect(b).toBeCloseTo(0, 10);
  });

  it('is null without any access', () => {
    expect(baseLevelActivation({ accesses: [], totalCount: 0, createdAt: now, now })).toBeNull();
  });
});
