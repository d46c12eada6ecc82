import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EngineCallError } from '../lib/engineClient';
import { takeTokenFromLocation } from '../lib/token';
import { useConnectionStore } from '../stores/connectionStore';
import { useUiStore } from '../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../testing/fakeClient';
import { statsFixture, storeListFixture } from '../testing/fixtures';
import { App } from './App';

const TOKEN = 'dGhpcy1pcy1hLWxvY2ktdG9rZW4tZm9yLWEtdGVzdA';
const refused = () =>
  new EngineCallError(
    'forbidden',
    'Missing or wrong bearer token. Find it with `loci token show`.',
    {
      status: 401,
    },
  );

function engine(handlers: FakeHandlers = {}) {
  return createFakeClient({
    'store.list': () => storeListFixture(['default', 'work']),
    'stats.get': (args) => ({ ...statsFixture(), store: args.store ?? 'default' }),
    ...handlers,
  });
}

describe('App: connecting', () => {
  it('opens on the token from the address: keeps it, cleans the address, shows the Overview', async () => {
    window.history.replaceState(null, '', `/#token=${TOKEN}`);
    // What main.tsx does before rendering.
    useConnectionStore.getState().setToken(takeTokenFromLocation(window));
    const client = engine();
    render(<App client={client} />);
    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 })).toBeTruthy();
    expect(window.location.href).not.toContain(TOKEN);
    expect(window.sessionStorage.getItem('loci.token')).toBe(TOKEN);
    await waitFor(() => expect(window.location.hash).toBe('#/overview'));
    expect(screen.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(client.state).toBe('open');
    expect(document.title).toBe('Overview · Loci');
  });

  it('without a token, explains how to get one and connects with a pasted one', async () => {
    const user = userEvent.setup();
    const client = engine();
    render(<App client={client} />);
    expect(await screen.findByRole('heading', { name: 'Connect to Loci' })).toBeTruthy();
    expect(screen.getByText('loci serve')).toBeTruthy();
    expect(screen.getByText('loci token show')).toBeTruthy();
    expect(client.calls).toEqual([]);
    await user.type(screen.getByLabelText('Access token'), `http://127.0.0.1:4747/#token=${TOKEN}`);
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 })).toBeTruthy();
    expect(useConnectionStore.getState().token).toBe(TOKEN);
    expect(window.sessionStorage.getItem('loci.token')).toBe(TOKEN);
  });

  it('says so when the daemon refuses the token, and forgets it', async () => {
    useConnectionStore.getState().setToken('stale-token-from-yesterday');
    render(<App client={engine({ 'store.list': () => Promise.reject(refused()) })} />);
    expect(await screen.findByRole('heading', { name: 'Connect to Loci' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(/refused this page's token/);
    expect(window.sessionStorage.getItem('loci.token')).toBeNull();
  });

  it('returns to the connect screen when the token stops working mid-session', async () => {
    useConnectionStore.getState().setToken(TOKEN);
    const client = engine();
    render(<App client={client} />);
    await screen.findByRole('heading', { name: 'Overview', level: 1 });
    act(() => client.setState('unauthorized'));
    expect(await screen.findByRole('heading', { name: 'Connect to Loci' })).toBeTruthy();
  });

  it('refuses input that cannot be a token', async () => {
    const user = userEvent.setup();
    render(<App client={engine()} />);
    await user.type(await screen.findByLabelText('Access token'), 'not a token');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(screen.getByLabelText('Access token').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/That is not a token/)).toBeTruthy();
  });

  it('shows the offline screen while the daemon does not answer, then connects', async () => {
    const user = userEvent.setup();
    useConnectionStore.getState().setToken(TOKEN);
    let up = false;
    const client = engine({
      'store.list': () => {
        if (!up)
          throw new EngineCallError('unavailable', 'The Loci daemon does not answer.', {
            offline: true,
          });
        return storeListFixture();
      },
    });
    render(<App client={client} />);
    expect(await screen.findByRole('heading', { name: 'Loci is not answering' })).toBeTruthy();
    up = true;
    await user.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 })).toBeTruthy();
  });

  it('marks a dropped stream as reconnecting and reloads the view when it is back', async () => {
    useConnectionStore.getState().setToken(TOKEN);
    const client = engine();
    render(<App client={client} />);
    await screen.findByText('recallable now');
    const badge = () => screen.getByRole('status', { name: 'Connection' }).textContent;
    expect(badge()).toBe('Live');
    act(() => client.setState('reconnecting'));
    await waitFor(() => expect(badge()).toBe('Reconnecting…'));
    const before = client.callsOf('stats.get').length;
    act(() => client.setState('open'));
    await waitFor(() => expect(badge()).toBe('Live'));
    await waitFor(() => expect(client.callsOf('stats.get').length).toBe(before + 1));
  });

  it('switches the store every view shows', async () => {
    const user = userEvent.setup();
    useConnectionStore.getState().setToken(TOKEN);
    const client = engine();
    render(<App client={client} />);
    await screen.findByText('recallable now');
    await user.selectOptions(screen.getByLabelText('Store'), 'work');
    await waitFor(() => expect(client.callsOf('stats.get')).toContainEqual({ store: 'work' }));
    expect(await screen.findByText('work', { selector: 'strong' })).toBeTruthy();
  });

  it('follows the store it shows when that store is renamed anywhere', async () => {
    const user = userEvent.setup();
    useConnectionStore.getState().setToken(TOKEN);
    let names = ['default', 'work'];
    const client = engine({ 'store.list': () => storeListFixture(names) });
    render(<App client={client} />);
    await screen.findByText('recallable now');
    await user.selectOptions(screen.getByLabelText('Store'), 'work');
    act(() => client.emit('store.renamed', { store: 'other', to: 'else' }));
    expect(useUiStore.getState().store).toBe('work');
    names = ['default', 'job'];
    act(() => client.emit('store.renamed', { store: 'work', to: 'job' }));
    expect(useUiStore.getState().store).toBe('job');
    await waitFor(() => expect(client.callsOf('stats.get')).toContainEqual({ store: 'job' }));
    // Remembered for the next visit under its new name.
    expect(window.localStorage.getItem('loci.store')).toBe('job');
  });
});
