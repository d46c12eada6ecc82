import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EngineCallError } from '../lib/engineClient';
import { createFakeClient } from '../testing/fakeClient';
import { statsFixture } from '../testing/fixtures';
import { renderWithClient } from '../testing/render';
import OverviewView from './OverviewView';

const stat = (name: string) => document.querySelector(`[data-stat="${name}"]`)?.textContent;

describe('OverviewView', () => {
  it('shows the counts of the current store', async () => {
    const client = createFakeClient({ 'stats.get': () => statsFixture() });
    renderWithClient(<OverviewView />, client);
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeTruthy();
    await screen.findByText('recallable now');
    expect(stat('live')).toBe('42');
    expect(stat('deleted')).toBe('3');
    expect(stat('quarantined')).toBe('1');
    expect(stat('pinned')).toBe('5');
    expect(stat('kind.semantic')).toBe('20');
    expect(stat('kind.schematic')).toBe('1');
    expect(stat('vectors.embedded')).toMatch(/^40 \(95%\)$/);
    expect(stat('vectors.pending')).toBe('2');
    expect(stat('database.size')).toBe('1.5 MB');
    expect(client.callsOf('stats.get')).toEqual([{ store: 'default' }]);
  });

  it('reloads when memories of this store change, not for another store', async () => {
    let live = 42;
    const client = createFakeClient({ 'stats.get': () => statsFixture({ live }) });
    renderWithClient(<OverviewView />, client);
    await screen.findByText('recallable now');
    live = 43;
    act(() =>
      client.emit('memory.changed', {
        store: 'other',
        ids: ['x'],
        change: 'created',
        actor: 'cli',
      }),
    );
    await new Promise((r) => setTimeout(r, 400));
    expect(stat('live')).toBe('42');
    act(() =>
      client.emit('memory.changed', {
        store: 'default',
        ids: ['x'],
        change: 'created',
        actor: 'cli',
      }),
    );
    await screen.findByText('43');
    expect(client.callsOf('stats.get')).toHaveLength(2);
  });

  it('explains what to do first in an empty store', async () => {
    const client = createFakeClient({
      'stats.get': () =>
        statsFixture({
          live: 0,
          deleted: 0,
          quarantined: 0,
          pinned: 0,
          by_kind: {
            semantic: 0,
            episodic: 0,
            procedural: 0,
            prospective: 0,
            affective: 0,
            schematic: 0,
          },
        }),
    });
    renderWithClient(<OverviewView />, client);
    const empty = await screen.findByRole('region', { name: 'No memories in “default” yet' });
    expect(within(empty).getByText('loci setup')).toBeTruthy();
  });

  it('shows the error and retries', async () => {
    let fail = true;
    const client = createFakeClient({
      'stats.get': () => {
        if (fail) throw new EngineCallError('store-corrupt', 'The store "default" is damaged.');
        return statsFixture();
      },
    });
    renderWithClient(<OverviewView />, client);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The store "default" is damaged.');
    expect(alert.textContent).toContain('store-corrupt');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('recallable now');
    expect(stat('live')).toBe('42');
  });

  it('says it is loading while the first answer is on its way', async () => {
    let resolve: (v: ReturnType<typeof statsFixture>) => void = () => undefined;
    const client = createFakeClient({
      'stats.get': () => new Promise((r) => (resolve = r)),
    });
    renderWithClient(<OverviewView />, client);
    expect(screen.getByRole('status').textContent).toContain("Loading the store's statistics");
    act(() => resolve(statsFixture()));
    await screen.findByText('recallable now');
  });
});
