import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EngineCallError } from '../lib/engineClient';
import { parseRoute } from '../lib/router';
import { createFakeClient } from '../testing/fakeClient';
import { renderWithClient } from '../testing/render';
import { listFixture } from '../views/conflicts/conflictFixtures';
import { Sidebar } from './Sidebar';

describe('Sidebar', () => {
  it('links every view, and counts the open conflicts beside Conflicts, live', async () => {
    let open = 3;
    const client = createFakeClient({ 'conflict.list': () => listFixture([], open) });
    renderWithClient(<Sidebar route={parseRoute('#/conflicts')} />, client);
    const link = await screen.findByRole('link', { name: 'Conflicts 3 open' });
    expect(link.getAttribute('href')).toBe('#/conflicts');
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(client.callsOf('conflict.list')).toEqual([
      { store: 'default', state: 'open', limit: 1 },
    ]);
    open = 120;
    act(() =>
      client.emit('conflict.changed', {
        store: 'default',
        ids: ['X'],
        change: 'detected',
        actor: 'mcp:cursor',
      }),
    );
    await screen.findByRole('link', { name: 'Conflicts 99+ open' });
    open = 0;
    act(() =>
      client.emit('conflict.changed', {
        store: 'default',
        ids: ['X'],
        change: 'resolved',
        actor: 'ui',
      }),
    );
    await screen.findByRole('link', { name: 'Conflicts' });
    expect(screen.queryByTestId('conflicts-badge')).toBeNull();
  });

  it('shows no badge when the count cannot be had', async () => {
    const client = createFakeClient({
      'conflict.list': () => {
        throw new EngineCallError('unknown-method', 'No such method.');
      },
    });
    renderWithClient(<Sidebar route={parseRoute('#/overview')} />, client);
    await waitFor(() => expect(client.callsOf('conflict.list')).toHaveLength(1));
    expect(screen.getByRole('link', { name: 'Conflicts' })).toBeTruthy();
    expect(screen.queryByTestId('conflicts-badge')).toBeNull();
  });
});
