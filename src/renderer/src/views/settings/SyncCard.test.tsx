import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  SyncDeviceView,
  SyncRunResult,
  SyncStatusResult,
  SyncStoreStatus,
} from '../../../../shared/api';
import { EngineCallError } from '../../lib/engineClient';
import { useUiStore } from '../../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import { formatMs, HUB_PLACEHOLDER, hubUrlProblem, skewText, SyncCard } from './SyncCard';

const DEVICE = { id: 'dev-laptop', name: 'laptop' };
const MEMORY = '01JAAAAAAAAAAAAAAAAAAAAAAA';

function syncing(overrides: Partial<SyncStoreStatus> = {}): SyncStoreStatus {
  const now = Date.now();
  return {
    store: 'default',
    transport: 'hub',
    target: 'postgres://me@db.example:5432/loci?sslmode=verify-full',
    state: 'idle',
    connected_at: new Date(now - 3_600_000).toISOString(),
    last_push_at: new Date(now - 5 * 60_000).toISOString(),
    last_pull_at: new Date(now - 2 * 60_000).toISOString(),
    pending: 3,
    pushed: 120,
    pulled: 45,
    lag_ms: { p50: 850, p95: 4_200, samples: 31 },
    secret: 'keychain',
    error: null,
    next_retry_at: null,
    problems: [],
    clock_ahead_ms: 0,
    merges: [],
    ...overrides,
  };
}

const devices = (): SyncDeviceView[] => [
  {
    id: DEVICE.id,
    name: DEVICE.name,
    this_device: true,
    last_seen: new Date().toISOString(),
    last_push: new Date(Date.now() - 5 * 60_000).toISOString(),
    ops: 1_234,
    clock_skew_ms: 40,
    version: '1.4.0',
  },
  {
    id: 'dev-desktop',
    name: 'desktop',
    this_device: false,
    last_seen: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    last_push: null,
    ops: 7,
    clock_skew_ms: 150_000,
    version: null,
  },
];

function setup(
  initial: SyncStoreStatus | null,
  handlers: FakeHandlers = {},
  { store = 'default', stores = ['default'] }: { store?: string; stores?: string[] } = {},
) {
  let current = initial;
  const status = (): SyncStatusResult => ({ device: DEVICE, stores: current ? [current] : [] });
  const client = createFakeClient({
    'sync.status': status,
    'sync.connect': (args) => {
      current = syncing({
        store: args.store ?? 'default',
        transport: args.url ? 'hub' : 'folder',
        target: args.url ?? args.folder ?? '',
        secret: args.password ? 'keychain' : 'none',
        last_push_at: null,
        last_pull_at: null,
        lag_ms: null,
        pending: 0,
        pushed: 0,
        pulled: 0,
      });
      return current;
    },
    'sync.devices': (args) => ({ store: args.store ?? 'default', devices: devices() }),
    'sync.now': (args): SyncRunResult => ({
      store: args.store ?? 'default',
      pushed: 3,
      pulled: 5,
      applied: 4,
      problems: [],
      duration_ms: 120,
    }),
    'sync.leave': (args) => {
      current = null;
      return { store: args.store ?? 'default', left: true };
    },
    'memory.titles': ({ ids }) => ({
      titles: ids.map((id) => ({
        id,
        title: 'Deploy with blue-green',
        kind: 'procedural' as const,
        trust: 'trusted' as const,
        deleted_at: null,
      })),
    }),
    ...handlers,
  });
  renderWithClient(<SyncCard />, client, { stores });
  if (store !== 'default') act(() => useUiStore.getState().setStore(store));
  return {
    client,
    set(next: SyncStoreStatus | null) {
      current = next;
    },
  };
}

const card = () => screen.getByRole('region', { name: 'Sync' });

describe('Settings: sync, when the store does not sync', () => {
  it('explains what syncing shares and connects to a hub with the password apart', async () => {
    const user = userEvent.setup();
    const { client } = setup(null);
    const form = await screen.findByRole('form', { name: 'Connect the store to sync' });
    expect(card().textContent).toContain('PostgreSQL team hub');
    expect(card().textContent).toContain('Syncthing, Dropbox, iCloud Drive or git');
    expect(card().textContent).toContain(
      'Private and quarantined memories never leave this device.',
    );
    expect(card().textContent).toContain('laptop');
    expect(within(form).getByRole('radio', { name: 'A team hub (PostgreSQL)' })).toHaveProperty(
      'checked',
      true,
    );
    const url = within(form).getByLabelText('Hub URL');
    expect(url.getAttribute('placeholder')).toBe(HUB_PLACEHOLDER);
    const password = within(form).getByLabelText(/^Password/);
    expect(password.getAttribute('type')).toBe('password');
    expect(card().textContent).toContain('Kept in the OS keychain or a file only you can read');

    const connect = within(form).getByRole('button', { name: 'Connect' });
    expect(connect).toHaveProperty('disabled', true);
    await user.type(url, 'mysql://nope');
    await user.click(connect);
    expect(within(form).getByText(/A hub URL starts with postgres:\/\//)).toBeTruthy();
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(client.callsOf('sync.connect')).toEqual([]);

    await user.clear(url);
    await user.type(url, 'postgres://me@db.example:5432/loci');
    await user.type(password, 's3cret');
    await user.click(connect);
    await waitFor(() =>
      expect(client.callsOf('sync.connect')).toEqual([
        { store: 'default', url: 'postgres://me@db.example:5432/loci', password: 's3cret' },
      ]),
    );
    await within(card()).findByTestId('sync-status');
    expect(within(card()).getByTestId('sync-state').textContent).toBe('in step');
    expect(useUiStore.getState().toasts.at(-1)?.message).toBe(
      'The store “default” now syncs with postgres://me@db.example:5432/loci.',
    );
  });

  it('connects a folder of the store shown', async () => {
    const user = userEvent.setup();
    const { client } = setup(null, {}, { store: 'work', stores: ['default', 'work'] });
    const form = await screen.findByRole('form', { name: 'Connect the store to sync' });
    expect(card().textContent).toContain('The store “work” does not sync.');
    await user.click(within(form).getByRole('radio', { name: 'A synced folder' }));
    expect(within(form).queryByLabelText('Hub URL')).toBeNull();
    const folder = within(form).getByLabelText('Folder');
    await user.type(folder, 'Sync/loci{Enter}');
    expect(within(form).getByText(/Give an absolute path/)).toBeTruthy();
    await user.clear(folder);
    await user.type(folder, '/home/me/Sync/loci{Enter}');
    await waitFor(() =>
      expect(client.callsOf('sync.connect')).toEqual([
        { store: 'work', folder: '/home/me/Sync/loci' },
      ]),
    );
    await within(card()).findByTestId('sync-status');
    expect(within(card()).getByTestId('sync-target').textContent).toBe('/home/me/Sync/loci');
    expect(card().textContent).toContain('Synced folder');
    // A folder needs no password: no row for one.
    expect(card().querySelector('[data-stat="sync.secret"]')).toBeNull();
  });

  it('shows progress, then the engine’s error, keeping what was typed', async () => {
    const user = userEvent.setup();
    let fail!: (err: Error) => void;
    setup(null, {
      'sync.connect': () =>
        new Promise((_, reject) => {
          fail = reject;
        }),
    });
    const form = await screen.findByRole('form', { name: 'Connect the store to sync' });
    const url = within(form).getByLabelText('Hub URL');
    await user.type(url, 'postgres://me@nowhere:5432/loci');
    await user.type(within(form).getByLabelText(/^Password/), 'pw');
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    const busy = await within(form).findByRole('button', { name: 'Connecting…' });
    expect(busy).toHaveProperty('disabled', true);
    await act(async () =>
      fail(
        new EngineCallError(
          'unavailable',
          'Could not reach the hub at nowhere:5432 (getaddrinfo ENOTFOUND nowhere).',
        ),
      ),
    );
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Could not connect');
    expect(alert.textContent).toContain('Could not reach the hub at nowhere:5432');
    expect((url as HTMLInputElement).value).toBe('postgres://me@nowhere:5432/loci');
    expect((within(form).getByLabelText(/^Password/) as HTMLInputElement).value).toBe('pw');
    expect(within(form).getByRole('button', { name: 'Connect' })).toHaveProperty('disabled', false);
    // Typing again clears the old error.
    await user.type(url, '0');
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('says when the status cannot be loaded, and tries again', async () => {
    const user = userEvent.setup();
    let fails = true;
    setup(null, {
      'sync.status': () => {
        if (fails) throw new EngineCallError('internal', 'The sync settings are unreadable.');
        return { device: DEVICE, stores: [] };
      },
    });
    const alert = await within(card()).findByRole('alert');
    expect(alert.textContent).toContain('Could not load the sync status');
    expect(alert.textContent).toContain('The sync settings are unreadable.');
    fails = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('form', { name: 'Connect the store to sync' });
  });
});

describe('Settings: sync, when the store syncs', () => {
  it('shows where to, the state, push and pull, what waits, the lag and the password', async () => {
    const status = syncing();
    setup(status);
    const pairs = await within(card()).findByTestId('sync-status');
    expect(within(card()).getByTestId('sync-state').textContent).toBe('in step');
    expect(within(card()).getByTestId('sync-target').textContent).toBe(status.target);
    expect(card().textContent).toContain('PostgreSQL hub');
    const stat = (name: string) => pairs.querySelector(`[data-stat="${name}"]`) as HTMLElement;
    expect(stat('sync.pending').textContent).toBe('3 operations');
    expect(stat('sync.moved').textContent).toBe('120 sent · 45 received');
    expect(stat('sync.lag').textContent).toBe('p50 850 ms · p95 4.2 s (31 recent changes)');
    expect(stat('sync.secret').textContent).toBe('in the OS keychain');
    const push = stat('sync.last_push').querySelector('time') as HTMLElement;
    expect(push.getAttribute('dateTime')).toBe(status.last_push_at);
    expect(push.textContent).toMatch(/5 min/);
    expect(stat('sync.last_pull').textContent).toMatch(/2 min/);
    expect(within(card()).queryByTestId('sync-error')).toBeNull();
    expect(within(card()).queryByTestId('sync-clock')).toBeNull();
  });

  it('says when nothing was pushed or pulled yet, and leaves out a lag not measured', async () => {
    setup(syncing({ last_push_at: null, last_pull_at: null, lag_ms: null, pending: 1 }));
    const pairs = await within(card()).findByTestId('sync-status');
    expect(pairs.querySelector('[data-stat="sync.last_push"]')?.textContent).toBe('not yet');
    expect(pairs.querySelector('[data-stat="sync.last_pull"]')?.textContent).toBe('not yet');
    expect(pairs.querySelector('[data-stat="sync.pending"]')?.textContent).toBe('1 operation');
    expect(pairs.querySelector('[data-stat="sync.lag"]')).toBeNull();
  });

  it('shows the error with its fix and the next try, the skipped problems and the merges', async () => {
    const retry = new Date(Date.now() + 30_000).toISOString();
    setup(
      syncing({
        state: 'error',
        error: {
          message: 'The hub refused the role loci_me: password authentication failed.',
          fix: 'Check the credentials and the role’s membership (docs/sync.md, Roles).',
          at: new Date().toISOString(),
        },
        next_retry_at: retry,
        problems: [
          {
            where: 'segments/dev-desktop/000042.jsonl:17',
            message: 'A line is not valid JSON.',
            fix: 'Let the folder finish syncing; the line is read again on the next pull.',
            at: new Date().toISOString(),
          },
        ],
        merges: [{ id: MEMORY, fields: ['title', 'content'], at: new Date().toISOString() }],
      }),
    );
    const error = await within(card()).findByTestId('sync-error');
    expect(within(card()).getByTestId('sync-state').textContent).toBe('error');
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain('The last sync failed');
    expect(error.textContent).toContain('password authentication failed');
    expect(error.textContent).toContain('Fix: Check the credentials');
    const next = within(error).getByTestId('sync-next-retry').querySelector('time') as HTMLElement;
    expect(next.getAttribute('title')).toBe(retry);
    expect(next.getAttribute('dateTime')).toBe(retry);

    const problems = within(card()).getByTestId('sync-problems');
    expect(problems.textContent).toContain('segments/dev-desktop/000042.jsonl:17');
    expect(problems.textContent).toContain('A line is not valid JSON.');
    expect(problems.textContent).toContain('Fix: Let the folder finish syncing');
    expect(card().textContent).toContain('Skipped (1)');

    const merges = within(card()).getByTestId('sync-merges');
    expect(card().textContent).toContain(
      'Changed on two devices; the later clock kept, the other is a version.',
    );
    expect(merges.textContent).toContain('fields title, content');
    const link = await within(merges).findByRole('link', { name: 'Deploy with blue-green' });
    expect(link.getAttribute('href')).toBe(`#/memories/${MEMORY}`);
  });

  it('warns when another device’s clock pushed this one over a minute ahead', async () => {
    setup(syncing({ clock_ahead_ms: 5 * 60_000 }));
    const warning = await within(card()).findByTestId('sync-clock');
    expect(warning.textContent).toContain('Clock:');
    expect(warning.textContent).toContain('5 min ahead');
  });

  it('does not warn about a clock less than a minute ahead', async () => {
    setup(syncing({ clock_ahead_ms: 30_000 }));
    await within(card()).findByTestId('sync-status');
    expect(within(card()).queryByTestId('sync-clock')).toBeNull();
  });

  it('lists the devices, marking this one', async () => {
    const { client } = setup(syncing());
    const table = await within(card()).findByTestId('sync-devices');
    expect(client.callsOf('sync.devices')).toEqual([{ store: 'default' }]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const [mine, other] = rows as [HTMLElement, HTMLElement];
    expect(mine.getAttribute('aria-current')).toBe('true');
    expect(mine.textContent).toContain('laptop');
    expect(mine.textContent).toContain('this device');
    expect(mine.textContent).toContain('1,234');
    expect(mine.textContent).toContain('in step');
    expect(mine.textContent).toContain('1.4.0');
    expect(other.textContent).toContain('desktop');
    expect(other.textContent).not.toContain('this device');
    expect(other.textContent).toContain('never');
    expect(other.textContent).toContain('3 min fast');
    expect(other.textContent).toContain('unknown');
  });

  it('shows the devices’ own error and tries again', async () => {
    const user = userEvent.setup();
    let fails = true;
    setup(syncing(), {
      'sync.devices': (args) => {
        if (fails) throw new EngineCallError('unavailable', 'The hub did not answer in 10 s.');
        return { store: args.store ?? 'default', devices: devices() };
      },
    });
    await within(card()).findByTestId('sync-status');
    const alert = await within(card()).findByRole('alert');
    expect(alert.textContent).toContain('Could not list the devices');
    expect(alert.textContent).toContain('The hub did not answer in 10 s.');
    fails = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await within(card()).findByTestId('sync-devices');
  });

  it('syncs now and shows what moved', async () => {
    const user = userEvent.setup();
    const { client } = setup(syncing());
    await within(card()).findByTestId('sync-status');
    await user.click(within(card()).getByRole('button', { name: 'Sync now' }));
    await waitFor(() =>
      expect(within(card()).getByTestId('sync-run').textContent).toBe(
        'Synced in 120 ms: sent 3, received 5, applied 4.',
      ),
    );
    expect(client.callsOf('sync.now')).toEqual([{ store: 'default' }]);
    expect(within(card()).getByTestId('sync-run').getAttribute('role')).toBe('status');
  });

  it('shows why syncing now failed', async () => {
    const user = userEvent.setup();
    setup(syncing(), {
      'sync.now': () => {
        throw new EngineCallError('unavailable', 'The folder /mnt/usb/loci is not mounted.');
      },
    });
    await within(card()).findByTestId('sync-devices');
    await user.click(within(card()).getByRole('button', { name: 'Sync now' }));
    const alert = await within(card()).findByRole('alert');
    expect(alert.textContent).toContain('Could not sync now');
    expect(alert.textContent).toContain('/mnt/usb/loci is not mounted');
  });

  it('leaves only after a confirmation', async () => {
    const user = userEvent.setup();
    const { client } = setup(syncing({ pending: 2 }));
    await within(card()).findByTestId('sync-status');
    await user.click(within(card()).getByRole('button', { name: 'Leave the hub…' }));
    let dialog = await screen.findByRole('dialog', { name: 'Stop syncing “default”?' });
    expect(dialog.textContent).toContain('Its memories stay here');
    expect(dialog.textContent).toContain('The kept password is removed.');
    expect(dialog.textContent).toContain('2 operations were not sent yet');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.callsOf('sync.leave')).toEqual([]);

    await user.click(within(card()).getByRole('button', { name: 'Leave the hub…' }));
    dialog = await screen.findByRole('dialog', { name: 'Stop syncing “default”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(client.callsOf('sync.leave')).toEqual([{ store: 'default' }]));
    await screen.findByRole('form', { name: 'Connect the store to sync' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useUiStore.getState().toasts.at(-1)?.message).toBe(
      'The store “default” no longer syncs; its memories stay here.',
    );
  });

  it('keeps the dialog open with the error when leaving fails', async () => {
    const user = userEvent.setup();
    setup(syncing(), {
      'sync.leave': () => {
        throw new EngineCallError('internal', 'The sync settings could not be written.');
      },
    });
    await within(card()).findByTestId('sync-status');
    await user.click(within(card()).getByRole('button', { name: 'Leave the hub…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop syncing “default”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Could not leave');
    expect(alert.textContent).toContain('could not be written');
  });

  it('refreshes on sync.changed: a cycle, a failure, leaving elsewhere', async () => {
    const { client, set } = setup(syncing({ pending: 3 }));
    await within(card()).findByTestId('sync-status');
    const pending = () =>
      within(card()).getByTestId('sync-status').querySelector('[data-stat="sync.pending"]');
    await within(card()).findByTestId('sync-devices');
    const before = client.callsOf('sync.status').length;
    const devicesBefore = client.callsOf('sync.devices').length;

    set(syncing({ pending: 0, pushed: 123 }));
    act(() => client.emit('sync.changed', { store: 'default', state: 'idle' }));
    await waitFor(() => expect(pending()?.textContent).toBe('0 operations'));
    expect(client.callsOf('sync.status').length).toBe(before + 1);
    await waitFor(() =>
      expect(client.callsOf('sync.devices').length).toBeGreaterThan(devicesBefore),
    );

    set(
      syncing({
        state: 'error',
        error: {
          message: 'The hub went away.',
          fix: 'Loci retries.',
          at: new Date().toISOString(),
        },
      }),
    );
    act(() => client.emit('sync.changed', { store: 'default', state: 'error' }));
    await within(card()).findByTestId('sync-error');
    expect(within(card()).getByTestId('sync-state').textContent).toBe('error');

    // `loci sync leave` from a terminal: the card goes back to the form.
    set(null);
    act(() => client.emit('sync.changed', { store: 'default', state: 'left' }));
    await screen.findByRole('form', { name: 'Connect the store to sync' });
  });
});

describe('Settings: sync helpers', () => {
  it('formats durations and clock skews', () => {
    expect(formatMs(850)).toBe('850 ms');
    expect(formatMs(4_200)).toBe('4.2 s');
    expect(formatMs(42_000)).toBe('42 s');
    expect(formatMs(300_000)).toBe('5 min');
    expect(formatMs(7_200_000)).toBe('2 h');
    expect(formatMs(5_400_000)).toBe('1.5 h');
    expect(skewText(null)).toBe('not measured');
    expect(skewText(300)).toBe('in step');
    expect(skewText(-90_000)).toBe('2 min slow');
  });

  it('knows a hub URL', () => {
    expect(hubUrlProblem('postgres://u@h/loci')).toBeNull();
    expect(hubUrlProblem('postgresql://u@h:5432/loci?sslmode=require')).toBeNull();
    expect(hubUrlProblem('http://h')).toMatch(/starts with postgres:\/\//);
    expect(hubUrlProblem('')).toMatch(/Type/);
  });
});
