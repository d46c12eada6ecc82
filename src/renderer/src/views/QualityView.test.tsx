import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EvalCase, EvalEstimate, EvalRunResult, EvalRunView } from '../../../shared/eval';
import { EngineCallError } from '../lib/engineClient';
import { createFakeClient, type FakeHandlers } from '../testing/fakeClient';
import { renderWithClient } from '../testing/render';
import { knobsToConfig, DEFAULT_KNOBS, verdict, trendRuns } from './quality/qualityModel';
import QualityView from './QualityView';

const est = (mean: number, low: number, high: number, n = 4): EvalEstimate => ({
  mean,
  low,
  high,
  n,
});

const run = (at: string, ndcg: number, over: Partial<EvalRunView> = {}): EvalRunView => ({
  id: `01JRUN${at.replace(/\D/g, '').slice(0, 20).padEnd(20, '0')}`,
  at,
  actor: 'ui',
  label: 'store configuration',
  config: {},
  cases: 4,
  summary: {
    recall10: est(0.75, 0.5, 1),
    mrr: est(0.6, 0.4, 0.8),
    ndcg10: est(ndcg, ndcg - 0.1, Math.min(1, ndcg + 0.1)),
    wrong10: est(0.5, 0, 1, 2),
    skipped: 0,
  },
  ...over,
});

const CASE: EvalCase = {
  id: '01JCASE0000000000000000000',
  query: 'how do we deploy',
  expected: [{ id: '01JDEPLOY00000000000000000', title: 'Deploys go through ops', gone: false }],
  wrong: [{ id: '01JCOFFEE00000000000000000', title: null, gone: true }],
  note: null,
  call_id: 9,
  actor: 'ui',
  created_at: '2026-03-01T09:00:00Z',
  updated_at: '2026-03-01T09:00:00Z',
};

function setup(handlers: FakeHandlers = {}) {
  const client = createFakeClient({
    'eval.cases': () => ({ store: 'default', cases: [CASE] }),
    'eval.runs': () => ({
      store: 'default',
      runs: [
        run('2026-03-01T09:00:00Z', 0.5),
        run('2026-03-02T09:00:00Z', 0.7),
        run('2026-03-02T10:00:00Z', 0.4, { label: 'vectors off', config: { use_vectors: false } }),
      ],
    }),
    ...handlers,
  });
  renderWithClient(<QualityView rest={[]} query={new URLSearchParams()} />, client);
  return { client, user: userEvent.setup() };
}

describe('QualityView', () => {
  it('says what to do first when nothing is marked', async () => {
    setup({ 'eval.cases': () => ({ store: 'default', cases: [] }) });
    const empty = await screen.findByRole('region', { name: 'No marked recalls yet' });
    expect(empty.textContent).toMatch(/in Activity, open a recall call/);
    expect(within(empty).getByRole('button', { name: 'Open Activity' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run now' })).toHaveProperty('disabled', true);
  });

  it('shows the trend of the store configuration with intervals, the cases and every run', async () => {
    setup();
    const chart = await screen.findByRole('img', { name: /nDCG@10 over 2 runs; latest 0\.700/ });
    expect(chart.getAttribute('aria-label')).toMatch(/95 % interval 0\.600 to 0\.800/);
    expect(screen.getByTestId('quality-latest').textContent).toMatch(/0\.700 \[0\.600, 0\.800\]/);
    const cases = screen.getByRole('list', { name: 'Marked cases' });
    expect(within(cases).getByText('how do we deploy')).toBeTruthy();
    expect(within(cases).getByRole('link', { name: 'Deploys go through ops' })).toBeTruthy();
    expect(within(cases).getByText(/gone: not counted/)).toBeTruthy();
    // The runs table has the comparison run too.
    const table = screen.getByTestId('quality-runs');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByText('vectors off')).toBeTruthy();
  });

  it('switches the metric of the trend', async () => {
    const { user } = setup();
    await screen.findByRole('img', { name: /nDCG@10 over 2 runs/ });
    await user.click(screen.getByRole('radio', { name: 'MRR' }));
    expect(screen.getByRole('img', { name: /MRR over 2 runs; latest 0\.600/ })).toBeTruthy();
  });

  it('runs now and removes a case', async () => {
    const { client, user } = setup({
      'eval.run': () =>
        ({
          store: 'default',
          run: run('2026-03-03T09:00:00Z', 0.8),
          outcomes: [],
          against: null,
          against_outcomes: null,
          difference: null,
        }) satisfies EvalRunResult,
      'eval.remove': ({ id }) => ({ store: 'default', id, removed: true }),
    });
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    expect(client.callsOf('eval.run')).toEqual([{ store: 'default' }]);
    await user.click(screen.getByRole('button', { name: 'Remove the case “how do we deploy”' }));
    expect(client.callsOf('eval.remove')).toEqual([{ store: 'default', id: CASE.id }]);
  });

  it('compares two configurations and says whether the difference is real', async () => {
    const { client, user } = setup({
      'eval.run': () => ({
        store: 'default',
        run: run('2026-03-03T09:00:00Z', 0.8, { id: null, label: 'A' }),
        outcomes: [],
        against: run('2026-03-03T09:00:00Z', 0.4, { id: null, label: 'B' }),
        against_outcomes: [],
        difference: {
          recall10: { ...est(-0.25, -0.5, 0), mde: 0.3 },
          mrr: { ...est(-0.3, -0.5, -0.1), mde: 0.3 },
          ndcg10: { ...est(-0.4, -0.6, -0.2), mde: 0.3 },
          wrong10: { ...est(0, -0.5, 0.5, 2), mde: null },
        },
      }),
    });
    const compare = await screen.findByTestId('quality-compare');
    const sideB = within(compare).getByRole('group', { name: 'Configuration B' });
    // B starts with vector search off; turn the recogniser off too.
    expect(within(sideB).getByRole('checkbox', { name: 'Vector search' })).toHaveProperty(
      'checked',
      false,
    );
    await user.click(within(sideB).getByRole('checkbox', { name: 'Recogniser fast path' }));
    await user.click(within(compare).getByRole('button', { name: 'Run both' }));
    expect(client.callsOf('eval.run')).toEqual([
      {
        store: 'default',
        config: {},
        label: 'A',
        against: { use_vectors: false, use_recognizer: false },
        against_label: 'B',
        save: false,
      },
    ]);
    const result = await within(compare).findByTestId('quality-compare-result');
    expect(result.textContent).toMatch(/B is worse than A on nDCG@10: −0\.400/);
    expect(result.textContent).toMatch(/No clear difference on wrong@10/);
  });

  it('shows the engine error when the cases cannot be loaded', async () => {
    setup({
      'eval.cases': () => {
        throw new EngineCallError('store-not-found', 'No store "x".');
      },
    });
    expect(await screen.findByText('Could not load the quality lab')).toBeTruthy();
    expect(screen.getByText(/No store "x"\./)).toBeTruthy();
  });
});

describe('quality model', () => {
  it('keeps only the trend runs and sends only changed knobs', () => {
    expect(
      trendRuns([
        run('2026-03-01T00:00:00Z', 1),
        run('2026-03-02T00:00:00Z', 1, { config: { rrf_k: 10 } }),
      ]),
    ).toHaveLength(1);
    expect(knobsToConfig(DEFAULT_KNOBS)).toEqual({});
    expect(knobsToConfig({ ...DEFAULT_KNOBS, relevance: 1, activation: 0 })).toEqual({
      weights: { relevance: 1, activation: 0 },
    });
  });

  it('reads a paired difference: lower is better for wrong@10', () => {
    expect(verdict(est(-0.2, -0.3, -0.1), 'wrong10', 'A', 'B').tone).toBe('better');
    expect(verdict(est(0.2, 0.1, 0.3), 'ndcg10', 'A', 'B').tone).toBe('better');
    expect(verdict(est(0.1, -0.1, 0.3), 'ndcg10', 'A', 'B').tone).toBe('unclear');
    expect(verdict(est(0, 0, 0, 0), 'mrr', 'A', 'B').tone).toBe('none');
  });
});
