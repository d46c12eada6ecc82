import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListArgs, RecallArgs } from '../../../shared/schemas';
import { Toasts } from '../components/Toasts';
import { EngineCallError } from '../lib/engineClient';
import { createFakeClient, type FakeHandlers } from '../testing/fakeClient';
import { hitFixture, recallFixture } from '../testing/fixtures';
import { renderWithClient } from '../testing/render';
import MemoriesView from './MemoriesView';
import { useMemoriesStore } from './memories/memoriesStore';
import {
  historyFixture,
  idOf,
  listHandler,
  neighborsFixture,
  summaryFixture,
  viewFixture,
} from './memories/testData';

const view = (rest: string[] = []) => (
  <>
    <MemoriesView rest={rest} query={new URLSearchParams()} />
    <Toasts />
  </>
);
const grid = () => screen.getByRole('grid');
const lastList = (client: ReturnType<typeof createFakeClient>) =>
  client.callsOf('memory.list').at(-1) as ListArgs;
const rowOf = (i: number) => document.getElementById(`mem-row-${i}`) as HTMLElement;

function client(handlers: FakeHandlers = {}) {
  return createFakeClient({
    'memory.list': listHandler(40),
    'stats.overview': () => ({
      store: 'default',
      days: 1,
      created_per_day: [],
      by_kind: {
        semantic: 0,
        episodic: 0,
        procedural: 0,
        prospective: 0,
        affective: 0,
        schematic: 0,
      },
      by_source: [
        { source: 'agent:cursor', count: 26 },
        { source: 'user', count: 14 },
      ],
      by_speaker: [
        { speaker: 'Priya', count: 12 },
        { speaker: 'Tomasz', count: 9 },
      ],
      sessions: [
        {
          session: 'core-2026-03-02',
          count: 14,
          first: '2026-03-02T09:05:00Z',
          last: '2026-03-02T09:40:00Z',
        },
      ],
      recall: { count: 0, p50_ms: null, p95_ms: null, histogram: [] },
    }),
    'memory.get': () => viewFixture(),
    'memory.history': () => historyFixture(),
    'graph.neighbors': () => neighborsFixture(),
    ...handlers,
  });
}

describe('MemoriesView', () => {
  beforeEach(() => {
    useMemoriesStore.getState().reset();
    window.location.hash = '#/memories';
  });

  it('lists the tag a link names (#/memories?tag=…), then leaves the address plain', async () => {
    const c = client();
    renderWithClient(
      <MemoriesView rest={[]} query={new URLSearchParams('tag=batch:01JB&deleted=include')} />,
      c,
    );
    await waitFor(() =>
      expect(lastList(c)).toMatchObject({ tags: ['batch:01JB'], deleted: 'include' }),
    );
    expect(useMemoriesStore.getState().filters.tags).toEqual(['batch:01JB']);
    expect(window.location.hash).toBe('#/memories');
  });

  it('turns every filter into memory.list arguments', async () => {
    const user = userEvent.setup();
    const c = client();
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    expect(lastList(c)).toEqual({
      store: 'default',
      trust: 'any',
      deleted: 'exclude',
      order: 'created',
      direction: 'desc',
      offset: 0,
      limit: 100,
    });

    await user.click(screen.getByRole('button', { name: 'procedural' }));
    await waitFor(() => expect(lastList(c).kinds).toEqual(['procedural']));
    const tag = screen.getByRole('textbox', { name: /Filter by tag/ });
    await user.type(tag, 'ops{Enter}');
    await waitFor(() => expect(lastList(c).tags).toEqual(['ops']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Source' }), 'agent:');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Trust' }), 'quarantined');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Pinned' }), 'pinned');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Forgotten' }), 'only');
    await user.click(screen.getByRole('checkbox', { name: 'At risk of fading' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'updated-desc');
    await waitFor(() =>
      expect(lastList(c)).toEqual({
        store: 'default',
        kinds: ['procedural'],
        tags: ['ops'],
        source: 'agent:',
        trust: 'quarantined',
        pinned: true,
        deleted: 'only',
        at_risk: true,
        order: 'updated',
        direction: 'desc',
        offset: 0,
        limit: 100,
      }),
    );
    // The sources this store has seen are offered too.
    expect(screen.getByRole('option', { name: /cursor \(agent\)/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear 7 filters' }));
    await waitFor(() => expect(lastList(c).kinds).toBeUndefined());
    expect(lastList(c).trust).toBe('any');
  });

  it('filters conversations by speaker, session and when things happened', async () => {
    const user = userEvent.setup();
    const c = client({
      'memory.list': listHandler(40, (i) =>
        summaryFixture(i, i === 0 ? { speaker: 'Priya', occurred_at: '2026-03-02T09:05:00Z' } : {}),
      ),
    });
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    // A turn shows who said it and when.
    expect(within(grid()).getByText(/Priya · /)).toBeTruthy();
    const group = screen.getByRole('group', { name: 'Conversations' });
    expect(group).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Speaker' }), 'Priya');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Session' }), 'core-2026-03-02');
    fireEvent.change(screen.getByLabelText('Happened from'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('to'), { target: { value: '2026-03-02' } });
    await waitFor(() =>
      expect(lastList(c)).toMatchObject({
        speaker: 'Priya',
        session: 'core-2026-03-02',
        occurred_after: '2026-03-01T00:00:00.000Z',
        // The end day is included: before the next midnight.
        occurred_before: '2026-03-03T00:00:00.000Z',
        // A session reads in the order it was said.
        order: 'occurred',
        direction: 'asc',
      }),
    );
    // An end before the start is said, and not sent.
    fireEvent.change(screen.getByLabelText('to'), { target: { value: '2026-02-01' } });
    expect((await screen.findByRole('alert')).textContent).toMatch(/start is after the end/);
    await waitFor(() => expect(lastList(c).occurred_before).toBeUndefined());
    await user.click(screen.getByRole('button', { name: 'Clear 3 filters' }));
    await waitFor(() => expect(lastList(c).speaker).toBeUndefined());
  });

  it('searches through recall, without rehearsal, and shows scores', async () => {
    const user = userEvent.setup();
    const c = client({
      'memory.recall': () =>
        recallFixture([
          hitFixture(idOf(7), 'Rolling back a release', { score: 0.91, pinned: true }),
          hitFixture(idOf(8), 'Deploys go through ops/deploy.sh', { score: 0.55 }),
        ]),
    });
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    await user.click(screen.getByRole('button', { name: 'procedural' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search memories' }), 'roll back');
    await screen.findByText('Rolling back a release');
    expect(c.callsOf('memory.recall').at(-1) as RecallArgs).toEqual({
      store: 'default',
      query: 'roll back',
      limit: 100,
      format: 'verbose',
      rehearse: false,
      kinds: ['procedural'],
      include_quarantined: true,
      // "All memories" (the default): superseded ones are searched too, as the list shows them.
      history: true,
    });
    expect(screen.getByRole('grid', { name: 'Search results for “roll back”' })).toBeTruthy();
    expect(screen.getByText('0.91')).toBeTruthy();
    expect(screen.getByTestId('memories-total').textContent).toBe('2 memories found');
    expect(screen.queryByText('Memory number 0')).toBeNull();
    // Pinned only: applied to the hits, as recall has no such argument.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Pinned' }), 'pinned');
    await waitFor(() => expect(screen.queryByText('Deploys go through ops/deploy.sh')).toBeNull());
    expect(screen.getByText('Rolling back a release')).toBeTruthy();
    // Esc in the box leaves search: the list is back.
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search memories' }), {
      key: 'Escape',
    });
    await screen.findByRole('grid', { name: 'Memories' });
  });

  it('says when a search finds nothing', async () => {
    const user = userEvent.setup();
    const c = client({ 'memory.recall': () => recallFixture([]) });
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    await user.type(screen.getByRole('searchbox', { name: 'Search memories' }), 'zebra');
    expect(await screen.findByRole('region', { name: 'Nothing found for “zebra”' })).toBeTruthy();
  });

  it('explains what to do first in an empty store, and when filters match nothing', async () => {
    const user = userEvent.setup();
    const c = client({ 'memory.list': listHandler(0) });
    renderWithClient(view(), c);
    const empty = await screen.findByRole('region', { name: 'No memories in “default” yet' });
    expect(within(empty).getByText('loci setup')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'semantic' }));
    const none = await screen.findByRole('region', { name: 'No memories match these filters' });
    await user.click(within(none).getByRole('button', { name: 'Clear the filters' }));
    await screen.findByRole('region', { name: 'No memories in “default” yet' });
  });

  it('shows an error with a retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    const c = client({
      'memory.list': (args) => {
        if (fail) throw new EngineCallError('unavailable', 'The daemon is gone.');
        return listHandler(3)(args);
      },
    });
    renderWithClient(view(), c);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The daemon is gone.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('Memory number 2');
  });

  it('a memory an agent adds appears without reload', async () => {
    let total = 40;
    const c = client({ 'memory.list': (args) => listHandler(total)(args) });
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    expect(screen.getByTestId('memories-total').textContent).toBe('40 memories');
    total = 41;
    act(() =>
      c.emit('memory.changed', {
        store: 'default',
        ids: [idOf(40)],
        change: 'created',
        actor: 'mcp:cursor',
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('memories-total').textContent).toBe('41 memories'),
    );
    // Another store's change is not ours.
    const before = c.callsOf('memory.list').length;
    act(() =>
      c.emit('memory.changed', { store: 'other', ids: ['x'], change: 'created', actor: 'cli' }),
    );
    await new Promise((r) => setTimeout(r, 400));
    expect(c.callsOf('memory.list')).toHaveLength(before);
  });

  it('keyboard: j/k move, x selects, Enter opens, Esc closes, / searches', async () => {
    const c = client();
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    // The keys move within what the list knows it holds: wait until it knows (a busy
    // machine renders the first row before the count has settled).
    await waitFor(() =>
      expect(screen.getByTestId('memories-total').textContent).toBe('40 memories'),
    );
    grid().focus();
    fireEvent.keyDown(grid(), { key: 'j' });
    fireEvent.keyDown(grid(), { key: 'j' });
    fireEvent.keyDown(grid(), { key: 'k' });
    fireEvent.keyDown(grid(), { key: 'ArrowDown' });
    expect(grid().getAttribute('aria-activedescendant')).toBe('mem-row-2');
    fireEvent.keyDown(grid(), { key: 'x' });
    expect(rowOf(2).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('toolbar', { name: 'Actions on the selected memories' })).toBeTruthy();
    fireEvent.keyDown(grid(), { key: 'Enter' });
    expect(window.location.hash).toBe(`#/memories/${idOf(2)}`);
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search memories' }));
  });

  it('with the panel open, Esc closes it and j moves it to the next memory', async () => {
    const c = client();
    window.location.hash = `#/memories/${idOf(0)}`;
    renderWithClient(view([idOf(0)]), c);
    await screen.findByRole('heading', { name: 'Deploys go through ops/deploy.sh' });
    await screen.findByText('Memory number 0');
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(window.location.hash).toBe(`#/memories/${idOf(1)}`);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(window.location.hash).toBe('#/memories');
  });

  it('clicking a row opens it; shift-click selects a range; the header selects all in view', async () => {
    const user = userEvent.setup();
    const c = client();
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    await user.click(screen.getByText('Memory number 3'));
    expect(window.location.hash).toBe(`#/memories/${idOf(3)}`);
    await user.click(screen.getByRole('checkbox', { name: 'Select “Memory number 1”' }));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('checkbox', { name: 'Select “Memory number 4”' }));
    await user.keyboard('{/Shift}');
    await waitFor(() => expect(useMemoriesStore.getState().selected.size).toBe(4));
    expect(screen.getByText('4 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select all rows in view' }));
    const inView = useMemoriesStore.getState().selected.size;
    expect(inView).toBeGreaterThan(5);
    expect(inView).toBeLessThan(20);
  });

  it('bulk: pin with versions, tag, forget with one Undo for all, erase after confirming', async () => {
    const user = userEvent.setup();
    const c = client({
      'memory.update': (args) => ({ id: args.id, version: 2, change: 'updated' }),
      'memory.tag': (args) => ({ id: args.id, version: 2, change: 'tagged' }),
      'memory.forget': (args) => ({ id: args.id, version: 1, change: 'forgotten' }),
      'memory.restore': (args) => ({ id: args.id, version: 1, change: 'restored' }),
      'memory.erase': (args) => ({ id: args.id, version: 1, change: 'erased' }),
      'memory.list': listHandler(40, (i) => summaryFixture(i, { pinned: false, version: 3 })),
    });
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    const pick = async (i: number) =>
      user.click(screen.getByRole('checkbox', { name: `Select “Memory number ${i}”` }));
    await pick(1);
    await pick(2);
    await pick(5);
    const bar = screen.getByRole('toolbar', { name: 'Actions on the selected memories' });
    expect(within(bar).getByText('3 selected')).toBeTruthy();

    await user.click(within(bar).getByRole('button', { name: 'Pin' }));
    await screen.findByText('Pinned 3 memories.');
    expect(c.callsOf('memory.update')).toEqual(
      [1, 2, 5].map((i) => ({ store: 'default', id: idOf(i), pinned: true, expected_version: 3 })),
    );

    await user.click(within(bar).getByRole('button', { name: 'Tag…' }));
    await user.type(screen.getByRole('textbox', { name: /Tags to add/ }), 'review, q3{Enter}');
    await screen.findByText('3 memories: tagged “review”, “q3”.');
    expect(c.callsOf('memory.tag')).toHaveLength(3);
    expect(c.callsOf('memory.tag')[0]).toEqual({
      store: 'default',
      id: idOf(1),
      add: ['review', 'q3'],
    });

    await user.click(within(bar).getByRole('button', { name: 'Forget' }));
    const toast = (await screen.findByText('Forgot 3 memories.')).closest('li') as HTMLElement;
    expect(c.callsOf('memory.forget')).toHaveLength(3);
    expect(useMemoriesStore.getState().selected.size).toBe(0);
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    await screen.findByText('Restored 3 memories.');
    expect(
      c
        .callsOf('memory.restore')
        .map((a) => (a as { id: string }).id)
        .sort(),
    ).toEqual([1, 2, 5].map(idOf));

    await pick(7);
    await pick(8);
    const bar2 = screen.getByRole('toolbar', { name: 'Actions on the selected memories' });
    await user.click(within(bar2).getByRole('button', { name: 'Erase…' }));
    const dialog = screen.getByRole('dialog', { name: 'Erase 2 memories for good?' });
    expect(within(dialog).getByText('Memory number 7')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Erase 2 for good' }));
    await screen.findByText('Erased 2 memories for good.');
    expect(c.callsOf('memory.erase')).toHaveLength(2);
  });

  it('bulk: promotes only the quarantined ones, after a confirmation', async () => {
    const user = userEvent.setup();
    const c = client({
      'memory.promote': (args) => ({ id: args.id, version: 2, change: 'promoted' }),
      'memory.list': listHandler(40, (i) =>
        summaryFixture(i, { trust: i % 2 ? 'quarantined' : 'trusted' }),
      ),
    });
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    for (const i of [1, 2, 3])
      await user.click(screen.getByRole('checkbox', { name: `Select “Memory number ${i}”` }));
    const bar = screen.getByRole('toolbar', { name: 'Actions on the selected memories' });
    await user.click(within(bar).getByRole('button', { name: 'Promote 2 quarantined…' }));
    const dialog = screen.getByRole('dialog', { name: 'Release 2 memories from quarantine?' });
    expect(c.callsOf('memory.promote')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Promote to trusted' }));
    await screen.findByText('2 memories are trusted now: agents can recall them.');
    expect(
      c
        .callsOf('memory.promote')
        .map((a) => (a as { id: string }).id)
        .sort(),
    ).toEqual([1, 3].map(idOf));
  });

  it('bulk: a conflict is counted and explained', async () => {
    const user = userEvent.setup();
    const c = client({
      'memory.update': (args) => {
        if (args.id === idOf(2))
          throw new EngineCallError('conflict', 'It changed.', {
            data: { id: args.id, version: 4 },
          });
        return { id: args.id, version: 2, change: 'updated' };
      },
      'memory.list': listHandler(40, (i) => summaryFixture(i, { pinned: false })),
    });
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    await user.click(screen.getByRole('checkbox', { name: 'Select “Memory number 1”' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select “Memory number 2”' }));
    await user.click(screen.getByRole('button', { name: 'Pin' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Could not pin 1 of 2: it changed since it was shown',
    );
    expect(screen.getByText('Pinned “Memory number 1”.')).toBeTruthy();
  });

  it('shows all memories, only what is true now, or what held as of a day (as_of)', async () => {
    const user = userEvent.setup();
    const c = client();
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    const which = screen.getByRole('group', { name: 'Which memories' });
    // The default lists every memory: no as_of at all.
    expect(
      within(which).getByRole('button', { name: 'All memories' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(lastList(c).as_of).toBeUndefined();

    await user.click(within(which).getByRole('button', { name: 'True now' }));
    await waitFor(() => expect(lastList(c).as_of).toBe('now'));
    expect(screen.getByRole('button', { name: 'Clear filter' })).toBeTruthy();

    await user.click(within(which).getByRole('button', { name: 'As of…' }));
    const day = screen.getByLabelText('As of the end of this day');
    fireEvent.change(day, { target: { value: '2026-02-10' } });
    // The end of that day, local time, as an instant.
    const end = new Date('2026-02-10T23:59:59.999').toISOString();
    await waitFor(() => expect(lastList(c).as_of).toBe(end));

    // A search asks recall what held then; "true now" is recall's own default.
    await user.type(screen.getByRole('searchbox', { name: 'Search memories' }), 'port');
    await waitFor(() =>
      expect(c.callsOf('memory.recall').at(-1)).toMatchObject({ query: 'port', as_of: end }),
    );
    expect((c.callsOf('memory.recall').at(-1) as RecallArgs).history).toBeUndefined();
    await user.click(within(which).getByRole('button', { name: 'True now' }));
    await waitFor(() => {
      const last = c.callsOf('memory.recall').at(-1) as RecallArgs;
      expect(last.as_of).toBeUndefined();
      expect(last.history).toBeUndefined();
    });

    await user.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(useMemoriesStore.getState().filters.asOf).toBe('all');
  });

  it('marks search results that conflict, and says how many older versions recall hid', async () => {
    const user = userEvent.setup();
    const c = client({
      'memory.recall': () => ({
        ...recallFixture([
          hitFixture(idOf(7), 'The billing service listens on port 9090', {
            conflicts_with: [
              { conflict: 'C'.repeat(26), id: idOf(8), title: 'Memory 8', current: idOf(7) },
            ],
          }),
          hitFixture(idOf(8), 'The billing service listens on port 8080', {
            conflicts_with: [
              { conflict: 'C'.repeat(26), id: idOf(7), title: 'Memory 7', current: idOf(7) },
            ],
          }),
        ]),
        hidden_versions: 2,
      }),
    });
    renderWithClient(view(), c);
    await screen.findByText('Memory number 0');
    await user.click(screen.getByRole('button', { name: 'True now' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search memories' }), 'billing port');
    await screen.findByText('The billing service listens on port 9090');
    const rows = within(grid()).getAllByRole('row');
    expect(within(rows[0]!).getByText('conflict')).toBeTruthy();
    expect(within(rows[1]!).getByText('conflict · not current')).toBeTruthy();
    expect(
      screen.getByText(/2 older versions hidden \(superseded; “All memories” shows them\)/),
    ).toBeTruthy();
  });
});
