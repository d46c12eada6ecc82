import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { statsFixture } from '../../testing/fixtures';
import { renderWithClient } from '../../testing/render';
import { clientsFixture } from '../connect/connectFixtures';
import OverviewView from '../OverviewView';
import { formatMs } from './chartFormat';
import { createdSummary } from './CreatedChart';
import { bucketOf } from './LatencyChart';
import { overviewFixture } from './overviewFixtures';

function setup(handlers: FakeHandlers = {}) {
  const client = createFakeClient({
    'stats.get': () => statsFixture(),
    'stats.overview': () => overviewFixture(),
    'clients.list': () => clientsFixture(),
    ...handlers,
  });
  renderWithClient(<OverviewView />, client);
  return client;
}

const chart = (id: string) => document.querySelector(`[data-chart="${id}"]`) as HTMLElement | null;
const img = (id: string) => chart(id)?.querySelector('svg[role="img"]') as SVGSVGElement | null;
const rows = (id: string) => [...(chart(id)?.querySelectorAll('tbody tr') ?? [])];

describe('Overview charts', () => {
  it('draws memories over time from stats.overview, named with its key numbers', async () => {
    const client = setup();
    await waitFor(() => expect(img('created')).toBeTruthy());
    const label = img('created')?.getAttribute('aria-label') ?? '';
    expect(label).toContain('15 memories on 3 days');
    expect(label).toMatch(/most on .*\(8\)/);
    expect(label).toContain('The store holds 42 now');
    // One bar per day with memories, and the running total as an area.
    expect(chart('created')?.querySelectorAll('rect.chart-bar')).toHaveLength(3);
    expect(chart('created')?.querySelector('path.chart-area')?.getAttribute('d')).toMatch(/^M/);
    // The hidden table has the same data: days with memories, oldest first.
    expect(rows('created').map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      [expect.stringContaining('2026'), '8', '35'],
      [expect.stringContaining('2026'), '2', '37'],
      [expect.stringContaining('2026'), '5', '42'],
    ]);
    expect(document.querySelector('[data-stat="created.window"]')?.textContent).toBe('15');
    expect(client.callsOf('stats.overview')).toEqual([{ store: 'default', days: 90 }]);
  });

  it('shows sources and recall latency with the median and 95th percentile', async () => {
    setup();
    await waitFor(() => expect(img('sources')).toBeTruthy());
    expect(img('sources')?.getAttribute('aria-label')).toContain('most from mcp:cursor (25)');
    expect(rows('sources').map((r) => r.textContent)).toEqual(['mcp:cursor25', 'cli12', 'ui5']);
    expect(document.querySelector('[data-stat="recall.count"]')?.textContent).toBe('120');
    expect(document.querySelector('[data-stat="recall.p50"]')?.textContent).toBe('4.2 ms');
    expect(document.querySelector('[data-stat="recall.p95"]')?.textContent).toBe('38 ms');
    expect(img('latency')?.getAttribute('aria-label')).toContain('median 4.2 ms');
    expect(chart('latency')?.querySelectorAll('rect.chart-bar')).toHaveLength(11);
    expect(
      [...(chart('latency')?.querySelectorAll('.chart-marker text') ?? [])].map(
        (t) => t.textContent,
      ),
    ).toEqual(['p50', 'p95']);
    expect(rows('latency')[2]?.textContent).toBe('≤ 5 ms60');
    expect(rows('latency')[10]?.textContent).toBe('> 1 s0');
  });

  it('shows the connected clients and their calls', async () => {
    setup();
    await waitFor(() => expect(img('clients')).toBeTruthy());
    expect(document.querySelector('[data-stat="clients.connected"]')?.textContent).toBe('2');
    expect(img('clients')?.getAttribute('aria-label')).toBe(
      '2 clients connected: cursor over http, 12 calls; claude-code over stdio, 3 calls.',
    );
    expect(rows('clients')[0]?.textContent).toContain('cursor12http');
  });

  it('shows a tooltip for the datum picked with the keyboard or the pointer', async () => {
    setup();
    await waitFor(() => expect(img('latency')).toBeTruthy());
    const svg = img('latency') as SVGSVGElement;
    expect(svg.getAttribute('tabindex')).toBe('0');
    act(() => svg.focus());
    // The keyboard starts at the first bucket and walks right.
    let tip = chart('latency')?.querySelector('.chart-tooltip');
    expect(tip?.textContent).toContain('≤ 1 ms');
    fireEvent.keyDown(svg, { key: 'ArrowRight' });
    fireEvent.keyDown(svg, { key: 'ArrowRight' });
    tip = chart('latency')?.querySelector('.chart-tooltip');
    expect(tip?.textContent).toContain('≤ 5 ms');
    expect(tip?.textContent).toContain('60 recalls');
    expect(tip?.textContent).toContain('median falls here');
    expect(tip?.getAttribute('aria-hidden')).toBe('true');
    fireEvent.keyDown(svg, { key: 'End' });
    expect(chart('latency')?.querySelector('.chart-tooltip')?.textContent).toContain('> 1 s');
    fireEvent.keyDown(svg, { key: 'Escape' });
    expect(chart('latency')?.querySelector('.chart-tooltip')).toBeNull();

    // Memories over time starts at today, the most recent day.
    const created = img('created') as SVGSVGElement;
    act(() => created.focus());
    expect(chart('created')?.querySelector('.chart-tooltip')?.textContent).toContain(
      '5 memories created',
    );
    act(() => created.blur());
    expect(chart('created')?.querySelector('.chart-tooltip')).toBeNull();

    // The pointer: rows of the sources chart are 28 px high after 6 px of padding.
    const sources = img('sources') as SVGSVGElement;
    fireEvent.pointerMove(sources, { clientX: 200, clientY: 6 + 28 + 10 });
    expect(chart('sources')?.querySelector('.chart-tooltip')?.textContent).toContain('cli');
    fireEvent.pointerLeave(sources);
    expect(chart('sources')?.querySelector('.chart-tooltip')).toBeNull();
  });

  it('says what is missing when there is nothing to draw', async () => {
    setup({
      'stats.overview': () =>
        overviewFixture(
          {},
          {
            by_source: [],
            recall: {
              count: 0,
              p50_ms: null,
              p95_ms: null,
              histogram: overviewFixture().recall.histogram.map((b) => ({ ...b, count: 0 })),
            },
          },
        ),
      'clients.list': () => clientsFixture(false),
    });
    await screen.findByText(/Nothing new in the last 90 days/);
    expect(screen.getByText(/42 memories are older/)).toBeTruthy();
    expect(screen.getByText(/No recalls answered since the daemon started/)).toBeTruthy();
    expect(document.querySelector('[data-stat="recall.p50"]')?.textContent).toBe('—');
    expect(screen.getByText(/no sources either/)).toBeTruthy();
    const clients = screen.getByRole('region', { name: 'Connected clients' });
    expect(
      within(clients).getByRole('link', { name: 'Connect an editor' }).getAttribute('href'),
    ).toBe('#/connect');
    expect(clients.textContent).toContain('Last seen: cursor');
    for (const id of ['created', 'sources', 'latency', 'clients']) expect(img(id)).toBeFalsy();
  });

  it('keeps the counts when the charts fail, with a retry in their place', async () => {
    const { EngineCallError } = await import('../../lib/engineClient');
    let fail = true;
    const client = setup({
      'stats.overview': () => {
        if (fail) throw new EngineCallError('internal', 'The overview failed.');
        return overviewFixture();
      },
    });
    const region = await screen.findByRole('region', { name: 'Memories over time' });
    const alert = await within(region).findByRole('alert');
    expect(alert.textContent).toContain('The overview failed.');
    expect(document.querySelector('[data-stat="live"]')?.textContent).toBe('42');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(img('created')).toBeTruthy());
    expect(client.callsOf('stats.overview').length).toBeGreaterThanOrEqual(2);
  });

  it('reloads the charts when memories change and the clients when a client calls', async () => {
    const client = setup();
    await waitFor(() => expect(img('created')).toBeTruthy());
    act(() =>
      client.emit('memory.changed', {
        store: 'default',
        ids: ['x'],
        change: 'created',
        actor: 'cli',
      }),
    );
    await waitFor(() => expect(client.callsOf('stats.overview')).toHaveLength(2), {
      timeout: 3_000,
    });
    act(() =>
      client.emit('activity.recorded', {
        id: 1,
        at: new Date().toISOString(),
        actor: 'mcp:cursor',
        transport: 'http',
        tool: 'recall',
        ok: true,
        error_code: null,
        duration_ms: 3,
      }),
    );
    await waitFor(() => expect(client.callsOf('clients.list')).toHaveLength(2));
  });
});

describe('chart helpers', () => {
  it('runs the store total from what it held before the window', () => {
    const s = createdSummary(
      [
        { day: '2026-03-01', count: 2 },
        { day: '2026-03-02', count: 0 },
        { day: '2026-03-03', count: 3 },
      ],
      10,
    );
    expect(s).toMatchObject({ created: 5, base: 5, totals: [7, 7, 10], activeDays: 2 });
    expect(s.busiest).toEqual({ day: '2026-03-03', count: 3 });
    // Never below zero, even if the counts disagree.
    expect(createdSummary([{ day: '2026-03-03', count: 4 }], 1).totals).toEqual([4]);
  });

  it('finds the bucket of a latency and formats durations', () => {
    const h = overviewFixture().recall.histogram;
    expect(bucketOf(h, 0.4)).toBe(0);
    expect(bucketOf(h, 5)).toBe(2);
    expect(bucketOf(h, 5.01)).toBe(3);
    expect(bucketOf(h, 4000)).toBe(10);
    expect(bucketOf(h, null)).toBeNull();
    expect(formatMs(0.42)).toBe('0.42 ms');
    expect(formatMs(250.4)).toBe('250 ms');
    expect(formatMs(1500)).toBe('1.5 s');
    expect(formatMs(null)).toBe('—');
  });
});
