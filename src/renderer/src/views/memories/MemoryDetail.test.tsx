import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemoryView } from '../../../../shared/api';
import { Toasts } from '../../components/Toasts';
import { EngineCallError } from '../../lib/engineClient';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { hitFixture, recallFixture } from '../../testing/fixtures';
import { renderWithClient } from '../../testing/render';
import { useMemoriesStore } from './memoriesStore';
import { MemoryDetail } from './MemoryDetail';
import { C1, C2, conflictFixture } from '../conflicts/conflictFixtures';
import { historyFixture, idOf, neighborsFixture, viewFixture } from './testData';

const ID = idOf(1);

function setup(
  handlers: FakeHandlers = {},
  memory: Partial<MemoryView> = {},
  onShowSession?: (session: string) => void,
) {
  let current = viewFixture(memory);
  const client = createFakeClient({
    'memory.get': () => current,
    'memory.history': () => historyFixture(),
    'graph.neighbors': () => neighborsFixture(),
    ...handlers,
  });
  const onClose = vi.fn();
  const onFilterTag = vi.fn();
  renderWithClient(
    <>
      <MemoryDetail
        id={ID}
        onClose={onClose}
        onFilterTag={onFilterTag}
        {...(onShowSession ? { onShowSession } : {})}
      />
      <Toasts />
    </>,
    client,
  );
  const set = (patch: Partial<MemoryView>) => {
    current = { ...current, ...patch };
  };
  return { client, onClose, onFilterTag, set };
}

const panel = () => screen.getByTestId('memory-detail');
const heading = () => screen.findByRole('heading', { name: 'Deploys go through ops/deploy.sh' });

describe('MemoryDetail', () => {
  beforeEach(() => useMemoriesStore.getState().reset());

  it('shows the content, tags, links, versions, strength, use and provenance', async () => {
    const { client } = setup();
    await heading();
    expect(screen.getByTestId('memory-content').textContent).toBe(
      'Production deploys run ops/deploy.sh from the release branch.',
    );
    expect(client.callsOf('memory.get')).toEqual([
      { store: 'default', id: ID, include_deleted: true },
    ]);
    // Tags, the linked memory's title from graph.neighbors, the earlier version.
    expect(screen.getByRole('button', { name: 'Remove the tag “deploy”' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Rolling back a release' })).toBeTruthy();
    expect(screen.getByText('→ related to')).toBeTruthy();
    const versions = screen.getByRole('list', { name: 'Versions, newest first' });
    expect(within(versions).getByText('v2')).toBeTruthy();
    expect(within(versions).getByRole('button', { name: /v1/ })).toBeTruthy();
    // Strength and use.
    expect(panel().querySelector('[data-field="retrievability"]')?.textContent).toBe('87%');
    expect(panel().querySelector('[data-field="activation"]')?.textContent).toBe('1.25');
    expect(panel().querySelector('[data-field="access-count"]')?.textContent).toMatch(/^3 times/);
    // Provenance and evidence.
    expect(screen.getByText('cursor (agent)')).toBeTruthy();
    expect(screen.getByText('The user said deploys use the script.')).toBeTruthy();
    expect(screen.getByText('USER')).toBeTruthy();
  });

  it('shows the titles a merge kept as aliases', async () => {
    setup({}, { aliases: ['Deploy script for ops', 'How we deploy'] });
    await heading();
    expect(screen.getByText('Also known as')).toBeTruthy();
    expect(screen.getByText('Deploy script for ops · How we deploy')).toBeTruthy();
  });

  it('reloads when an event names this memory, not for others', async () => {
    const { client, set } = setup();
    await heading();
    set({ title: 'Deploys use the new pipeline', version: 3 });
    act(() =>
      client.emit('memory.changed', {
        store: 'default',
        ids: [idOf(99)],
        change: 'created',
        actor: 'mcp:cursor',
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(client.callsOf('memory.get')).toHaveLength(1);
    act(() =>
      client.emit('memory.changed', {
        store: 'default',
        ids: [ID],
        change: 'updated',
        actor: 'mcp:cursor',
      }),
    );
    await screen.findByRole('heading', { name: 'Deploys use the new pipeline' });
  });

  it('shows who said it, when and in which session; opens the session; edits the speaker', async () => {
    const user = userEvent.setup();
    const onShowSession = vi.fn();
    const { client } = setup(
      { 'memory.update': (args) => ({ id: args.id, version: 3, change: 'updated' }) },
      { speaker: 'Priya', session: 'core-2026-03-02', occurred_at: '2026-03-02T09:05:00Z' },
      onShowSession,
    );
    await heading();
    const provenance = screen.getByRole('region', { name: 'Provenance' });
    expect(within(provenance).getByText('Priya')).toBeTruthy();
    expect(within(provenance).getByText('core-2026-03-02')).toBeTruthy();
    expect(provenance.querySelector('time')?.getAttribute('dateTime')).toBe('2026-03-02T09:05:00Z');
    await user.click(within(provenance).getByRole('button', { name: 'Show the whole session' }));
    expect(onShowSession).toHaveBeenCalledWith('core-2026-03-02');
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const said = screen.getByRole('textbox', { name: 'Said by' });
    await user.clear(said);
    await user.type(said, 'Priya S.');
    await user.clear(screen.getByRole('textbox', { name: 'Session' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // Only what changed is sent: an emptied session is cleared (null), the time untouched.
    expect(client.callsOf('memory.update')[0]).toEqual({
      store: 'default',
      id: ID,
      speaker: 'Priya S.',
      session: null,
      expected_version: 2,
    });
  });

  it('edits with the version it started from, and handles a conflict', async () => {
    const user = userEvent.setup();
    let conflicts = 1;
    const { client, set } = setup({
      'memory.update': (args) => {
        if (conflicts-- > 0) {
          set({ version: 3, content: 'An agent rewrote this meanwhile.' });
          throw new EngineCallError('conflict', 'It changed since you read it.', {
            data: { id: args.id, version: 3 },
          });
        }
        return { id: args.id, version: 4, change: 'updated' };
      },
    });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const text = screen.getByRole('textbox', { name: /Text/ });
    await user.clear(text);
    await user.type(text, 'Deploys run through the new pipeline now.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(client.callsOf('memory.update')[0]).toEqual({
      store: 'default',
      id: ID,
      content: 'Deploys run through the new pipeline now.',
      expected_version: 2,
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('It changed while you were editing.');
    expect(alert.textContent).toContain('version 3');
    // The draft survived the reload.
    expect((screen.getByRole('textbox', { name: /Text/ }) as HTMLTextAreaElement).value).toBe(
      'Deploys run through the new pipeline now.',
    );
    await waitFor(() => expect(client.callsOf('memory.get').length).toBeGreaterThan(1));
    await user.click(screen.getByRole('button', { name: 'Save over the newer version' }));
    await screen.findByText('Saved as version 4.');
    expect(client.callsOf('memory.update')[1]).toMatchObject({ expected_version: 3 });
    expect(screen.queryByRole('textbox', { name: /Text/ })).toBeNull();
  });

  it('refuses text with nothing visible in it before sending it', async () => {
    const user = userEvent.setup();
    const { client } = setup({
      'memory.update': () => ({ id: ID, version: 3, change: 'updated' }),
    });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const text = screen.getByRole('textbox', { name: /Text/ });
    await user.clear(text);
    await user.type(text, '   ');
    expect(screen.getByText('The text cannot be empty.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect(client.callsOf('memory.update')).toHaveLength(0);
  });

  it('forget shows a toast whose Undo restores it', async () => {
    const user = userEvent.setup();
    const { client } = setup({
      'memory.forget': () => ({ id: ID, version: 2, change: 'forgotten' }),
      'memory.restore': () => ({ id: ID, version: 2, change: 'restored' }),
    });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Forget' }));
    const toast = (await screen.findByText('Forgot “Deploys go through ops/deploy.sh”.')).closest(
      'li',
    ) as HTMLElement;
    expect(client.callsOf('memory.forget')).toEqual([{ store: 'default', id: ID }]);
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    await screen.findByText('Restored “Deploys go through ops/deploy.sh”.');
    expect(client.callsOf('memory.restore')).toEqual([{ store: 'default', id: ID }]);
  });

  it('a forgotten memory offers Restore instead of edits', async () => {
    const user = userEvent.setup();
    const { client } = setup(
      { 'memory.restore': () => ({ id: ID, version: 2, change: 'restored' }) },
      { deleted_at: '2026-01-05T09:00:00Z' },
    );
    await heading();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: /Add tags/ })).toBeNull();
    expect(screen.getByText(/hidden from recall and from agents/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(client.callsOf('memory.restore')).toEqual([{ store: 'default', id: ID }]);
    // Neighbours are not asked for a forgotten memory (the engine would refuse).
    expect(client.callsOf('graph.neighbors')).toHaveLength(0);
  });

  it('erase asks first, naming the memory; Cancel erases nothing', async () => {
    const user = userEvent.setup();
    const { client, onClose } = setup({
      'memory.erase': () => ({ id: ID, version: 2, change: 'erased' }),
    });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Erase…' }));
    let dialog = screen.getByRole('dialog', {
      name: 'Erase “Deploys go through ops/deploy.sh” for good?',
    });
    expect(within(dialog).getByText('This cannot be undone.')).toBeTruthy();
    // Cancel has the focus: Enter alone never erases.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(client.callsOf('memory.erase')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Erase…' }));
    dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Erase for good' }));
    await screen.findByText('Erased “Deploys go through ops/deploy.sh” for good.');
    expect(client.callsOf('memory.erase')).toEqual([{ store: 'default', id: ID }]);
    expect(onClose).toHaveBeenCalled();
  });

  it('diffs an earlier version against the current one and restores it (undoably)', async () => {
    const user = userEvent.setup();
    const { client } = setup({
      'memory.revert': (args) => ({ id: args.id, version: 3, change: 'updated' }),
    });
    await heading();
    const diff = await screen.findByTestId('version-diff');
    const removed = [...diff.querySelectorAll('del')].map((d) => d.textContent);
    const added = [...diff.querySelectorAll('ins')].map((d) => d.textContent);
    expect(removed.join(' ')).toContain('old script');
    expect(added.join(' ')).toContain('ops/deploy.sh');
    expect(added.some((a) => a?.includes('ops'))).toBe(true);
    // Line mode.
    await user.click(screen.getByRole('button', { name: 'Lines' }));
    expect(screen.getByTestId('version-diff').querySelector('.mem-diff-lines')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Restore version 1' }));
    const toast = (await screen.findByText('Restored version 1 as version 3.')).closest(
      'li',
    ) as HTMLElement;
    expect(client.callsOf('memory.revert')).toEqual([
      { store: 'default', id: ID, version: 1, expected_version: 2 },
    ]);
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(client.callsOf('memory.revert')[1]).toEqual({
        store: 'default',
        id: ID,
        version: 2,
        expected_version: 3,
      }),
    );
  });

  it('tags: adds several, removes one, and filters the list by one', async () => {
    const user = userEvent.setup();
    const { client, onFilterTag } = setup({
      'memory.tag': () => ({ id: ID, version: 3, change: 'tagged' }),
    });
    await heading();
    await user.type(screen.getByRole('textbox', { name: /Add tags/ }), 'infra, release{Enter}');
    await waitFor(() =>
      expect(client.callsOf('memory.tag')[0]).toEqual({
        store: 'default',
        id: ID,
        add: ['infra', 'release'],
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Remove the tag “ops”' }));
    await waitFor(() =>
      expect(client.callsOf('memory.tag')[1]).toEqual({
        store: 'default',
        id: ID,
        remove: ['ops'],
      }),
    );
    await user.click(screen.getByRole('button', { name: 'deploy' }));
    expect(onFilterTag).toHaveBeenCalledWith('deploy');
  });

  it('links: picks a memory by search and creates the link; removes one with Undo', async () => {
    const user = userEvent.setup();
    const { client } = setup({
      'memory.recall': () =>
        recallFixture([hitFixture(ID, 'itself'), hitFixture(idOf(9), 'Paging the on-call')]),
      'link.create': (args) => ({
        from: args.from,
        to: args.to,
        type: args.type ?? 'related',
        weight: args.weight ?? 0.5,
        change: 'created',
      }),
      'link.remove': (args) => ({
        from: args.from,
        to: args.to,
        type: args.type ?? 'related',
        weight: 0.6,
        change: 'removed',
        count: 1,
      }),
    });
    await heading();
    await user.click(screen.getByRole('button', { name: 'Add link…' }));
    const dialog = screen.getByRole('dialog', { name: 'Link to another memory' });
    await user.type(within(dialog).getByRole('combobox', { name: 'Find a memory' }), 'on-call');
    const option = await within(dialog).findByRole('option', { name: /Paging the on-call/ });
    // The memory itself is never offered.
    expect(within(dialog).queryByRole('option', { name: /itself/ })).toBeNull();
    expect(client.callsOf('memory.recall').at(-1)).toMatchObject({ rehearse: false });
    await user.click(option);
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'supports');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await screen.findByText('Linked to “Paging the on-call”.');
    expect(client.callsOf('link.create')[0]).toEqual({
      store: 'default',
      from: ID,
      to: idOf(9),
      type: 'supports',
      weight: 0.5,
    });

    await user.click(
      screen.getByRole('button', { name: 'Remove the link to “Rolling back a release”' }),
    );
    const toast = (await screen.findByText('Link removed.')).closest('li') as HTMLElement;
    expect(client.callsOf('link.remove')[0]).toEqual({
      store: 'default',
      from: ID,
      to: idOf(2),
      type: 'related',
    });
    await user.click(within(toast).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(client.callsOf('link.create')[1]).toEqual({
        store: 'default',
        from: ID,
        to: idOf(2),
        type: 'related',
        weight: 0.6,
      }),
    );
  });

  it('promote explains quarantine and asks before releasing it', async () => {
    const user = userEvent.setup();
    const { client } = setup(
      { 'memory.promote': () => ({ id: ID, version: 3, change: 'promoted' }) },
      { trust: 'quarantined', quarantine_reasons: ['github-token'] },
    );
    await heading();
    expect(screen.getAllByText(/github-token/).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Promote…' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Release “Deploys go through ops/deploy.sh” from quarantine?',
    });
    expect(within(dialog).getByText(/every agent connected to this store can/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Promote to trusted' }));
    await screen.findByText(/is trusted now: agents can recall it/);
    expect(client.callsOf('memory.promote')).toEqual([{ store: 'default', id: ID }]);
  });

  it('says so when the memory is not there', async () => {
    const client = createFakeClient({
      'memory.get': () => {
        throw new EngineCallError('not-found', 'No memory with that id.');
      },
      'memory.history': () => {
        throw new EngineCallError('not-found', 'No memory with that id.');
      },
    });
    const onClose = vi.fn();
    renderWithClient(
      <MemoryDetail id={ID} onClose={onClose} onFilterTag={() => undefined} />,
      client,
    );
    const empty = await screen.findByRole('region', { name: 'This memory is not here' });
    await userEvent.setup().click(within(empty).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('history: says it no longer holds, what replaced it, its conflicts and its timeline', async () => {
    const other = idOf(2);
    const conflict = conflictFixture({
      id: C1,
      older: { ...conflictFixture().older, id: ID, title: 'Deploys go through ops/deploy.sh' },
      newer: { ...conflictFixture().newer, id: other, title: 'Deploys go through the pipeline' },
      current: other,
      state: 'superseded',
      resolution: {
        kind: 'supersede',
        winner: other,
        at: '2026-01-05T09:00:00.000Z',
        by: 'ui',
        decided_at: '2026-01-05T10:00:00.000Z',
      },
    });
    const open = conflictFixture({
      id: C2,
      older: { ...conflictFixture().older, id: ID },
      newer: { ...conflictFixture().newer, id: idOf(3), title: 'Port 9090' },
      current: idOf(3),
    });
    setup({
      'memory.history': () =>
        historyFixture({
          current: false,
          valid_to: '2026-01-05T09:00:00.000Z',
          superseded_by: [
            { id: other, title: 'Deploys go through the pipeline', at: '2026-01-05T10:00:00.000Z' },
          ],
          conflicts: [conflict, open],
          timeline: [
            { at: '2026-01-01T09:00:00Z', kind: 'created', text: 'written' },
            {
              at: '2026-01-02T09:00:00Z',
              kind: 'edited',
              text: 'version 2 (by mcp:cursor)',
              version: 2,
            },
            {
              at: '2026-01-04T09:00:00Z',
              kind: 'conflict',
              text: 'seems to contradict “Deploys go through the pipeline”',
              ref: C1,
            },
            { at: '2026-01-05T09:00:00Z', kind: 'valid-to', text: 'stopped holding' },
            {
              at: '2026-01-05T10:00:00Z',
              kind: 'superseded',
              text: 'replaced by “Deploys go through the pipeline”',
              ref: other,
            },
            {
              at: '2026-01-05T10:00:00Z',
              kind: 'resolved',
              text: 'decided by ui: one replaces the other',
              ref: C1,
            },
          ],
        }),
    });
    await heading();
    const history = await screen.findByRole('region', { name: 'History' });
    const holds = within(history).getByTestId('memory-holds');
    expect(holds.textContent).toMatch(/no longer holds/);
    expect(holds.textContent).toMatch(/Held until/);
    expect(
      within(history)
        .getAllByRole('link', { name: 'Deploys go through the pipeline' })[0]
        ?.getAttribute('href'),
    ).toBe(`#/memories/${other}`);
    expect(within(history).getByText('Superseded by')).toBeTruthy();

    // Its conflicts, each with its state; the open one links to resolving it.
    const conflicts = within(history).getByRole('list', { name: 'Conflicts it took part in' });
    const items = within(conflicts).getAllByRole('listitem');
    expect(items[0]?.textContent).toMatch(/superseded/);
    expect(
      within(items[0]!)
        .getByRole('link', { name: /See the decision/ })
        .getAttribute('href'),
    ).toBe(`#/conflicts/${C1}?tab=resolved`);
    expect(items[1]?.textContent).toMatch(/open/);
    expect(
      within(items[1]!)
        .getByRole('link', { name: /Resolve/ })
        .getAttribute('href'),
    ).toBe(`#/conflicts/${C2}`);

    // The timeline: each kind named, refs linking to the memory or the conflict.
    const timeline = within(history).getByRole('list', { name: 'History, oldest first' });
    const events = within(timeline).getAllByRole('listitem');
    expect(events.map((e) => e.getAttribute('data-kind'))).toEqual([
      'created',
      'edited',
      'conflict',
      'valid-to',
      'superseded',
      'resolved',
    ]);
    expect(events[4]?.textContent).toMatch(
      /^.*Superseded replaced by “Deploys go through the pipeline”/,
    );
    expect(within(events[4]!).getByRole('link', { name: 'open it' }).getAttribute('href')).toBe(
      `#/memories/${other}`,
    );
    expect(
      within(events[2]!).getByRole('link', { name: 'see the conflict' }).getAttribute('href'),
    ).toBe(`#/conflicts/${C1}?tab=resolved`);
    expect(events[3]?.textContent).toMatch(/Stopped holding/);
    // The kind says it all: "Written", not "Written written".
    expect(events[0]?.querySelector('.mem-tl-text')).toBeNull();
    expect(events[0]?.textContent?.trim()).toMatch(/Written$/);
    // The versions are still there, below, as before.
    expect(within(history).getByRole('list', { name: 'Versions, newest first' })).toBeTruthy();
  });

  it('history: an edit on the timeline opens its diff in the versions', async () => {
    const user = userEvent.setup();
    setup(
      {
        'memory.history': () =>
          historyFixture({
            versions: [
              {
                version: 2,
                title: 'Deploys go through ops/deploy.sh',
                content: 'Production deploys run the script from main.',
                kind: 'procedural',
                tags: ['deploy'],
                changed_at: '2026-01-02T12:00:00Z',
                actor: 'ui',
              },
              ...historyFixture().versions,
            ],
            timeline: [
              { at: '2026-01-01T09:00:00Z', kind: 'created', text: 'written' },
              {
                at: '2026-01-02T09:00:00Z',
                kind: 'edited',
                text: 'version 2 (by mcp:cursor)',
                version: 2,
              },
              { at: '2026-01-02T12:00:00Z', kind: 'edited', text: 'version 3 (by ui)', version: 3 },
            ],
          }),
      },
      { version: 3 },
    );
    await heading();
    const history = await screen.findByRole('region', { name: 'History' });
    expect(within(history).getByTestId('memory-holds').textContent).toMatch(/holds now/);
    // The newest earlier version is compared by default …
    expect(screen.getByText(/Changes from/).textContent).toMatch(/v2 to v3/);
    // … and an edit of the timeline picks the version it replaced.
    await user.click(
      within(history).getByRole('button', { name: 'compare v1 with the current text' }),
    );
    expect(screen.getByText(/Changes from/).textContent).toMatch(/v1 to v3/);
  });

  it('history: says when its validity ended, with nothing replacing it', async () => {
    setup({
      'memory.history': () =>
        historyFixture({
          current: false,
          valid_from: '2025-01-01T00:00:00.000Z',
          valid_to: '2026-01-05T09:00:00.000Z',
        }),
    });
    await heading();
    const holds = await screen.findByTestId('memory-holds');
    expect(holds.textContent).toMatch(/no longer holds/);
    expect(holds.textContent).toMatch(/Its validity ended .*2026/);
    expect(holds.textContent).toMatch(/Held from .* until /);
  });

  it('history: follows a decision on one of its conflicts, not on others', async () => {
    let state: 'open' | 'dismissed' = 'open';
    const conflict = () =>
      conflictFixture({
        id: C1,
        older: { ...conflictFixture().older, id: ID },
        state,
        ...(state === 'dismissed'
          ? {
              current: null,
              resolution: {
                kind: 'dismiss' as const,
                by: 'mcp:cursor',
                decided_at: '2026-01-05T10:00:00.000Z',
              },
            }
          : {}),
      });
    const { client } = setup({
      'memory.history': () => historyFixture({ conflicts: [conflict()] }),
    });
    await heading();
    const list = await screen.findByRole('list', { name: 'Conflicts it took part in' });
    expect(within(list).getByRole('link', { name: /Resolve/ })).toBeTruthy();
    const calls = () => client.callsOf('memory.history').length;
    const before = calls();
    act(() =>
      client.emit('conflict.changed', {
        store: 'default',
        ids: [C2],
        change: 'resolved',
        actor: 'ui',
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(calls()).toBe(before);
    state = 'dismissed';
    act(() =>
      client.emit('conflict.changed', {
        store: 'default',
        ids: [C1],
        change: 'resolved',
        actor: 'mcp:cursor',
      }),
    );
    await within(list).findByRole('link', { name: /See the decision/ });
    expect(list.textContent).toMatch(/not a conflict/);
  });
});
