import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ConflictView, MethodArgs } from '../../../../shared/api';
import { Toasts } from '../../components/Toasts';
import { EngineCallError } from '../../lib/engineClient';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import ConflictsView from '../ConflictsView';
import {
  C1,
  C2,
  conflictFixture,
  listFixture,
  negationFixture,
  NEWER,
  OLDER,
  supersededFixture,
} from './conflictFixtures';

function setup(handlers: FakeHandlers = {}, address = '', rest: string[] = []) {
  let open: ConflictView[] = [conflictFixture(), negationFixture()];
  let decided: ConflictView[] = [supersededFixture()];
  const client = createFakeClient({
    'conflict.list': (a) =>
      a.state === 'open'
        ? listFixture(open, open.length)
        : listFixture(
            decided.filter((c) => a.state === 'resolved' || a.state === c.state),
            open.length,
          ),
    'conflict.resolve': (a) => {
      const resolved = open
        .filter((c) => a.ids.includes(c.id))
        .map((c) => ({ ...c, state: 'superseded' as const }));
      open = open.filter((c) => !a.ids.includes(c.id));
      decided = [...resolved, ...decided];
      return { resolved };
    },
    'conflict.reopen': (a) => {
      const c = decided.find((d) => d.id === a.id) ?? conflictFixture({ id: a.id });
      decided = decided.filter((d) => d.id !== a.id);
      open = [{ ...c, state: 'open', resolution: null }, ...open];
      return open[0]!;
    },
    ...handlers,
  });
  renderWithClient(
    <>
      <ConflictsView rest={rest} query={new URLSearchParams(address)} />
      <Toasts />
    </>,
    client,
  );
  return { client };
}

const card = (id: string) =>
  document.querySelector<HTMLElement>(`[data-conflict="${id}"]`) as HTMLElement;
const lastResolve = (client: ReturnType<typeof createFakeClient>) =>
  client.callsOf('conflict.resolve').at(-1) as MethodArgs<'conflict.resolve'>;

describe('ConflictsView', () => {
  it('shows each open conflict: both memories side by side, the spans marked, which holds', async () => {
    const { client } = setup();
    await screen.findByRole('list', { name: 'Open conflicts' });
    expect(client.callsOf('conflict.list')[0]).toEqual({
      store: 'default',
      state: 'open',
      limit: 100,
    });
    expect(screen.getByRole('tab', { name: 'Open (2)' })).toBeTruthy();
    expect(screen.getByText(/2 conflicts waiting for a decision/)).toBeTruthy();

    const c = within(card(C1));
    expect(c.getByText('contradiction')).toBeTruthy();
    expect(c.getByRole('heading', { name: /8080 → 9090/ })).toBeTruthy();
    expect(c.getByText('80 %')).toBeTruthy();
    expect(c.getByText(/when the newer one was written/)).toBeTruthy();
    // Each side, with its span marked where it stands, and a link to the memory.
    const older = c.getByRole('region', { name: 'Older: Billing port 8080' });
    const newer = c.getByRole('region', { name: 'Newer: Billing port 9090' });
    expect(older.querySelector('mark')?.textContent).toBe('8080');
    expect(newer.querySelector('mark')?.textContent).toBe('9090');
    expect(
      within(older).getByRole('link', { name: 'Billing port 8080' }).getAttribute('href'),
    ).toBe(`#/memories/${OLDER}`);
    expect(within(newer).getByText(/holds now/)).toBeTruthy();
    expect(within(older).queryByText(/holds now/)).toBeNull();
    expect(within(older).getByText(/No validity given/)).toBeTruthy();
    expect(c.getByText(/The newer one holds for now/)).toBeTruthy();

    // An update; a negation that one side lacks is said to be absent there.
    const n = within(card(C2));
    expect(n.getByText('update')).toBeTruthy();
    expect(n.getByText(/by a scan of the store/)).toBeTruthy();
    const before = n.getByRole('region', { name: 'Older: Redis for sessions' });
    expect(before.querySelector('mark')).toBeNull();
    expect(within(before).getByText(/is not in this one/).textContent).toBe(
      'no longer is not in this one',
    );
    expect(
      n.getByRole('region', { name: 'Newer: Redis dropped' }).querySelector('mark')?.textContent,
    ).toBe('no longer');
  });

  it('resolves one: newer replaces older, with an Undo that reopens it', async () => {
    const user = userEvent.setup();
    const { client } = setup();
    await screen.findByRole('list', { name: 'Open conflicts' });
    await user.click(within(card(C1)).getByRole('button', { name: 'Newer replaces older' }));
    expect(lastResolve(client)).toEqual({
      store: 'default',
      ids: [C1],
      resolution: 'supersede',
    });
    await screen.findByText('Conflict resolved: one replaces the other.');
    await waitFor(() => expect(card(C1)).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(client.callsOf('conflict.reopen')).toEqual([{ store: 'default', id: C1 }]);
    await screen.findByText('Decision undone: the conflict is open again.');
    await waitFor(() => expect(card(C1)).toBeTruthy());
  });

  it('lets the older one win, from a given time, with a reason', async () => {
    const user = userEvent.setup();
    const { client } = setup();
    await screen.findByRole('list', { name: 'Open conflicts' });
    const c = within(card(C1));
    await user.click(c.getByRole('button', { name: 'Options…' }));
    await user.click(c.getByRole('radio', { name: /The older one/ }));
    const when = c.getByLabelText(/The newer one stopped holding at/);
    await user.type(when, '2026-03-05T10:30');
    await user.type(c.getByRole('textbox', { name: /Why/ }), 'the new port was a typo');
    await user.click(c.getByRole('button', { name: 'Older replaces newer' }));
    expect(lastResolve(client)).toEqual({
      store: 'default',
      ids: [C1],
      resolution: 'supersede',
      winner: OLDER,
      at: new Date('2026-03-05T10:30').toISOString(),
      reason: 'the new port was a typo',
    });
  });

  it('keeps both in their contexts, after checking the labels', async () => {
    const user = userEvent.setup();
    const { client } = setup();
    await screen.findByRole('list', { name: 'Open conflicts' });
    const c = within(card(C1));
    await user.click(c.getByRole('button', { name: 'Both true (in different contexts)' }));
    const form = within(c.getByRole('form', { name: 'Both true, in different contexts' }));
    await user.click(form.getByRole('button', { name: 'Keep both in these contexts' }));
    expect(form.getAllByText('Say in which context it holds.')).toHaveLength(2);
    expect(client.callsOf('conflict.resolve')).toHaveLength(0);
    await user.type(form.getByRole('textbox', { name: /Billing port 8080.* holds in/ }), 'staging');
    await user.type(
      form.getByRole('textbox', { name: /Billing port 9090.* holds in/ }),
      'production',
    );
    await user.click(form.getByRole('button', { name: 'Keep both in these contexts' }));
    expect(lastResolve(client)).toEqual({
      store: 'default',
      ids: [C1],
      resolution: 'scope',
      contexts: { older: 'staging', newer: 'production' },
    });
  });

  it('dismisses, and shows the engine’s error in a toast', async () => {
    const user = userEvent.setup();
    const { client } = setup({
      'conflict.resolve': () => {
        throw new EngineCallError('conflict', 'It was decided meanwhile by mcp:cursor.');
      },
    });
    await screen.findByRole('list', { name: 'Open conflicts' });
    await user.click(within(card(C2)).getByRole('button', { name: 'Not a conflict' }));
    expect(lastResolve(client)).toEqual({ store: 'default', ids: [C2], resolution: 'dismiss' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Could not resolve: It was decided meanwhile by mcp:cursor.',
    );
  });

  it('bulk: selects all and resolves them in one call', async () => {
    const user = userEvent.setup();
    const { client } = setup();
    await screen.findByRole('list', { name: 'Open conflicts' });
    expect(screen.getByRole('button', { name: 'Newer replaces older (0)' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(screen.getByRole('checkbox', { name: /Select the conflict between “Redis/ }));
    expect(screen.getByRole('button', { name: 'Not a conflict (1)' })).toHaveProperty(
      'disabled',
      false,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Select all (2)' }));
    await user.click(screen.getByRole('button', { name: 'Not a conflict (2)' }));
    expect(lastResolve(client)).toEqual({
      store: 'default',
      ids: expect.arrayContaining([C1, C2]) as unknown as string[],
      resolution: 'dismiss',
    });
    expect(lastResolve(client).ids).toHaveLength(2);
    await screen.findByText('2 conflicts resolved: not a conflict.');
    await screen.findByRole('region', { name: 'Nothing contradicts anything' });
  });

  it('lists decisions with who, when and what, and undoes one', async () => {
    const user = userEvent.setup();
    const { client } = setup();
    await screen.findByRole('list', { name: 'Open conflicts' });
    await user.click(screen.getByRole('tab', { name: 'Resolved' }));
    await screen.findByRole('list', { name: 'Decided conflicts' });
    expect(client.callsOf('conflict.list').at(-1)).toMatchObject({ state: 'resolved' });
    const c = within(card(C1));
    const decision = c.getByTestId('conflict-decision');
    expect(decision.textContent).toMatch(/superseded/);
    expect(decision.textContent).toMatch(/“Billing port 9090” replaces “Billing port 8080”/);
    expect(decision.textContent).toMatch(/Decided by ui/);
    expect(c.queryByRole('button', { name: 'Newer replaces older' })).toBeNull();
    expect(c.getByText('replaced')).toBeTruthy();
    // One kind of decision only.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'dismissed');
    await waitFor(() =>
      expect(client.callsOf('conflict.list').at(-1)).toMatchObject({ state: 'dismissed' }),
    );
    await screen.findByRole('region', { name: 'No decision here yet' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'superseded');
    await screen.findByRole('list', { name: 'Decided conflicts' });
    await user.click(within(card(C1)).getByRole('button', { name: 'Undo' }));
    expect(client.callsOf('conflict.reopen')).toEqual([{ store: 'default', id: C1 }]);
    await screen.findByText('Decision undone: the conflict is open again.');
  });

  it('refreshes on conflict.changed for its store, not for another', async () => {
    const { client } = setup();
    await screen.findByRole('list', { name: 'Open conflicts' });
    const calls = () => client.callsOf('conflict.list').length;
    const before = calls();
    act(() =>
      client.emit('conflict.changed', {
        store: 'elsewhere',
        ids: [C1],
        change: 'detected',
        actor: 'mcp:cursor',
      }),
    );
    await new Promise((r) => setTimeout(r, 400));
    expect(calls()).toBe(before);
    client.handlers['conflict.list'] = () =>
      listFixture([conflictFixture(), negationFixture(), conflictFixture({ id: 'C'.repeat(26) })]);
    act(() =>
      client.emit('conflict.changed', {
        store: 'default',
        ids: ['C'.repeat(26)],
        change: 'detected',
        actor: 'mcp:cursor',
      }),
    );
    await screen.findByRole('tab', { name: 'Open (3)' });
  });

  it('scans the store with a live progress bar, then says what it found', async () => {
    const user = userEvent.setup();
    let finish: (v: { examined: number; found: number; ms: number }) => void = () => undefined;
    const { client } = setup({
      'conflict.scan': () =>
        new Promise((resolve) => {
          finish = resolve;
        }),
    });
    await screen.findByRole('list', { name: 'Open conflicts' });
    await user.click(screen.getByRole('button', { name: 'Scan the store' }));
    expect(client.callsOf('conflict.scan')).toEqual([{ store: 'default' }]);
    act(() =>
      client.emit('conflict.progressed', {
        store: 'default',
        done: 30,
        total: 120,
        found: 1,
        finished: false,
      }),
    );
    const region = await screen.findByRole('region', {
      name: 'Scanning the store for contradictions',
    });
    expect(within(region).getByRole('status').textContent).toMatch(
      /30 of 120 memories compared · 1 new conflict so far/,
    );
    const bar = within(region).getByRole('progressbar');
    expect(bar.getAttribute('value')).toBe('30');
    expect(bar.getAttribute('max')).toBe('120');
    await act(async () => finish({ examined: 120, found: 1, ms: 900 }));
    await screen.findByText('Scan done: 120 memories compared, 1 new conflict found (0.9 s).');
    expect(
      screen.queryByRole('region', { name: 'Scanning the store for contradictions' }),
    ).toBeNull();
  });

  it('says what it is for when nothing is open', async () => {
    const user = userEvent.setup();
    const { client } = setup({
      'conflict.list': () => listFixture([]),
      'conflict.scan': () => ({ examined: 40, found: 0, ms: 20 }),
    });
    const empty = await screen.findByRole('region', { name: 'Nothing contradicts anything' });
    expect(empty.textContent).toMatch(
      /the newer replaces the older, both hold in different contexts/,
    );
    await user.click(within(empty).getByRole('button', { name: 'Scan the store' }));
    expect(client.callsOf('conflict.scan')).toHaveLength(1);
    await screen.findByText(/no new conflict found/);
  });

  it('shows a load error with a retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    setup({
      'conflict.list': () => {
        if (fail) throw new EngineCallError('unavailable', 'The daemon is restarting.');
        return listFixture([conflictFixture()]);
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Could not load the conflicts/);
    expect(alert.textContent).toMatch(/The daemon is restarting/);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('list', { name: 'Open conflicts' });
  });

  it('points at the conflict a link names, and filters by memory', async () => {
    const { client } = setup({}, `memory=${NEWER}`, [C2]);
    await screen.findByRole('list', { name: 'Open conflicts' });
    expect(client.callsOf('conflict.list')[0]).toMatchObject({ memory: NEWER });
    expect(card(C2).className).toContain('is-target');
    expect(card(C1).className).not.toContain('is-target');
    expect(screen.getByText(/Only the conflicts of/)).toBeTruthy();
  });

  it('opens the resolved tab from the address, and says when the target is not there', async () => {
    setup({}, 'tab=resolved', ['01JNOTHERE0000000000000000']);
    await screen.findByRole('list', { name: 'Decided conflicts' });
    expect(screen.getByRole('tab', { name: 'Resolved' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(screen.getByRole('note').textContent).toMatch(/not among these/);
  });
});
