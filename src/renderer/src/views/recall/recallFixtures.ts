// Contract-shaped recall answers with an explain trace, for the Recall lab's and the
// Activity view's tests: a hybrid answer through every stage, and an abstention.
import type { RecallHit, RecallResult, ScoreBreakdown, TraceStage } from '../../../../shared/api';

export const IDS = {
  deploy: '01JDEPLOY00000000000000000',
  rollback: '01JR0LLBACK000000000000000',
  migrations: '01JM1GRAT10NS0000000000000',
  linked: '01JL1NKED00000000000000000',
};

const item = (id: string, title: string, score: number, note?: string) => ({
  id,
  title,
  score,
  ...(note ? { note } : {}),
});

export function breakdownFixture(overrides: Partial<ScoreBreakdown> = {}): ScoreBreakdown {
  return {
    lexical: 3.2,
    lexical_rank: 1,
    vector: 0.62,
    vector_rank: 2,
    fused: 0.98,
    coverage: 1,
    speaker: false,
    time: 0,
    neighbour: 0,
    relevance: 1,
    spread: 0.04,
    activation: -1.2,
    retrievability: 0.9,
    salience: 0.4,
    matched_terms: 2,
    query_terms: 2,
    final: 0.958,
    contributions: [
      { term: 'relevance', input: 1, weight: 0.75, value: 0.75 },
      { term: 'activation', input: 0.9427, weight: 0.08, value: 0.0754 },
      { term: 'retrievability', input: 0.9, weight: 0.07, value: 0.063 },
      { term: 'salience', input: 0.4, weight: 0.05, value: 0.02 },
      { term: 'pinned', input: 1, weight: 0.05, value: 0.05 },
    ],
    ...overrides,
  };
}

function hit(id: string, title: string, score: number, extra: Partial<RecallHit> = {}): RecallHit {
  return {
    id,
    title,
    content: `${title}: the whole memory.`,
    truncated: false,
    tags: ['deploy'],
    kind: 'procedural',
    created_at: '2026-02-01T09:00:00Z',
    score,
    confidence: 0.8,
    why: 'matched all 2 query terms',
    pinned: false,
    quarantined: false,
    ...extra,
  };
}

const stages: TraceStage[] = [
  {
    name: 'recognise',
    ms: 0.4,
    items: [
      item(IDS.deploy, 'Deploys go through ops/deploy.sh', 0.5),
      item(IDS.rollback, 'Rolling back a release', 0.45),
    ],
    detail: { answered: false, best: 0.5, runner_up: 0.45 },
  },
  {
    name: 'lexical',
    ms: 0.7,
    items: [
      item(IDS.deploy, 'Deploys go through ops/deploy.sh', 3.2, '2/2 terms'),
      item(IDS.migrations, 'Database migrations run before the deploy', 2.1, '1/2 terms'),
    ],
    detail: { terms: 2, tiers_run: 2 },
  },
  {
    name: 'vector',
    ms: 0.5,
    items: [
      item(IDS.rollback, 'Rolling back a release', 0.71),
      item(IDS.deploy, 'Deploys go through ops/deploy.sh', 0.62),
    ],
    detail: {
      used: true,
      model: 'hash-384-v1',
      exact: true,
      rescored: 35,
      floor: 0.45,
      best: 0.71,
    },
  },
  {
    name: 'fusion',
    ms: 0.1,
    items: [
      item(IDS.deploy, 'Deploys go through ops/deploy.sh', 0.98),
      item(IDS.rollback, 'Rolling back a release', 0.5),
      item(IDS.migrations, 'Database migrations run before the deploy', 0.49),
    ],
    detail: { k: 60 },
  },
  {
    name: 'spreading',
    ms: 0.3,
    items: [
      item(IDS.linked, 'Release checklist', 0.3),
      item(IDS.deploy, 'Deploys go through ops/deploy.sh', 0.04),
    ],
    detail: { hops: 2, decay: 0.6, reached: 2 },
  },
  {
    name: 'ranking',
    ms: 0.4,
    items: [
      item(IDS.deploy, 'Deploys go through ops/deploy.sh', 0.93),
      item(IDS.migrations, 'Database migrations run before the deploy', 0.55),
      item(IDS.rollback, 'Rolling back a release', 0.52),
      item(IDS.linked, 'Release checklist', 0.3),
    ],
    detail: {
      weights: {
        relevance: 0.75,
        activation: 0.08,
        retrievability: 0.07,
        salience: 0.05,
        pinned: 0.05,
      },
    },
  },
  {
    name: 'abstention',
    ms: 0.02,
    items: [],
    detail: {
      abstained: false,
      threshold: 0.45,
      floor: 0.45,
      threshold_source: 'default',
      best_similarity: 0.71,
      best_coverage: 1,
      absent: 0,
    },
  },
  {
    name: 'diversity',
    ms: 0.2,
    items: [
      item(IDS.deploy, 'Deploys go through ops/deploy.sh', 0.93),
      item(IDS.migrations, 'Database migrations run before the deploy', 0.55),
      item(IDS.rollback, 'Rolling back a release', 0.52),
    ],
    detail: { lambda: 0.7 },
  },
  {
    name: 'budget',
    ms: 1.1,
    items: [
      item(IDS.deploy, 'Deploys go through ops/deploy.sh', 0.93),
      item(IDS.migrations, 'Database migrations run before the deploy', 0.55),
    ],
    detail: { max_tokens: 200, used: 180, omitted: 1 },
  },
];

export function hybridRecall(): RecallResult {
  return {
    store: 'default',
    how: 'hybrid',
    abstained: false,
    confidence: { value: 0.82, level: 'high', basis: "100 % of the query's weight in words" },
    semantic: 'off',
    degraded: ['1 more result left out to stay within max_tokens'],
    results: [
      hit(IDS.deploy, 'Deploys go through ops/deploy.sh', 0.93, {
        pinned: true,
        breakdown: breakdownFixture(),
      }),
      hit(IDS.migrations, 'Database migrations run before the deploy', 0.55, {
        why: 'matched 1 of 2 query terms',
        breakdown: breakdownFixture({
          vector: null,
          vector_rank: null,
          lexical_rank: 2,
          fused: 0.49,
          matched_terms: 1,
          final: 0.55,
        }),
      }),
    ],
    omitted: 1,
    tokens: { used: 180, max: 200 },
    timings: {
      parse_ms: 0.2,
      recognise_ms: 0.4,
      lexical_ms: 0.7,
      vector_ms: 0.5,
      fusion_ms: 0.1,
      spreading_ms: 0.3,
      ranking_ms: 0.4,
      abstention_ms: 0.02,
      diversity_ms: 0.2,
      budget_ms: 1.1,
      total_ms: 3.9,
      embed_ms: 0.3,
    },
    trace: { query: 'deploy release', terms: ['deploy', 'release'], stages },
  };
}

export function abstainedRecall(): RecallResult {
  const upTo = stages.slice(0, 7).map((s) =>
    s.name === 'abstention'
      ? {
          ...s,
          detail: {
            ...s.detail,
            abstained: true,
            best_similarity: 0.21,
            best_coverage: 0,
            absent: 1,
          },
        }
      : s.name === 'lexical'
        ? { ...s, items: [] }
        : s,
  );
  return {
    store: 'default',
    how: 'hybrid',
    abstained: true,
    confidence: {
      value: 0.05,
      level: 'low',
      basis: "0 % of the query's weight in words (100 % of it in words no memory holds)",
    },
    semantic: 'off',
    degraded: [],
    results: [],
    near_misses: [
      hit(IDS.rollback, 'Rolling back a release', 0.21, {
        why: 'near miss: spelling similarity 0.21, under the bar of 0.45',
      }),
    ],
    omitted: 0,
    tokens: { used: 0, max: null },
    timings: { parse_ms: 0.1, recognise_ms: 0.2, lexical_ms: 0.3, vector_ms: 0.3, total_ms: 1.2 },
    trace: { query: 'zxqv blorptangle', terms: ['zxqv', 'blorptangle'], stages: upTo },
  };
}
