import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useConnectionStore } from '../../stores/connectionStore';
import { useUiStore } from '../../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import ConnectView from '../ConnectView';
import {
  checkFixture,
  clientsFixture,
  planFixture,
  systemInfoFixture,
  TOKEN,
} from './connectFixtures';
import { MASK } from './snippet';

function setup(handlers: FakeHandlers = {}, token: string | null = TOKEN) {
  let planToken = token ?? 'none';
  const client = createFakeClient({
    'system.info': () => systemInfoFixture(),
    'setup.plan': (args) => planFixture(args.transport ?? 'http', planToken),
    'setup.check': () => checkFixture(),
    'clients.list': () => clientsFixture(),
    'clients.tokens': () => ({ clients: [] }),
    ...handlers,
  });
  if (token) useConnectionStore.setState({ token });
  const view = renderWithClient(<ConnectView />, client);
  return { client, view, setPlanToken: (t: string) => (planToken = t) };
}

const snippet = () => screen.getByTestId('snippet').textContent ?? '';

describe('ConnectView', () => {
  it('shows the MCP URL and keeps the token hidden until revealed', async () => {
    const user = userEvent.setup();
    setup();
    expect(await screen.findByTestId('mcp-url')).toHaveProperty(
      'textContent',
      'http://127.0.0.1:4747/mcp',
    );
    const token = screen.getByTestId('token-value');
    expect(token.textContent).toBe(MASK);
    expect(document.body.textContent).not.toContain(TOKEN);
    const reveal = screen.getByRole('button', { name: 'Reveal' });
    expect(reveal.getAttribute('aria-pressed')).toBe('false');
    await user.click(reveal);
    expect(token.textContent).toBe(TOKEN);
    expect(screen.getByRole('button', { name: 'Hide' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('copies the URL and the token to the clipboard, and says so', async () => {
    const user = userEvent.setup();
    setup();
    await screen.findByTestId('mcp-url');
    await user.click(screen.getByRole('button', { name: 'Copy the MCP URL' }));
    expect(await navigator.clipboard.readText()).toBe('http://127.0.0.1:4747/mcp');
    expect(useUiStore.getState().toasts.at(-1)?.message).toBe('Copied the MCP URL.');
    expect(screen.getByRole('button', { name: 'Copied the MCP URL' })).toBeTruthy();
    // The token copies whole even while it is masked on screen.
    await user.click(screen.getByRole('button', { name: 'Copy the token' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN);
  });

  it('shows an entry per client, masked, for the installed client first', async () => {
    const user = userEvent.setup();
    setup();
    const tab = await screen.findByRole('tab', { name: /Cursor/ });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(tab.textContent).toContain('(out of date)');
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('/home/me/.cursor/mcp.json')).toBeTruthy();
    const json = snippet();
    expect(JSON.parse(json.replace(MASK, 'x'))).toEqual({
      mcpServers: {
        loci: { url: 'http://127.0.0.1:4747/mcp', headers: { Authorization: 'Bearer x' } },
      },
    });
    expect(json).not.toContain(TOKEN);
    await user.click(within(panel).getByRole('button', { name: 'Show token' }));
    expect(snippet()).toContain(`Bearer ${TOKEN}`);
    // The copy holds the real token.
    await user.click(within(panel).getByRole('button', { name: 'Copy entry the Cursor entry' }));
    expect(await navigator.clipboard.readText()).toContain(`Bearer ${TOKEN}`);

    // Arrow keys move between clients; VS Code keeps its servers under "servers".
    await user.click(tab);
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: /VS Code/ }).getAttribute('aria-selected')).toBe('true');
    expect(JSON.parse(snippet()).servers.loci.type).toBe('http');

    // stdio: the entry starts `loci mcp`.
    await user.click(screen.getByRole('radio', { name: 'stdio' }));
    expect(JSON.parse(snippet())).toEqual({
      servers: { loci: { command: '/usr/bin/node', args: ['/opt/loci/bin/loci.js', 'mcp'] } },
    });
  });

  it('says when a client takes only stdio', async () => {
    const user = userEvent.setup();
    setup();
    await user.click(await screen.findByRole('tab', { name: /Claude Desktop/ }));
    expect((screen.getByRole('radio', { name: 'HTTP' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: 'stdio' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/so it takes a stdio entry/)).toBeTruthy();
  });

  it('writes a config after showing the change, and shows where the backup went', async () => {
    const user = userEvent.setup();
    let written = false;
    const { client } = setup({
      'setup.plan': (args) =>
        planFixture(
          args.transport ?? 'http',
          TOKEN,
          written ? { cursor: { action: 'unchanged', diff: '' } } : {},
        ),
      'setup.write': (args) => {
        written = true;
        return {
          client: args.client,
          file: '/home/me/.cursor/mcp.json',
          backup: '/home/me/.cursor/mcp.json.loci-backup-2026-03-03T10-00-00-000Z',
          action: 'add',
        };
      },
    });
    await screen.findByRole('tab', { name: /Cursor/ });
    await user.click(screen.getByRole('button', { name: 'Write config' }));
    const dialog = await screen.findByRole('dialog', { name: 'Write the Loci entry for Cursor?' });
    expect(dialog.textContent).toContain('mcpServers.loci');
    expect(dialog.textContent).toContain(`Bearer ${MASK}`);
    expect(dialog.textContent).not.toContain(TOKEN);
    expect(dialog.textContent).toContain('.loci-backup-');
    expect(client.callsOf('setup.write')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Write config' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.callsOf('setup.write')).toEqual([{ client: 'cursor', transport: 'http' }]);
    const notice = await screen.findByText(/the original is kept at/);
    expect(notice.closest('[role="status"]')?.textContent).toContain(
      '/home/me/.cursor/mcp.json.loci-backup-2026-03-03T10-00-00-000Z',
    );
    // The plans and the check are read again: Cursor now holds the entry.
    await screen.findByText('This file already holds exactly this entry.');
    expect(
      (screen.getAllByRole('button', { name: 'Write config' })[0] as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(client.callsOf('setup.check').length).toBeGreaterThanOrEqual(2);
  });

  it('cancelling the confirmation writes nothing', async () => {
    const user = userEvent.setup();
    const { client } = setup({ 'setup.write': () => Promise.reject(new Error('no')) });
    await screen.findByRole('tab', { name: /Cursor/ });
    await user.click(screen.getByRole('button', { name: 'Write config' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(client.callsOf('setup.write')).toHaveLength(0);
  });

  it('refuses to write a file it cannot parse, and says why', async () => {
    setup({
      'setup.plan': (args) =>
        planFixture(args.transport ?? 'http', TOKEN, {
          cursor: {
            action: 'blocked',
            diff: '',
            problem: '/home/me/.cursor/mcp.json is not valid JSON (with comments)',
          },
        }),
    });
    await screen.findByText(/is not valid JSON/);
    const write = screen.getByRole('button', { name: 'Write config' }) as HTMLButtonElement;
    expect(write.disabled).toBe(true);
    expect(screen.getByText('Fix the file first.')).toBeTruthy();
  });

  it('lists every client with its check status and problems', async () => {
    setup();
    const table = await screen.findByTestId('check-table');
    const row = (client: string) => table.querySelector(`tr[data-client="${client}"]`);
    expect(row('cursor')?.getAttribute('data-status')).toBe('stale');
    expect(row('cursor')?.textContent).toContain('out of date');
    expect(row('cursor')?.textContent).toContain('"loci" has an old token');
    expect(row('vscode')?.textContent).toContain('connected');
    expect(row('claude-code')?.textContent).toContain('not installed');
    expect(screen.getByText(/1 connected · 1 out of date · 2 not installed/)).toBeTruthy();
  });

  it('checks again on demand', async () => {
    const user = userEvent.setup();
    const { client } = setup();
    await screen.findByTestId('check-table');
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(client.callsOf('setup.check')).toHaveLength(2));
  });

  it('rotates the token after a confirmation and switches the page to the new one', async () => {
    const user = userEvent.setup();
    const fresh = 'tok_new_ffffffffffffffffffffffffffffffff';
    const { client, setPlanToken } = setup({
      'token.rotate': () => {
        setPlanToken(fresh);
        return { token: fresh, path: '/home/me/.config/Loci/token' };
      },
    });
    window.sessionStorage.setItem('loci.token', TOKEN);
    await screen.findByTestId('token-value');
    await user.click(screen.getByRole('button', { name: 'Rotate…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the access token?' });
    expect(dialog.textContent).toContain('loci setup');
    expect(dialog.textContent).toContain('This page switches to the new token by itself.');
    expect(client.callsOf('token.rotate')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate token' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.callsOf('token.rotate')).toHaveLength(1);
    // The app's own token: the store the HTTP client reads, and this tab's storage.
    expect(useConnectionStore.getState().token).toBe(fresh);
    expect(window.sessionStorage.getItem('loci.token')).toBe(fresh);
    expect(useUiStore.getState().toasts.at(-1)?.message).toMatch(/New token in use/);
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    expect(screen.getByTestId('token-value').textContent).toBe(fresh);
    // The entries are read again, with the new token.
    await waitFor(() => expect(snippet()).toContain(fresh));
  });

  it('puts the new token back when a call sent before the rotation is refused after it', async () => {
    const user = userEvent.setup();
    const fresh = 'tok_new_0000000000000000000000000000000';
    setup({ 'token.rotate': () => ({ token: fresh, path: '/t' }) });
    await user.click(await screen.findByRole('button', { name: 'Rotate…' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Rotate token' }),
    );
    await waitFor(() => expect(useConnectionStore.getState().token).toBe(fresh));
    // A late 401 for the old token makes the connection store drop the token it holds.
    act(() => useConnectionStore.getState().unauthorized('rejected'));
    expect(useConnectionStore.getState().token).toBe(fresh);
    expect(useConnectionStore.getState().status).toBe('connecting');
  });

  it('keeps the old token when the rotation fails', async () => {
    const user = userEvent.setup();
    const { EngineCallError } = await import('../../lib/engineClient');
    setup({
      'token.rotate': () => {
        throw new EngineCallError('internal', 'The token file is read-only.');
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Rotate…' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Rotate token' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'The token file is read-only.',
    );
    expect(useConnectionStore.getState().token).toBe(TOKEN);
  });

  it('shows the connected clients with their last call, and refreshes on calls', async () => {
    let connected = false;
    const { client } = setup({ 'clients.list': () => clientsFixture(connected) });
    const empty = await screen.findByRole('note', { name: 'No clients connected' });
    expect(empty.textContent).toContain('loci setup');
    // A client seen earlier is still listed with its last call.
    expect(screen.getByText('windsurf')).toBeTruthy();
    connected = true;
    act(() =>
      client.emit('activity.recorded', {
        id: 41,
        at: new Date().toISOString(),
        actor: 'mcp:cursor',
        transport: 'http',
        tool: 'recall',
        ok: true,
        error_code: null,
        duration_ms: 14,
      }),
    );
    const table = await screen.findByTestId('sessions-table');
    const cursor = table.querySelector('tr[data-client="cursor"]');
    expect(cursor?.textContent).toContain('http');
    expect(cursor?.textContent).toContain('12');
    expect(cursor?.textContent).toContain('recall');
    expect(cursor?.textContent).toContain('14 ms');
    expect(table.querySelector('tr[data-client="claude-code"]')?.textContent).toContain('remember');
    expect(screen.queryByRole('note', { name: 'No clients connected' })).toBeNull();
  });

  it('explains stdio when the engine is not served over HTTP', async () => {
    setup({
      'system.info': () => systemInfoFixture({ url: null, port: null, token_path: null }),
    });
    expect(await screen.findByText(/Not served over HTTP/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rotate…' })).toBeNull();
    // Without a daemon on HTTP, the entries default to stdio.
    await waitFor(() =>
      expect(JSON.parse(snippet()).mcpServers.loci.command).toBe('/usr/bin/node'),
    );
  });

  it('shows the error when the endpoint cannot be read', async () => {
    const { EngineCallError } = await import('../../lib/engineClient');
    setup({
      'system.info': () => {
        throw new EngineCallError('unavailable', 'The Loci daemon does not answer.');
      },
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The Loci daemon does not answer.',
    );
  });

  it('gives a client a token of its own, shows it once, rotates and revokes it', async () => {
    const user = userEvent.setup();
    type Registered = {
      id: string;
      name: string;
      policy: {
        read_only: boolean;
        stores: string[] | null;
        ingest: boolean;
        forget: boolean;
        shared_only: boolean;
      };
      created_at: string;
      rotated_at: string | null;
      last_used_at: string | null;
      token_hint: string;
    };
    const registered: Registered[] = [];
    const { client } = setup({
      'clients.tokens': () => ({ clients: registered }),
      'clients.add': (args) => {
        const c: Registered = {
          id: 'c_1',
          name: args.name,
          policy: {
            read_only: args.read_only ?? false,
            stores: args.stores ?? null,
            ingest: !args.no_ingest,
            forget: !args.no_forget,
            shared_only: args.shared_only ?? false,
          },
          created_at: '2026-12-03T10:00:00Z',
          rotated_at: null,
          last_used_at: null,
          token_hint: 'loci_c_AbCd',
        };
        registered.push(c);
        return { client: c, token: 'loci_c_AbCdTheWholeSecretToken' };
      },
      'clients.rotate': (args) => ({
        client: registered.find((c) => c.name === args.name) as Registered,
        token: 'loci_c_RotatedSecret',
      }),
      'clients.revoke': (args) => {
        const i = registered.findIndex((c) => c.name === args.name);
        return registered.splice(i, 1)[0] as Registered;
      },
    });
    const card = (await screen.findByRole('heading', { name: /Client tokens/ })).closest(
      'section',
    ) as HTMLElement;
    expect(within(card).getByRole('note').textContent).toMatch(/No client has a token/);
    const form = within(card).getByRole('form', { name: 'Add a client token' });
    await user.type(within(form).getByLabelText('Client name'), 'Cursor!');
    expect(within(form).getByRole('alert').textContent).toMatch(/Lowercase letters/);
    expect(within(form).getByRole('button', { name: 'Add client' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.clear(within(form).getByLabelText('Client name'));
    await user.type(within(form).getByLabelText('Client name'), 'cursor');
    await user.click(within(form).getByLabelText('Read only'));
    await user.type(within(form).getByLabelText(/Stores/), 'work, team');
    await user.click(within(form).getByRole('button', { name: 'Add client' }));
    expect(client.callsOf('clients.add').at(-1)).toEqual({
      name: 'cursor',
      read_only: true,
      stores: ['work', 'team'],
    });
    const dialog = await screen.findByRole('dialog', { name: 'The token of cursor' });
    expect(within(dialog).getByTestId('new-client-token').textContent).toBe(
      'loci_c_AbCdTheWholeSecretToken',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    // Once closed, the token is nowhere on the page; the list shows the policy in words.
    expect(document.body.textContent).not.toContain('TheWholeSecretToken');
    const row = await waitFor(() => {
      const r = card.querySelector('[data-client-token="cursor"]');
      if (!r) throw new Error('no row yet');
      return r as HTMLElement;
    });
    expect(within(row).getByRole('list', { name: 'What cursor may do' }).textContent).toBe(
      'read-onlystores: work, team',
    );
    await user.click(within(row).getByRole('button', { name: 'Rotate' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Rotate the token of cursor?' })).getByRole(
        'button',
        { name: 'Rotate token' },
      ),
    );
    expect((await screen.findByTestId('new-client-token')).textContent).toBe(
      'loci_c_RotatedSecret',
    );
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke the token of cursor?' })).getByRole(
        'button',
        { name: 'Revoke token' },
      ),
    );
    expect(client.callsOf('clients.revoke')).toEqual([{ name: 'cursor' }]);
    await waitFor(() => expect(card.querySelector('[data-client-token]')).toBeNull());
  });
});
