import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ActivityItem, ActivitySummary } from '../../../shared/api';
import { createFakeClient, type FakeHandlers } from '../testing/fakeClient';
import { renderWithClient } from '../testing/render';
import {
  applyFilters,
  median,
  mergeNewest,
  NO_FILTERS,
  readReceived,
  summarizeClients,
} from './activity/activityModel';
import ActivityView from './ActivityView';
import { IDS } from './recall/recallFixtures';

const call = (id: number, over: Partial<ActivitySummary> = {}): ActivitySummary => ({
  id,
  at: '2026-03-01T09:00:00Z',
  actor: 'mcp:cursor',
  transport: 'http',
  tool: 'recall',
  ok: true,
  error_code: null,
  duration_ms: 10,
  ...over,
});

const FEED = [
  call(3, { tool: 'remember', duration_ms: 30 }),
  call(2, {
    actor: 'mcp:claude-code',
    transport: 'stdio',
    ok: false,
    error_code: 'invalid-args',
    duration_ms: 2,
  }),
  call(1, { duration_ms: 20 }),
];

const RECALL_ITEM: ActivityItem = {
  ...call(1, { duration_ms: 20 }),
  args: { query: 'how do we deploy', limit: 5 },
  result: {
    text: '1. [01JDEPLOY] Deploys go through ops/deploy.sh (procedural, score 0.93)\n   why: matched all 2 query terms\n\n(how: hybrid; semantic: off)',
    structured: {
      how: 'hybrid',
      abstained: false,
      semantic: 'off',
      degraded: [],
      omitted: 0,
      results: [
        {
          id: IDS.deploy,
          title: 'Deploys go through ops/deploy.sh',
          content: 'Production deploys run ops/deploy.sh.',
          tags: ['deploy'],
          kind: 'procedural',
          score: 0.93,
          why: 'matched all 2 query terms',
        },
      ],
    },
  },
};

function setup(handlers: FakeHandlers = {}, rest: string[] = []) {
  const client = createFakeClient({
    'activity.list': () => ({ items: FEED }),
    'activity.get': ({ id }) => {
      if (id === 1) return RECALL_ITEM;
      return {
        ...call(
          id,
          FEED.find((f) => f.id === id),
        ),
        args: {},
        result: { text: 'x' },
      };
    },
    ...handlers,
  });
  const view = renderWithClient(<ActivityView rest={rest} query={new URLSearchParams()} />, client);
  return { client, view };
}

const rows = () =>
  [...document.querySelectorAll<HTMLTableRowElement>('tr[data-call]')].map((r) =>
    Number(r.dataset.call),
  );

describe('ActivityView', () => {
  it('lists the calls with client, tool, duration and outcome', async () => {
    const { client } = setup();
    await screen.findByRole('link', { name: 'remember' });
    expect(rows()).toEqual([3, 2, 1]);
    expect(client.callsOf('activity.list')).toEqual([{ limit: 500 }]);
    const failed = document.querySelector('tr[data-call="2"]') as HTMLElement;
    expect(within(failed).getByText('claude-code')).toBeTruthy();
    expect(within(failed).getByText('invalid-args')).toBeTruthy();
    expect(within(failed).getByText('2.0 ms')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'remember' }).getAttribute('href')).toBe(
      '#/activity/3',
    );
  });

  it('puts live calls on top without a reload, and holds them while paused', async () => {
    const { client } = setup();
    await screen.findByRole('link', { name: 'remember' });
    act(() => client.emit('activity.recorded', call(4, { actor: 'mcp:zed', tool: 'map' })));
    expect(rows()).toEqual([4, 3, 2, 1]);
    expect(document.querySelector('tr[data-call="4"]')?.classList.contains('is-new')).toBe(true);
    expect(document.querySelector('tr[data-call="3"]')?.classList.contains('is-new')).toBe(false);
    // The same call twice (event and a later page) is shown once.
    act(() => client.emit('activity.recorded', call(4, { actor: 'mcp:zed', tool: 'map' })));
    expect(rows()).toEqual([4, 3, 2, 1]);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Pause live' }));
    act(() => client.emit('activity.recorded', call(5)));
    act(() => client.emit('activity.recorded', call(6)));
    expect(rows()).toEqual([4, 3, 2, 1]);
    expect(screen.getByRole('button', { name: /2 new calls \(paused\)/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resume live (2)' }));
    expect(rows()).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('holds new calls while the list is scrolled down, behind an "N new calls" button', async () => {
    const { client } = setup();
    await screen.findByRole('link', { name: 'remember' });
    const feed = screen.getByRole('region', { name: 'Calls, newest first' });
    feed.scrollTop = 200;
    fireEvent.scroll(feed);
    act(() => client.emit('activity.recorded', call(7)));
    expect(rows()).toEqual([3, 2, 1]);
    await userEvent.setup().click(screen.getByRole('button', { name: /1 new call — show/ }));
    expect(rows()).toEqual([7, 3, 2, 1]);
  });

  it('filters by client, tool, outcome and text, and summarises each client', async () => {
    setup();
    await screen.findByRole('link', { name: 'remember' });
    const chips = screen.getByRole('list', { name: 'Clients in the loaded calls' });
    const cursor = within(chips).getByRole('button', { name: /cursor/ });
    expect(cursor.textContent).toBe('cursor2 calls0 errorsp50 20 ms');
    expect(within(chips).getByRole('button', { name: /claude-code/ }).textContent).toContain(
      '1 error',
    );

    const user = userEvent.setup();
    await user.click(cursor);
    expect(cursor.getAttribute('aria-pressed')).toBe('true');
    expect(rows()).toEqual([3, 1]);
    await user.selectOptions(screen.getByLabelText('Tool'), 'recall');
    expect(rows()).toEqual([1]);
    expect(screen.getByText('1 of 3 calls')).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await user.selectOptions(screen.getByLabelText('Outcome'), 'error');
    expect(rows()).toEqual([2]);
    await user.selectOptions(screen.getByLabelText('Outcome'), 'all');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'remember');
    expect(rows()).toEqual([3]);
    await user.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'nothing-like-this');
    expect(screen.getByText('No calls match these filters.')).toBeTruthy();
  });

  it('opens a call: the arguments and exactly what the client received', async () => {
    const { client } = setup({}, ['1']);
    const detail = await screen.findByTestId('call-detail');
    await within(detail).findByText('Recall results');
    expect(client.callsOf('activity.get')).toEqual([{ id: 1 }]);
    expect(within(detail).getByRole('heading', { level: 2 }).textContent).toBe('recall by cursor');
    // The text exactly as the agent read it, whitespace kept.
    expect(within(detail).getByTestId('received-text').textContent).toBe(
      (RECALL_ITEM.result as { text: string }).text,
    );
    // The arguments and the structured content as trees.
    const args = within(detail).getByRole('list', { name: 'Arguments' });
    expect(args.textContent).toContain('query: “how do we deploy”');
    expect(args.textContent).toContain('limit: 5');
    const structured = within(detail).getByRole('list', { name: 'Structured content' });
    expect(structured.textContent).toContain('how: “hybrid”');
    // A recall's results, linking to the memories.
    expect(
      within(detail)
        .getByRole('link', { name: 'Deploys go through ops/deploy.sh' })
        .getAttribute('href'),
    ).toBe(`#/memories/${IDS.deploy}`);
    expect(
      within(detail).getByRole('button', { name: 'Run it in the Recall lab as cursor' }),
    ).toBeTruthy();
    // The opened row is marked in the feed.
    expect(document.querySelector('tr[data-call="1"]')?.classList.contains('is-open')).toBe(true);
    await userEvent.setup().click(within(detail).getByRole('button', { name: 'Close the call' }));
    expect(window.location.hash).toBe('#/activity');
  });

  it('opens a call by clicking its row', async () => {
    setup();
    await screen.findByRole('link', { name: 'remember' });
    await userEvent.setup().click(document.querySelector('tr[data-call="2"] td') as HTMLElement);
    expect(window.location.hash).toBe('#/activity/2');
  });

  it('shows how to connect an editor while there are no calls, then the first live one', async () => {
    const { client } = setup({ 'activity.list': () => ({ items: [] }) });
    expect(await screen.findByRole('heading', { name: 'No calls yet' })).toBeTruthy();
    expect(screen.getByText('loci setup')).toBeTruthy();
    act(() => client.emit('activity.recorded', call(1)));
    expect(rows()).toEqual([1]);
  });
});

describe('the activity model', () => {
  it('merges newest first, once each, capped', () => {
    const merged = mergeNewest([call(5), call(3)], [call(4), call(3), call(1)], 3);
    expect(merged.map((c) => c.id)).toEqual([5, 4, 3]);
  });

  it('summarises clients with a p50', () => {
    expect(median([30, 10, 20, 40])).toBe(20);
    expect(median([])).toBeNull();
    expect(summarizeClients(FEED)).toEqual([
      { actor: 'mcp:cursor', calls: 2, errors: 0, p50_ms: 20 },
      { actor: 'mcp:claude-code', calls: 1, errors: 1, p50_ms: 2 },
    ]);
    expect(applyFilters(FEED, { ...NO_FILTERS, text: 'claude invalid' }).map((c) => c.id)).toEqual([
      2,
    ]);
  });

  it('reads a payload the engine shortened', () => {
    const head = JSON.stringify({
      text: 'line one\nline "two"',
      structured: { big: 'x'.repeat(40) },
    }).slice(0, 60);
    const received = readReceived({ truncated: true, chars: 20_000, head });
    expect(received.text).toBe('line one\nline "two"');
    expect(received.shortened?.chars).toBe(20_000);
  });
});
