import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListResult } from '../../../shared/api';
import { EngineCallError } from '../lib/engineClient';
import { useUiStore } from '../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../testing/fakeClient';
import { renderWithClient } from '../testing/render';
import { abstainedRecall, hybridRecall, IDS } from './recall/recallFixtures';
import RecallLabView from './RecallLabView';

const realMatchMedia = window.matchMedia;

function motion(reduce: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: reduce && query.includes('reduce'),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

const list: ListResult = {
  items: [
    {
      id: IDS.deploy,
      title: 'Deploys go through ops/deploy.sh',
      preview: 'Production deploys run ops/deploy.sh from the release branch',
      kind: 'procedural',
      tags: [],
      source: 'user',
      trust: 'trusted',
      visibility: 'shared',
      pinned: false,
      created_at: '2026-01-01T09:00:00Z',
      updated_at: '2026-01-01T09:00:00Z',
      deleted_at: null,
      version: 1,
      occurred_at: null,
      session: null,
      speaker: null,
    },
  ],
  next_cursor: null,
  total: 1,
};

function setup(handlers: FakeHandlers = {}, query = '', stores = ['default']) {
  const client = createFakeClient({
    'memory.recall': () => hybridRecall(),
    'memory.list': () => list,
    'clients.list': () => ({
      sessions: [
        {
          id: 's1',
          client: 'cursor',
          transport: 'http',
          connected_at: '2026-01-01T09:00:00Z',
          last_seen: '2026-01-01T09:00:00Z',
          calls: 3,
        },
      ],
      last_calls: [
        {
          id: 9,
          at: '2026-01-01T09:00:00Z',
          actor: 'mcp:claude-code',
          transport: 'stdio',
          tool: 'recall',
          ok: true,
          error_code: null,
          duration_ms: 4,
        },
      ],
    }),
    ...handlers,
  });
  renderWithClient(<RecallLabView rest={[]} query={new URLSearchParams(query)} />, client, {
    stores,
  });
  return client;
}

async function runQuery(text = 'deploy release') {
  const user = userEvent.setup();
  await user.type(screen.getByRole('searchbox', { name: 'Query' }), text);
  await user.click(screen.getByRole('button', { name: 'Recall' }));
  return user;
}

/** The value next to a label in a result's breakdown. */
const valueOf = (card: HTMLElement, label: string) =>
  [...card.querySelectorAll('dt')].find((dt) => dt.textContent === label)?.nextSibling?.textContent;

const caption = () => screen.getByTestId('replay-caption').textContent ?? '';

describe('RecallLabView', () => {
  beforeEach(() => motion(true));
  afterEach(() => {
    window.matchMedia = realMatchMedia;
    vi.useRealTimers();
  });

  it('explains what it is for and offers examples from the store', async () => {
    const client = setup();
    expect(
      await screen.findByRole('heading', { name: 'Ask the store what an agent would ask' }),
    ).toBeTruthy();
    const example = await screen.findByRole('button', {
      name: /Deploys go through ops\/deploy\.sh/,
    });
    expect(screen.getByRole('button', { name: /nonsense: watch it abstain/ })).toBeTruthy();
    await userEvent.setup().click(example);
    await screen.findByTestId('recall-how');
    expect(client.callsOf('memory.recall')[0]).toMatchObject({
      query: 'Deploys go through ops/deploy.sh',
      explain: true,
      rehearse: false,
      format: 'verbose',
    });
  });

  it('runs a recall and shows how, semantic, the decision and each breakdown', async () => {
    const client = setup();
    await runQuery();
    expect((await screen.findByTestId('recall-how')).textContent).toBe('hybrid');
    expect(client.callsOf('memory.recall')).toEqual([
      {
        store: 'default',
        query: 'deploy release',
        limit: 10,
        format: 'verbose',
        explain: true,
        rehearse: false,
      },
    ]);
    expect(screen.getByTestId('recall-verdict').textContent).toBe('2 results');
    expect(screen.getByTestId('recall-decision').textContent).toContain(
      "Confidence high (0.82): 100 % of the query's weight in words.",
    );
    expect(screen.getByTestId('recall-confidence').textContent).toBe('high · 0.82');
    // Degraded notes are shown as they came.
    expect(screen.getByRole('list', { name: /Degraded/ }).textContent).toContain(
      'left out to stay within max_tokens',
    );

    const results = screen.getByRole('region', { name: /^Results/ });
    const first = within(results).getByRole('link', { name: 'Deploys go through ops/deploy.sh' });
    expect(first.getAttribute('href')).toBe(`#/memories/${IDS.deploy}`);
    const card = first.closest('li') as HTMLElement;
    expect(within(card).getByText('matched all 2 query terms')).toBeTruthy();
    expect(valueOf(card, 'Vector similarity')).toBe('0.62 · rank 2');
    expect(valueOf(card, 'Lexical')).toBe('2/2 terms · rank 1 · BM25 3.20');
    expect(valueOf(card, 'Activation')).toBe('-1.20 → 0.94');
    expect(valueOf(card, 'Pinned')).toBe('yes');
    // The composition: relevance 0.75 × min(1, 0.98 + 0.04) = 0.75, plus the rest = final.
    expect(
      within(card).getByRole('img', { name: /^Final score: relevance 0\.75 \+ activation/ }),
    ).toBeTruthy();

    // Timings as a chart, the total apart.
    const timings = screen.getByRole('region', { name: 'Timings' });
    expect(within(timings).getByText('Budget').nextSibling?.nextSibling?.textContent).toBe(
      '1.10 ms',
    );
    expect(timings.textContent).toContain('embedding the query 0.30 ms');
  });

  it('steps through the trace, stage by stage, to the last one', async () => {
    setup();
    const user = await runQuery();
    await screen.findByTestId('recall-how');
    expect(caption()).toContain('Stage 1 of 9 · Recognition');
    const board = screen.getByRole('group', { name: /one column per stage/ });
    const column = (name: string) => board.querySelector(`[data-stage="${name}"]`) as HTMLElement;
    expect(column('recognise').dataset.status).toBe('current');
    expect(column('fusion').dataset.status).toBe('upcoming');
    // An upcoming stage shows no memories yet.
    expect(column('fusion').querySelectorAll('.rl-chip')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Next stage' }));
    expect(caption()).toContain('Stage 2 of 9 · Lexical');
    expect(caption()).toContain('2 terms · 2 tiers run');
    expect(column('lexical').querySelectorAll('.rl-chip')).toHaveLength(2);

    // Jump on the rail to fusion: memories from both branches, merged.
    await user.click(
      within(screen.getByRole('list', { name: 'Pipeline stages' })).getByRole('button', {
        name: 'Fusion',
      }),
    );
    expect(caption()).toContain('Stage 4 of 9 · Fusion');
    expect(column('fusion').querySelectorAll('.rl-chip')).toHaveLength(3);

    // Arrow keys on the board step too.
    fireEvent.keyDown(board, { key: 'ArrowRight' });
    expect(caption()).toContain('Stage 5 of 9 · Spreading');
    // A memory reached only over links joins here.
    expect(within(column('spreading')).getByText('linked')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Last stage' }));
    expect(caption()).toContain('Stage 9 of 9 · Budget');
    expect(caption()).toContain('max 200 tokens · 180 used · 1 left out');
    expect(column('budget').dataset.status).toBe('current');
    expect(column('budget').querySelectorAll('.rl-chip')).toHaveLength(2);
    // The diversity column's memory the budget left out is marked dropped.
    const dropped = column('diversity').querySelector(`[data-id="${IDS.rollback}"]`);
    expect(dropped?.classList.contains('is-dropped')).toBe(true);
    expect((screen.getByRole('button', { name: 'Next stage' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    await user.click(screen.getByRole('button', { name: 'First stage' }));
    expect(caption()).toContain('Stage 1 of 9');
  });

  it('with reduced motion, never plays or animates: only steps', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup();
    await runQuery();
    await screen.findByTestId('recall-how');
    expect(screen.queryByRole('button', { name: 'Play' })).toBeNull();
    expect(screen.getByText('Reduced motion: step through the stages')).toBeTruthy();
    act(() => vi.advanceTimersByTime(20_000));
    expect(caption()).toContain('Stage 1 of 9');
    fireEvent.click(screen.getByRole('button', { name: 'Next stage' }));
    expect(caption()).toContain('Stage 2 of 9');
    expect(document.querySelectorAll('.rl-chip.is-entering')).toHaveLength(0);
  });

  it('without reduced motion, plays by itself to the end, animating, and can pause', async () => {
    motion(false);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup();
    await runQuery();
    await screen.findByTestId('recall-how');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(1100));
    expect(caption()).toContain('Stage 2 of 9');
    expect(document.querySelectorAll('.rl-chip.is-entering').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    act(() => vi.advanceTimersByTime(5000));
    expect(caption()).toContain('Stage 2 of 9');
    fireEvent.change(screen.getByLabelText('Replay speed'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    for (let i = 0; i < 7; i++) act(() => vi.advanceTimersByTime(550));
    expect(caption()).toContain('Stage 9 of 9');
    expect(screen.getByRole('button', { name: 'Replay from the start' })).toBeTruthy();
  });

  it('shows an abstention with its reason, against the bar, and the near misses', async () => {
    setup({ 'memory.recall': () => abstainedRecall() });
    const user = await runQuery('zxqv blorptangle');
    expect((await screen.findByTestId('recall-verdict')).textContent).toBe('abstained');
    const decision = screen.getByTestId('recall-decision');
    expect(decision.textContent).toContain('Abstained: nothing relevant');
    expect(decision.textContent).toContain(
      'No word of the query is in any memory, and nothing is near in meaning (best similarity 0.21, under the default bar of 0.45).',
    );
    expect(
      within(decision).getByRole('img', { name: 'Best similarity 0.21, bar 0.45, floor 0.45' }),
    ).toBeTruthy();
    expect(screen.getByText('Near misses (not returned)')).toBeTruthy();
    expect(screen.getByText(/near miss: spelling similarity 0.21/)).toBeTruthy();
    // The replay ends at the abstention gate; the later stages were not reached.
    await user.click(screen.getByRole('button', { name: 'Last stage' }));
    expect(caption()).toContain('Stage 7 of 7 · Abstention');
    const board = screen.getByRole('group', { name: /one column per stage/ });
    expect(within(board).getByRole('region', { name: 'Abstention: abstained' })).toBeTruthy();
    expect(within(board).getByRole('region', { name: 'Budget: not reached' })).toBeTruthy();
  });

  it('says when older versions were hidden, also when it abstained', async () => {
    setup({ 'memory.recall': () => ({ ...abstainedRecall(), hidden_versions: 1 }) });
    await runQuery('billing port 8080');
    expect((await screen.findByRole('note')).textContent).toMatch(
      /1 older version hidden: a newer memory supersedes it/,
    );
  });

  it('marks a result that conflicts with another: which one, which holds, a link to resolve', async () => {
    const conflict = '01JCONF1C7000000000000000A';
    const other = '01JOTHERMEM0000000000000000'.slice(0, 26);
    setup({
      'memory.recall': () => {
        const r = hybridRecall();
        const [first, second] = r.results;
        return {
          ...r,
          results: [
            {
              ...first!,
              conflicts_with: [{ conflict, id: second!.id, title: 'stale', current: first!.id }],
            },
            {
              ...second!,
              conflicts_with: [
                { conflict, id: first!.id, title: 'stale', current: first!.id },
                {
                  conflict: '01JCONF1C7000000000000000B',
                  id: other,
                  title: 'The other memory',
                  current: other,
                },
              ],
            },
          ],
        };
      },
    });
    await runQuery();
    const results = await screen.findByRole('region', { name: /^Results/ });
    const [first, second] = within(results)
      .getAllByRole('listitem')
      .filter((li) => li.dataset.hit);
    const mark = within(first!).getByRole('list', { name: 'Conflicts' });
    expect(mark.textContent).toMatch(
      /Conflicts with “Database migrations run before the deploy” — current: this one/,
    );
    expect(within(mark).getByRole('link', { name: 'Resolve' }).getAttribute('href')).toBe(
      `#/conflicts/${conflict}`,
    );
    expect(
      within(mark)
        .getByRole('link', { name: '“Database migrations run before the deploy”' })
        .getAttribute('href'),
    ).toBe(`#/memories/${IDS.migrations}`);
    const marks = within(within(second!).getByRole('list', { name: 'Conflicts' })).getAllByRole(
      'listitem',
    );
    expect(marks[0]?.textContent).toMatch(/current: the other/);
    // A memory the answer does not hold is named by the title the mark carries.
    expect(marks[1]?.textContent).toMatch(/Conflicts with “The other memory”/);
  });

  it('passes the options, as_client included, and offers known clients', async () => {
    const client = setup();
    const user = userEvent.setup();
    await user.click(screen.getByText('Options'));
    const limit = screen.getByLabelText('Limit');
    await user.clear(limit);
    await user.type(limit, '5');
    await user.type(screen.getByLabelText('Max tokens'), '400');
    await user.type(screen.getByLabelText('Tags (all of them)'), 'deploy, ops');
    await user.click(screen.getByRole('checkbox', { name: 'procedural' }));
    await user.type(screen.getByLabelText('As client'), 'cursor');
    const options = [...document.querySelectorAll('datalist option')].map(
      (o) => (o as HTMLOptionElement).value,
    );
    expect(options).toEqual(['claude-code', 'cursor']);
    await user.type(screen.getByRole('searchbox', { name: 'Query' }), 'deploy');
    await user.click(screen.getByRole('button', { name: 'Recall' }));
    await screen.findByTestId('recall-how');
    expect(client.callsOf('memory.recall')[0]).toEqual({
      store: 'default',
      query: 'deploy',
      limit: 5,
      kinds: ['procedural'],
      tags: ['deploy', 'ops'],
      max_tokens: 400,
      as_client: 'cursor',
      format: 'verbose',
      explain: true,
      rehearse: false,
    });
    expect(window.location.hash).toBe('#/recall?q=deploy&as_client=cursor');
  });

  it('refuses a bad option before calling, and shows an engine error', async () => {
    const client = setup({
      'memory.recall': () => {
        throw new EngineCallError('invalid-args', 'the query is empty');
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Recall' }));
    expect(screen.getByRole('alert').textContent).toBe('Type a query first.');
    expect(client.callsOf('memory.recall')).toHaveLength(0);
    await runQuery('x');
    expect(await screen.findByText('The recall failed')).toBeTruthy();
    expect(screen.getByText(/the query is empty/)).toBeTruthy();
  });

  it('runs the query of the address on arrival and keeps recent queries', async () => {
    const client = setup({}, 'q=deploy&as_client=cursor');
    await screen.findByTestId('recall-how');
    expect(client.callsOf('memory.recall')).toHaveLength(1);
    expect(client.callsOf('memory.recall')[0]).toMatchObject({
      query: 'deploy',
      as_client: 'cursor',
    });
    const recent = screen.getByRole('navigation', { name: 'Recent queries' });
    expect(within(recent).getByRole('button', { name: /deploy/ })).toBeTruthy();
    const user = userEvent.setup();
    const input = screen.getByRole('searchbox', { name: 'Query' });
    await user.clear(input);
    await runQuery('release');
    await vi.waitFor(() => expect(client.callsOf('memory.recall')).toHaveLength(2));
    expect(within(recent).getAllByRole('listitem')).toHaveLength(2);
    await user.click(within(recent).getByRole('button', { name: /^deploy/ }));
    await vi.waitFor(() => expect(client.callsOf('memory.recall')).toHaveLength(3));
    expect(client.callsOf('memory.recall')[2]).toMatchObject({
      query: 'deploy',
      as_client: 'cursor',
    });
  });

  it('asks again in the other store when the store changes', async () => {
    const client = setup({}, 'q=deploy', ['default', 'work']);
    await screen.findByTestId('recall-how');
    act(() => useUiStore.getState().setStore('work'));
    await vi.waitFor(() => expect(client.callsOf('memory.recall')).toHaveLength(2));
    expect(client.callsOf('memory.recall')[1]).toMatchObject({ store: 'work', query: 'deploy' });
    await screen.findByTestId('recall-how');
  });
});
