import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  DreamListResult,
  DreamReport,
  ReviewItemView,
  ReviewListResult,
} from '../../../../shared/api';
import { EngineCallError } from '../../lib/engineClient';
import { useUiStore } from '../../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import DreamsView from '../DreamsView';

const A = '01JDREAMAAAAAAAAAAAAAAAAAA';
const B = '01JDREAMBBBBBBBBBBBBBBBBBB';
const CYCLE = '01JDREAMCYC1E0000000000000';

const report = (over: Partial<DreamReport> = {}): DreamReport => ({
  id: CYCLE,
  store: 'default',
  dry_run: false,
  status: 'done',
  trigger: 'manual',
  actor: 'ui',
  started_at: '2026-03-01T09:00:00.000Z',
  finished_at: '2026-03-01T09:00:01.000Z',
  phases: [
    {
      phase: 'affect',
      status: 'done',
      examined: 3,
      changes: [{ kind: 'arousal', target: A, before: 0.8, after: 0.4 }],
      changes_total: 1,
      proposals: 0,
      notes: ['Arousal halves every 30 days; pinned memories keep theirs.'],
      duration_ms: 1.5,
    },
    {
      phase: 'schema',
      status: 'done',
      examined: 1,
      changes: [],
      changes_total: 0,
      proposals: 0,
      notes: ['No language model is configured (llm.url): summaries are extractive.'],
      duration_ms: 0.4,
    },
  ],
  totals: { examined: 4, changes: 1, proposals: 0, duration_ms: 1.9 },
  error: null,
  ...over,
});

const list = (cycles: DreamReport[] = [report()], pending = 1): DreamListResult => ({
  store: 'default',
  cycles: cycles.map((c) => ({ ...c, phases: c.phases.map((p) => p.phase) })),
  running: null,
  schedule: {
    enabled: true,
    idle_minutes: 30,
    interval_hours: 24,
    last_cycle_at: null,
    next_eligible_at: null,
    llm: { configured: false, model: null },
    auto_accept: { schema: false, merge: false, link: false, refine: false, distill: false },
  },
  pending_reviews: pending,
});

const merge: ReviewItemView = {
  id: '01JREV1EW00000000000000001',
  kind: 'merge',
  state: 'pending',
  title: 'Merge “Deploy billing v2” into “Deploy billing”',
  proposal: { keep: A, drop: B, title: 'Deploy billing', content: 'Deploy billing\nPage on-call.' },
  evidence: [
    { id: A, title: 'Deploy billing', excerpt: 'Deploy billing', note: 'kept (used 3 times)' },
    { id: B, title: 'Deploy billing v2', excerpt: 'Deploy billing. Page on-call.', note: null },
  ],
  diff: '  Deploy billing\n+ Page on-call.',
  source: 'dream:merge',
  cycle: CYCLE,
  created_at: '2026-03-01T09:00:01.000Z',
  decided_at: null,
  decided_by: null,
  result_ids: [],
  reason: null,
};
const link: ReviewItemView = {
  ...merge,
  id: '01JREV1EW00000000000000002',
  kind: 'link',
  title: 'Link “Kafka offsets” and “Kafka retries”',
  proposal: { from: A, to: B, type: 'related', weight: 0.4, similarity: 0.41 },
  diff: null,
  source: 'dream:recombine',
};

function inbox(items: ReviewItemView[]): ReviewListResult {
  return {
    store: 'default',
    items,
    counts: {
      pending: items.filter((i) => i.state === 'pending').length,
      accepted: 0,
      rejected: 0,
    },
  };
}

function setup(handlers: FakeHandlers = {}) {
  const client = createFakeClient({
    'dream.list': () => list(),
    'dream.get': () => report(),
    'memory.titles': (a) => ({
      titles: a.ids.map((id) => ({
        id,
        title: `Memory ${id.slice(-4)}`,
        kind: 'semantic' as const,
        trust: 'trusted' as const,
        deleted_at: null,
      })),
    }),
    'review.list': () => inbox([merge, link]),
    'review.accept': (a) => ({
      store: 'default',
      results: a.ids.map((id) => ({ id, state: 'accepted' as const, result_ids: [A] })),
    }),
    'review.reject': (a) => ({
      store: 'default',
      results: a.ids.map((id) => ({ id, state: 'rejected' as const, result_ids: [] })),
    }),
    'dream.run': (a) => report({ dry_run: a.dry_run ?? false }),
    'dream.cancel': (a) => ({ id: a.id ?? null, cancelled: true }),
    ...handlers,
  });
  renderWithClient(<DreamsView rest={[]} query={new URLSearchParams()} />, client);
  return client;
}

describe('DreamsView', () => {
  it('shows the timeline and the selected cycle phase by phase, with before → after', async () => {
    setup();
    const detail = await screen.findByRole('region', { name: `Cycle ${CYCLE}` });
    expect(screen.getByRole('list', { name: 'Dream cycles, newest first' })).toBeTruthy();
    expect(within(detail).getByText('Affect')).toBeTruthy();
    const row = within(detail).getByRole('row', { name: /arousal/ });
    expect(within(row).getByText('0.8').tagName).toBe('DEL');
    expect(within(row).getByText('0.4').tagName).toBe('INS');
    // Named, not an id fragment.
    const ref = await within(row).findByRole('link', { name: `Memory ${A.slice(-4)}` });
    expect(ref.getAttribute('href')).toBe(`#/memories/${A}`);
    expect(within(detail).getByText(/No language model is configured/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Review inbox (1)' })).toBeTruthy();
  });

  it('follows the store: another store shows its own latest cycle', async () => {
    const OTHER = '01JDREAMOTHER0000000000000';
    const client = createFakeClient({
      'dream.list': (a) => list([report(a.store === 'work' ? { id: OTHER, store: 'work' } : {})]),
      'dream.get': (a) => report({ id: a.id, store: a.store ?? 'default' }),
      'review.list': () => inbox([]),
    });
    renderWithClient(<DreamsView rest={[]} query={new URLSearchParams()} />, client, {
      stores: ['default', 'work'],
    });
    await screen.findByRole('region', { name: `Cycle ${CYCLE}` });
    // Chosen in the timeline: it belongs to this store only.
    await userEvent.click(screen.getByRole('button', { name: /^Dream/ }));
    act(() => useUiStore.getState().setStore('work'));
    expect(await screen.findByRole('region', { name: `Cycle ${OTHER}` })).toBeTruthy();
    expect(client.callsOf('dream.get').at(-1)).toEqual({ store: 'work', id: OTHER });
  });

  it('says what to do first when there is no cycle', async () => {
    setup({ 'dream.list': () => list([], 0) });
    expect(await screen.findByRole('region', { name: 'No dream yet' })).toBeTruthy();
  });

  it('shows an error with a retry', async () => {
    let fail = true;
    setup({
      'dream.list': () => {
        if (fail) throw new EngineCallError('store-not-found', 'No store named "x".');
        return list();
      },
    });
    expect(await screen.findByText('No store named "x".')).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: /Try again|Retry/ }));
    expect(await screen.findByRole('region', { name: `Cycle ${CYCLE}` })).toBeTruthy();
  });

  it('runs a dry run and a real cycle, with live progress and cancel', async () => {
    let finish: (r: DreamReport) => void = () => undefined;
    const client = setup({
      'dream.run': () => new Promise<DreamReport>((resolve) => (finish = resolve)),
    });
    await screen.findByRole('region', { name: `Cycle ${CYCLE}` });
    await userEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    expect(client.callsOf('dream.run')).toEqual([{ dry_run: true, store: 'default' }]);
    act(() =>
      client.emit('dream.progressed', {
        store: 'default',
        cycle: CYCLE,
        dry_run: true,
        step: 'phase',
        phase: 'merge',
        phase_index: 6,
        phases: 9,
        done: null,
        total: null,
      }),
    );
    expect(screen.getByRole('status').textContent).toMatch(
      /Dry run in progress · Merge \(7 of 9\)/,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(client.callsOf('dream.cancel')).toEqual([{ id: CYCLE }]);
    await act(async () => finish(report({ dry_run: true, status: 'cancelled' })));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(useUiStore.getState().toasts.at(-1)?.message).toMatch(/Dry run cancelled/);

    client.handlers['dream.run'] = () => report();
    await userEvent.click(screen.getByRole('button', { name: 'Run now' }));
    expect(client.callsOf('dream.run').at(-1)).toEqual({ dry_run: false, store: 'default' });
  });

  it('lists proposals with their evidence and diff; accepts, edits then accepts, rejects, in bulk', async () => {
    const client = setup();
    await userEvent.click(await screen.findByRole('tab', { name: /Review inbox/ }));
    const item = await screen.findByRole('listitem', { name: merge.title });
    expect(within(item).getByLabelText('Changes to the existing text').textContent).toContain(
      '+ Page on-call.',
    );
    expect(within(item).getByRole('link', { name: 'Deploy billing v2' }).getAttribute('href')).toBe(
      `#/memories/${B}`,
    );

    await userEvent.click(within(item).getByRole('button', { name: 'Accept' }));
    expect(client.callsOf('review.accept')).toEqual([{ store: 'default', ids: [merge.id] }]);

    await userEvent.click(within(item).getByRole('button', { name: 'Edit then accept' }));
    const form = within(item).getByRole('form', { name: 'Edit before accepting' });
    const title = within(form).getByRole('textbox', { name: 'Title' });
    await userEvent.clear(title);
    await userEvent.type(title, 'Deploying billing');
    await userEvent.click(within(form).getByRole('button', { name: 'Save and accept' }));
    expect(client.callsOf('review.accept').at(-1)).toEqual({
      store: 'default',
      ids: [merge.id],
      edit: { title: 'Deploying billing', content: 'Deploy billing\nPage on-call.' },
    });

    const linkItem = screen.getByRole('listitem', { name: link.title });
    expect(within(linkItem).queryByRole('button', { name: 'Edit then accept' })).toBeNull();
    await userEvent.click(within(linkItem).getByRole('button', { name: 'Reject' }));
    expect(client.callsOf('review.reject')).toEqual([{ store: 'default', ids: [link.id] }]);

    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all pending' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reject selected (2)' }));
    expect(client.callsOf('review.reject').at(-1)).toEqual({
      store: 'default',
      ids: [merge.id, link.id],
    });
  });

  it('reports a refused decision in the engine’s words', async () => {
    setup({
      'review.accept': () => {
        throw new EngineCallError(
          'conflict',
          'Review item 01J was already rejected by cli; nothing was changed.',
        );
      },
    });
    await userEvent.click(await screen.findByRole('tab', { name: /Review inbox/ }));
    const item = await screen.findByRole('listitem', { name: merge.title });
    await userEvent.click(within(item).getByRole('button', { name: 'Accept' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)?.message).toMatch(/already rejected by cli/),
    );
  });
});
