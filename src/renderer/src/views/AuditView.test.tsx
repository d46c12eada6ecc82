import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  AccessResult,
  AuditEntryView,
  AuditListResult,
  AuditVerifyResult,
} from '../../../shared/api';
import { EngineCallError } from '../lib/engineClient';
import { useUiStore } from '../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../testing/fakeClient';
import { renderWithClient } from '../testing/render';
import { joinExport, listArgs, NO_FILTERS } from './audit/auditModel';
import AuditView from './AuditView';

const MEM = '01JQ0000000000000000000A1A';
const hash = (n: number) => `${n.toString(16)}f`.padEnd(64, '0');
const entry = (seq: number, over: Partial<AuditEntryView> = {}): AuditEntryView => ({
  seq,
  at: `2026-03-01T09:00:${String(seq).padStart(2, '0')}.000Z`,
  actor: seq % 2 ? 'cli' : 'mcp:cursor',
  action: 'memory.create',
  target: MEM,
  data: {},
  prev_hash: hash(seq - 1),
  hash: hash(seq),
  key_id: 'k1',
  ...over,
});

function list(entries: AuditEntryView[], over: Partial<AuditListResult> = {}): AuditListResult {
  return {
    store: 'default',
    entries,
    total: entries.length,
    next_before: null,
    head: { seq: 60, hash: hash(60) },
    actors: ['cli', 'mcp:cursor'],
    actions: ['memory.create', 'memory.erase'],
    ...over,
  };
}

const PAGE1 = Array.from({ length: 50 }, (_, i) => entry(60 - i));
const PAGE2 = Array.from({ length: 10 }, (_, i) => entry(10 - i));

const verified = (over: Partial<AuditVerifyResult> = {}): AuditVerifyResult => ({
  store: 'default',
  ok: true,
  checked: 60,
  total: 60,
  head: { seq: 60, hash: hash(60) },
  first_broken: null,
  anchor_checked: null,
  anchor: null,
  anchor_text: `loci-anchor:1:default:60:${hash(60)}:k1:${hash(1)}:2026-03-01T10:00:00.000Z`,
  duration_ms: 12,
  ...over,
});

function setup(handlers: FakeHandlers = {}) {
  const client = createFakeClient({
    'audit.list': (a) =>
      a.before_seq === 11 ? list(PAGE2) : list(PAGE1, { total: 60, next_before: 11 }),
    'audit.anchor': () => ({
      store: 'default',
      anchor: null,
      anchor_text: null,
      last_verify: null,
      head: { seq: 60, hash: hash(60) },
    }),
    'audit.verify': () => verified(),
    'memory.titles': (a) => ({
      titles: a.ids
        .filter((id) => id === MEM)
        .map((id) => ({
          id,
          title: 'Billing runs on port 8081',
          kind: 'semantic' as const,
          trust: 'trusted' as const,
          deleted_at: null,
        })),
    }),
    'audit.access': () => ({
      store: 'default',
      since: '2026-02-23T00:00:00.000Z',
      groups: [],
      memories: null,
    }),
    ...handlers,
  });
  renderWithClient(<AuditView rest={[]} query={new URLSearchParams()} />, client);
  return { client, user: userEvent.setup() };
}

const seqs = () =>
  [...document.querySelectorAll('tbody tr[data-testid^="audit-row-"]')].map((r) =>
    Number(r.getAttribute('data-testid')!.slice('audit-row-'.length)),
  );

describe('AuditView', () => {
  it('shows the chain newest first, with actor, action, target and hashes', async () => {
    setup();
    await screen.findByTestId('audit-row-60');
    expect(seqs().slice(0, 3)).toEqual([60, 59, 58]);
    const row = screen.getByTestId('audit-row-60');
    expect(within(row).getByText('cursor (MCP)')).toBeTruthy();
    expect(within(row).getByText('memory.create')).toBeTruthy();
    // The target by its title, the id on hover.
    const target = await within(row).findByRole('link', { name: 'Billing runs on port 8081' });
    expect(target.getAttribute('href')).toBe(`#/memories/${MEM}`);
    expect(target.getAttribute('title')).toContain(MEM);
    expect(within(row).getByText(hash(60).slice(0, 10))).toBeTruthy();
    expect(
      screen.getByText(
        'This chain has not been verified yet. Verifying never changes the chain or your memories.',
      ),
    ).toBeTruthy();
  });

  it('opens an entry to what it records: the memory by name and the fingerprints', async () => {
    const { user } = setup();
    await screen.findByTestId('audit-row-60');
    const open = screen.getByRole('button', { name: 'Entry 60: open what it records' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    await user.click(open);
    const detail = await screen.findByTestId('audit-entry-detail-60');
    expect(within(detail).getByRole('link', { name: 'Billing runs on port 8081' })).toBeTruthy();
    expect(within(detail).getByText(`${hash(60)} (key k1)`)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Entry 60: close what it records' })).toBeTruthy();
  });

  it('pages older and newer with the cursor', async () => {
    const { client, user } = setup();
    await screen.findByTestId('audit-row-60');
    expect(screen.getByRole('button', { name: 'Newer' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await screen.findByTestId('audit-row-10');
    expect(seqs()).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(client.callsOf('audit.list').at(-1)).toMatchObject({ before_seq: 11 });
    expect(screen.getByRole('button', { name: 'Older' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Newer' }));
    await screen.findByTestId('audit-row-60');
  });

  it('filters by actor, action and time', async () => {
    const { client, user } = setup();
    await screen.findByTestId('audit-row-60');
    await user.selectOptions(screen.getByLabelText('Actor'), 'mcp:cursor');
    await user.selectOptions(screen.getByLabelText('Action'), 'memory.erase');
    await user.type(screen.getByLabelText('From'), '2026-03-01');
    expect(client.callsOf('audit.list').at(-1)).toEqual({
      store: 'default',
      limit: 50,
      actor: 'mcp:cursor',
      action: 'memory.erase',
      since: '2026-03-01T00:00:00.000Z',
    });
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(client.callsOf('audit.list').at(-1)).toEqual({ store: 'default', limit: 50 });
  });

  it('verifies with progress and shows the anchor when intact', async () => {
    let finish: (r: AuditVerifyResult) => void = () => undefined;
    const { client, user } = setup({
      'audit.verify': () => new Promise((resolve) => (finish = resolve)),
    });
    await screen.findByTestId('audit-row-60');
    await user.click(screen.getByRole('button', { name: 'Verify the chain' }));
    act(() =>
      client.emit('audit.progressed', { store: 'default', checked: 30, total: 60, done: false }),
    );
    expect(screen.getByText('30 of 60 entries (50%)')).toBeTruthy();
    expect((screen.getByLabelText('Entries verified') as HTMLProgressElement).value).toBe(30);
    await act(async () => finish(verified()));
    expect((await screen.findByTestId('audit-verdict')).textContent).toMatch(
      /Chain intact: 60 entries verified in 12 ms/,
    );
    expect(screen.getByTestId('audit-anchor').textContent).toMatch(/^loci-anchor:1:default:60:/);
  });

  it('marks the first broken entry and jumps to it', async () => {
    const { client, user } = setup({
      'audit.verify': () =>
        verified({
          ok: false,
          checked: 6,
          anchor_text: null,
          first_broken: {
            seq: 7,
            reason: 'payload-changed',
            detail: 'Entry 7 was changed after it was written.',
          },
        }),
      'audit.list': (a) =>
        a.before_seq === 8
          ? list(Array.from({ length: 7 }, (_, i) => entry(7 - i)))
          : list(PAGE1, { next_before: 11 }),
    });
    await screen.findByTestId('audit-row-60');
    await user.click(screen.getByRole('button', { name: 'Verify the chain' }));
    const verdict = await screen.findByTestId('audit-verdict');
    expect(verdict.textContent).toMatch(
      /Broken at entry 7: its content was changed after it was written/,
    );
    await user.click(within(verdict).getByRole('button', { name: 'Show entry 7' }));
    const row = await screen.findByTestId('audit-row-7');
    expect(row.className).toBe('is-broken');
    expect(within(row).getByRole('img', { name: 'First broken entry' })).toBeTruthy();
    expect(client.callsOf('audit.list').at(-1)).toMatchObject({ before_seq: 8 });
  });

  it('says when verification itself fails', async () => {
    const { user } = setup({
      'audit.verify': () => {
        throw new EngineCallError('invalid-args', 'The anchor’s signature does not match.');
      },
    });
    await screen.findByTestId('audit-row-60');
    await user.click(screen.getByRole('button', { name: 'Verify the chain' }));
    expect(await screen.findByText('The anchor’s signature does not match.')).toBeTruthy();
  });

  it('shows what each client read per day, and the memories read', async () => {
    const groups: AccessResult = {
      store: 'default',
      since: '2026-02-23T00:00:00.000Z',
      groups: [
        {
          client: 'mcp:cursor',
          day: '2026-03-01',
          reads: 40,
          memories: 37,
          methods: ['memory.recall'],
          last_at: '2026-03-01T10:00:00.000Z',
        },
      ],
      memories: null,
    };
    const { client, user } = setup({
      'audit.access': (a) =>
        a.client
          ? {
              ...groups,
              memories: [
                {
                  id: MEM,
                  title: 'Deploys go out on Tuesdays',
                  reads: 2,
                  last_at: '2026-03-01T10:00:00.000Z',
                  erased: false,
                  forgotten: false,
                },
                {
                  id: '01JQ0000000000000000000B1B',
                  title: null,
                  reads: 1,
                  last_at: '2026-03-01T09:00:00.000Z',
                  erased: true,
                  forgotten: false,
                },
              ],
            }
          : groups,
    });
    await screen.findByTestId('audit-row-60');
    await user.click(screen.getByRole('tab', { name: 'Reads by clients' }));
    await user.click(await screen.findByRole('button', { name: 'cursor (MCP)' }));
    expect(await screen.findByText('cursor (MCP) read 2 memories on 2026-03-01')).toBeTruthy();
    expect(
      screen.getByRole('link', { name: 'Deploys go out on Tuesdays' }).getAttribute('href'),
    ).toBe(`#/memories/${MEM}`);
    expect(screen.getByText('01JQ0000000000000000000B1B (erased since)')).toBeTruthy();
    expect(client.callsOf('audit.access').at(-1)).toEqual({
      store: 'default',
      client: 'mcp:cursor',
      day: '2026-03-01',
    });
    await user.selectOptions(screen.getByLabelText('Period'), '30');
    expect(client.callsOf('audit.access').at(-1)).toEqual({ store: 'default', days: 30 });
  });

  it('explains an empty chain and an empty read log', async () => {
    const { user } = setup({ 'audit.list': () => list([], { head: { seq: 0, hash: hash(0) } }) });
    expect(await screen.findByText('The chain is empty')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Reads by clients' }));
    expect(await screen.findByText('No reads by MCP clients in this period')).toBeTruthy();
  });

  it('shows an error with a retry when the chain cannot load', async () => {
    let fail = true;
    const { user } = setup({
      'audit.list': () => {
        if (fail)
          throw new EngineCallError('store-corrupt', 'Store "default" failed its integrity check.');
        return list(PAGE1);
      },
    });
    expect(await screen.findByText('Store "default" failed its integrity check.')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('audit-row-60');
  });

  it('exports every page as one JSON Lines file', async () => {
    const pages = [
      { jsonl: '{"type":"header"}\n{"seq":1}\n{"type":"anchor","n":1}\n', next_after: 1 },
      { jsonl: '{"type":"header"}\n{"seq":2}\n{"type":"anchor","n":2}\n', next_after: null },
    ];
    let i = 0;
    const { client, user } = setup({
      'audit.export': () => ({
        store: 'default',
        entries: 1,
        anchor: verified().anchor!,
        ...pages[i++]!,
      }),
    });
    await screen.findByTestId('audit-row-60');
    await user.click(screen.getByRole('button', { name: 'Export JSON Lines' }));
    await waitFor(() =>
      expect(
        useUiStore
          .getState()
          .toasts.map((t) => t.message)
          .join(),
      ).toMatch(/Exported 2 entries to loci-audit-default-|cannot save files/),
    );
    expect(client.callsOf('audit.export')).toEqual([
      { store: 'default', after_seq: 0 },
      { store: 'default', after_seq: 1 },
    ]);
  });
});

describe('audit model', () => {
  it('joins export pages into one header, every entry and the last anchor', () => {
    const page = (n: number) => ({
      store: 's',
      entries: 1,
      next_after: null,
      anchor: verified().anchor!,
      jsonl: `H${n}\nE${n}\nA${n}\n`,
    });
    expect(joinExport([page(1), page(2)])).toBe('H1\nE1\nE2\nA2\n');
  });

  it('turns an inclusive day range into since/until', () => {
    expect(
      listArgs('s', { ...NO_FILTERS, since: '2026-03-01', until: '2026-03-02' }, null),
    ).toEqual({
      store: 's',
      limit: 50,
      since: '2026-03-01T00:00:00.000Z',
      until: '2026-03-03T00:00:00.000Z',
    });
  });
});
