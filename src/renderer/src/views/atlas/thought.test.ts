import { describe, expect, it } from 'vitest';
import type { RecallResult } from '../../../../shared/api';
import { thoughtSteps } from './thought';

const stage = (name: string, items: { id: string; note?: string }[], detail = {}) => ({
  name,
  ms: 1,
  items: items.map((i) => ({ title: i.id, score: 0.5, ...i })),
  detail,
});

describe('thoughtSteps', () => {
  it('replays seeds, each hop of spreading, then the answer', () => {
    const result = {
      abstained: false,
      results: [{ id: 'A' }, { id: 'D' }],
      trace: {
        query: 'deploy',
        terms: ['deploy'],
        stages: [
          stage('fusion', [{ id: 'A' }, { id: 'B' }, { id: 'X' }]),
          stage(
            'spreading',
            [
              { id: 'C', note: 'hop 1' },
              { id: 'D', note: 'hop 2' },
              { id: 'B', note: 'hop 1' },
              { id: 'E', note: 'hop 1' },
            ],
            { seeds: 2 },
          ),
        ],
      },
    } as unknown as RecallResult;
    const steps = thoughtSteps(result);
    expect(steps.map((s) => s.title)).toEqual(['Seeds', 'Hop 1', 'Hop 2', 'Answer']);
    expect(steps[0]?.ids).toEqual(['A', 'B']);
    expect(steps[1]?.ids).toEqual(['C', 'E']);
    expect(steps[2]?.shown).toEqual(['A', 'B', 'C', 'E', 'D']);
    expect(steps[3]?.shown).toEqual(['A', 'D']);
    expect(steps[3]?.text).toMatch(/reached only through links/);
  });

  it('says when recall abstained', () => {
    const steps = thoughtSteps({
      abstained: true,
      results: [],
      trace: { query: 'x', terms: [], stages: [] },
    } as unknown as RecallResult);
    expect(steps).toHaveLength(1);
    expect(steps[0]?.text).toMatch(/abstained/);
  });
});
