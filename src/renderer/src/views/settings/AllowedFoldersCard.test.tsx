import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EngineCallError } from '../../lib/engineClient';
import { useUiStore } from '../../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import { AllowedFoldersCard, folderProblem } from './AllowedFoldersCard';

function setup(initial: string[] = [], handlers: FakeHandlers = {}) {
  let folders = initial;
  const client = createFakeClient({
    'ingest.folders': () => ({ folders }),
    'ingest.setFolders': (args) => {
      folders = args.folders;
      return { folders };
    },
    ...handlers,
  });
  renderWithClient(<AllowedFoldersCard />, client);
  return client;
}

describe('Settings: allowed folders for agents', () => {
  it('says what the list is for, and that it is empty', async () => {
    setup();
    const card = screen.getByRole('region', { name: 'Allowed folders for agents' });
    expect(card.textContent).toContain(
      'The MCP tool ingest_file may read files only inside these folders',
    );
    expect(await screen.findByTestId('allowed-folders-empty')).toBeTruthy();
  });

  it('adds an absolute folder, refusing a relative one first', async () => {
    const user = userEvent.setup();
    const client = setup(['/home/me/notes']);
    await screen.findByTestId('allowed-folders');
    const field = screen.getByLabelText('Folder to allow');
    await user.type(field, 'notes{Enter}');
    expect(screen.getByText(/Give an absolute path/)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(client.callsOf('ingest.setFolders')).toEqual([]);
    await user.clear(field);
    await user.type(field, '/home/me/notes{Enter}');
    expect(screen.getByText('This folder is allowed already.')).toBeTruthy();
    await user.clear(field);
    await user.type(field, '/srv/docs{Enter}');
    await waitFor(() =>
      expect(client.callsOf('ingest.setFolders')).toEqual([
        { folders: ['/home/me/notes', '/srv/docs'] },
      ]),
    );
    const list = screen.getByTestId('allowed-folders');
    await within(list).findByText('/srv/docs');
    expect((field as HTMLInputElement).value).toBe('');
    expect(useUiStore.getState().toasts.at(-1)?.message).toBe(
      'Agents may now import files from /srv/docs.',
    );
  });

  it('removes a folder', async () => {
    const user = userEvent.setup();
    const client = setup(['/a', '/b']);
    await screen.findByTestId('allowed-folders');
    await user.click(screen.getByRole('button', { name: 'Remove /a' }));
    await waitFor(() => expect(client.callsOf('ingest.setFolders')).toEqual([{ folders: ['/b'] }]));
    await waitFor(() => expect(screen.queryByText('/a')).toBeNull());
  });

  it('shows the engine’s refusal', async () => {
    const user = userEvent.setup();
    setup([], {
      'ingest.setFolders': () => {
        throw new EngineCallError('invalid-args', 'The folder /nope does not exist.');
      },
    });
    await screen.findByTestId('allowed-folders-empty');
    await user.type(screen.getByLabelText('Folder to allow'), '/nope{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not change the allowed folders');
    expect(alert.textContent).toContain('The folder /nope does not exist.');
  });

  it('knows absolute paths on every platform', () => {
    expect(folderProblem('C:\\Users\\me', [])).toBeNull();
    expect(folderProblem('\\\\server\\share', [])).toBeNull();
    expect(folderProblem('~/notes', [])).toMatch(/absolute/);
  });
});
