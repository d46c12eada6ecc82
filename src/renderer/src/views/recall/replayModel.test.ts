import { describe, expect, it } from 'vitest';
import type { RecallResult } from '../../../../shared/api';
import { abstainedRecall, hybridRecall, IDS } from './recallFixtures';
import { buildReplay, chipMotions, droppedIds } from './replayModel';
import { contributionsOf, decisionOf } from './scoring';
import { stageFacts } from './stages';

const trace = () => hybridRecall().trace as NonNullable<RecallResult['trace']>;

describe('the replay model', () => {
  it('has a column per stage and steps in the order the stages ran', () => {
    const replay = buildReplay(trace());
    expect(replay.columns.map((c) => c.info.name)).toEqual([
      'recognise',
      'lexical',
      'vector',
      'fusion',
      'spreading',
      'ranking',
      'abstention',
      'diversity',
      'budget',
    ]);
    expect(replay.steps).toHaveLength(9);
    expect(replay.terms).toEqual(['deploy', 'release']);
  });

  it('keeps columns for stages that did not run (fast path), without steps', () => {
    const replay = buildReplay({
      query: 'Rolling back a release',
      terms: ['rolling', 'back', 'release'],
      stages: [
        {
          name: 'recognise',
          ms: 0.3,
          items: [{ id: IDS.rollback, title: 'Rolling back a release', score: 1 }],
          detail: { answered: true, best: 1, runner_up: 0.11 },
        },
      ],
    });
    expect(replay.steps.map((s) => s.info.name)).toEqual(['recognise']);
    expect(replay.columns.filter((c) => c.step === null)).toHaveLength(8);
  });

  it('says where each chip comes from: fusion from the branches, ranking from fusion', () => {
    const replay = buildReplay(trace());
    const col = (name: string) => replay.columns.find((c) => c.info.name === name)!;
    const fusion = chipMotions(replay, col('fusion'));
    // The rollback memory was only a vector neighbour (row 0 there), fused at row 1.
    expect(fusion.get(IDS.rollback)).toEqual({
      colsBack: 1,
      rowsBack: -1,
      fresh: false,
      moved: -1,
      via: 'vector',
    });
    // The deploy memory came from the lexical branch, two columns back.
    expect(fusion.get(IDS.deploy)).toMatchObject({ colsBack: 2, rowsBack: 0 });
    const ranking = chipMotions(replay, col('ranking'));
    expect(ranking.get(IDS.migrations)).toMatchObject({ moved: 1 });
    // Reached only over links: it comes from spreading, not fusion.
    expect(ranking.get(IDS.linked)).toMatchObject({ colsBack: 1, fresh: false, via: 'spreading' });
    expect(chipMotions(replay, col('spreading')).get(IDS.linked)?.fresh).toBe(true);
  });

  it('marks what a filter dropped once that filter is shown', () => {
    const replay = buildReplay(trace());
    const diversity = replay.columns.find((c) => c.info.name === 'diversity')!;
    const budgetStep = replay.columns.find((c) => c.info.name === 'budget')!.step!;
    expect(droppedIds(replay, diversity, budgetStep - 1).size).toBe(0);
    expect([...droppedIds(replay, diversity, budgetStep)]).toEqual([IDS.rollback]);
  });

  it('names the facts of each stage', () => {
    const stages = trace().stages;
    expect(stageFacts(stages[2]!)).toEqual([
      'hash-384-v1',
      'exact scan',
      '35 compared',
      'floor 0.45',
      'best 0.71',
    ]);
    expect(stageFacts({ name: 'fusion', detail: { k: 60, new_thing: 'x' } })).toEqual([
      'k = 60',
      'new thing: x',
    ]);
  });
});

describe('scoring', () => {
  it("shows the engine's terms of the final score, labelled, in the formula's order", () => {
    const hit = hybridRecall().results[0]!;
    const parts = contributionsOf(hit.breakdown!);
    expect(parts.map((p) => p.label)).toEqual([
      'Relevance',
      'Activation',
      'Retrievability',
      'Salience',
      'Pinned',
    ]);
    expect(parts[0]).toMatchObject({ key: 'relevance', weight: 0.75, input: 1, value: 0.75 });
    expect(parts.reduce((s, p) => s + p.value, 0)).toBeCloseTo(hit.breakdown!.final, 3);
  });

  it('explains abstentions, answers and the fast path', () => {
    expect(decisionOf(abstainedRecall())).toMatchObject({
      abstained: true,
      gauge: { best: 0.21, bar: 0.45, calibrated: false },
    });
    expect(decisionOf(hybridRecall()).reason).toBe(
      "Confidence high (0.82): 100 % of the query's weight in words.",
    );
    const fast: RecallResult = {
      ...hybridRecall(),
      how: 'fastpath',
      trace: {
        query: 'x',
        terms: [],
        stages: [{ name: 'recognise', ms: 1, items: [], detail: { best: 0.91, runner_up: 0.4 } }],
      },
    };
    expect(decisionOf(fast).reason).toBe(
      'The query names one memory: recognised at 0.91, 0.40 for the next.',
    );
  });
});
