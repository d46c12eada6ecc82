import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EngineCallError } from '../lib/engineClient';
import { createFakeClient } from '../testing/fakeClient';
import { hitFixture, recallFixture } from '../testing/fixtures';
import { renderWithClient } from '../testing/render';
import AtlasView from './AtlasView';
import { atlasFixture, atlasNode, nodeId, smallAtlas } from './atlas/atlasFixture';

const canvas = () => screen.getByRole('img', { name: /^Map of/ });

describe('AtlasView', () => {
  it('says it is loading until the map arrives', async () => {
    const client = createFakeClient({ 'graph.atlas': () => new Promise(() => {}) });
    renderWithClient(<AtlasView />, client);
    expect(await screen.findByText('Loading the map of memories…')).toBeTruthy();
    expect(client.callsOf('graph.atlas')).toEqual([{ store: 'default', limit: 5000 }]);
  });

  it('explains what to do first in a store without memories', async () => {
    const client = createFakeClient({ 'graph.atlas': () => atlasFixture([]) });
    renderWithClient(<AtlasView />, client);
    const empty = await screen.findByRole('region', { name: 'Nothing to map in “default” yet' });
    expect(within(empty).getByText('loci setup')).toBeTruthy();
    expect(screen.queryByRole('img', { name: /^Map of/ })).toBeNull();
  });

  it('shows the engine’s error and tries again', async () => {
    let fail = true;
    const client = createFakeClient({
      'graph.atlas': () => {
        if (fail) throw new EngineCallError('store-corrupt', 'The store "default" is damaged.');
        return smallAtlas();
      },
    });
    renderWithClient(<AtlasView />, client);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load the map')).toBeTruthy();
    expect(within(alert).getByText(/is damaged/)).toBeTruthy();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('img', { name: /^Map of 6 memories/ })).toBeTruthy();
  });

  it('draws the map with a summary for screen readers, a legend and live stats', async () => {
    const client = createFakeClient({ 'graph.atlas': () => smallAtlas() });
    renderWithClient(<AtlasView />, client);
    await screen.findByRole('img', { name: /^Map of/ });
    expect(canvas().getAttribute('aria-label')).toMatch(
      /^Map of 6 memories and 5 links in 3 communities, coloured by kind, sized by activation\. Most active: Deploys go through ops\/deploy\.sh;/,
    );
    expect(canvas().getAttribute('tabindex')).toBe('0');
    const help = document.getElementById(canvas().getAttribute('aria-describedby')!);
    expect(help?.textContent).toMatch(/Click a memory to see it, its neighbours and its history/);
    expect(screen.getByText(/6 memories · 5 links · 3 communities/)).toBeTruthy();
    expect(
      screen.getByRole('button', { name: /procedural\s*2/ }).getAttribute('aria-pressed'),
    ).toBe('true');
    // No worker in happy-dom: the layout runs on the main thread, and says so.
    await waitFor(() => expect(window.__atlasStats?.nodes).toBe(6));
    expect(window.__atlasStats?.links).toBe(5);
    expect(window.__atlasStats?.offThread).toBe(false);
  });

  it('keys contradictions and supersessions in the legend, only when the map has them', async () => {
    const result = smallAtlas();
    const client = createFakeClient({ 'graph.atlas': () => result });
    const { unmount } = renderWithClient(<AtlasView />, client);
    await screen.findByRole('img', { name: /^Map of/ });
    expect(screen.queryByRole('list', { name: 'Link types' })).toBeNull();
    unmount();

    result.links.push(
      { from: nodeId(0), to: nodeId(1), type: 'contradicts', weight: 0.5 },
      { from: nodeId(3), to: nodeId(4), type: 'supersedes', weight: 1 },
      { from: nodeId(2), to: nodeId(3), type: 'supersedes', weight: 1 },
    );
    renderWithClient(<AtlasView />, createFakeClient({ 'graph.atlas': () => result }));
    const key = await screen.findByRole('list', { name: 'Link types' });
    const items = within(key).getAllByRole('listitem');
    expect(items.map((li) => li.dataset.link)).toEqual(['contradicts', 'supersedes']);
    expect(items[0]?.textContent).toMatch(/contradicts\s*1/);
    expect(items[1]?.textContent).toMatch(/supersedes \(→ replaced\)\s*2/);
    // They are links like any other in the summary.
    expect(canvas().getAttribute('aria-label')).toMatch(/and 8 links/);
  });

  it('keys the other link types by their strokes, with related once another type is there', async () => {
    const result = smallAtlas();
    result.links.push(
      { from: nodeId(0), to: nodeId(2), type: 'supports', weight: 0.5 },
      { from: nodeId(1), to: nodeId(3), type: 'follows', weight: 0.5 },
      { from: nodeId(2), to: nodeId(4), type: 'part_of', weight: 0.5 },
    );
    renderWithClient(<AtlasView />, createFakeClient({ 'graph.atlas': () => result }));
    const key = await screen.findByRole('list', { name: 'Link types' });
    const items = within(key).getAllByRole('listitem');
    expect(items.map((li) => li.dataset.link)).toEqual([
      'supports',
      'follows',
      'structure',
      'related',
    ]);
    expect(items[2]?.textContent).toMatch(/part of · derived from\s*1/);
    expect(items[1]?.querySelector('line')?.getAttribute('class')).toBe('atlas-link-style-follows');
  });

  it('says when the map is cut short and raises the limit on request', async () => {
    const client = createFakeClient({
      'graph.atlas': ({ limit }) => smallAtlas({ total: 12_000, truncated: (limit ?? 0) < 12_000 }),
    });
    renderWithClient(<AtlasView />, client);
    expect(
      await screen.findByText(/Showing the 6 most recently used of 12,000 memories/),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Draw up to 10,000' }));
    await waitFor(() =>
      expect(client.callsOf('graph.atlas').at(-1)).toEqual({ store: 'default', limit: 10_000 }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Draw up to 20,000' }));
    await waitFor(() => expect(screen.queryByTestId('atlas-truncated')).toBeNull());
  });

  it('highlights matches of the search and lists them as links', async () => {
    const client = createFakeClient({ 'graph.atlas': () => smallAtlas() });
    renderWithClient(<AtlasView />, client);
    await screen.findByRole('img', { name: /^Map of/ });
    await userEvent.type(screen.getByRole('searchbox', { name: /Highlight memories/ }), 'deploy');
    expect(await screen.findByText(/^3 matches · Enter zooms to them/)).toBeTruthy();
    expect(canvas().getAttribute('aria-label')).toMatch(/3 highlighted by the search/);
    await userEvent.click(screen.getByRole('button', { name: 'List' }));
    const list = screen.getByRole('complementary', { name: 'Matches, most active first' });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual([
      'Deploys go through ops/deploy.sh',
      'Rolling back a release',
      'Migrations run before the deploy',
    ]);
    expect(links[0]!.getAttribute('href')).toBe(`#/memories/${nodeId(0)}`);
    await userEvent.clear(screen.getByRole('searchbox', { name: /Highlight memories/ }));
    await userEvent.type(screen.getByRole('searchbox', { name: /Highlight memories/ }), 'zebra');
    expect(await screen.findByText('No memory matches “zebra”')).toBeTruthy();
  });

  it('also highlights what recall returns, without rehearsing it', async () => {
    const client = createFakeClient({
      'graph.atlas': () => smallAtlas(),
      'memory.recall': () =>
        recallFixture([hitFixture(nodeId(4), 'The team prefers small pull requests')]),
    });
    renderWithClient(<AtlasView />, client);
    await screen.findByRole('img', { name: /^Map of/ });
    await userEvent.click(screen.getByRole('checkbox', { name: 'By meaning' }));
    await userEvent.type(screen.getByRole('searchbox', { name: /Highlight memories/ }), 'release');
    expect(await screen.findByText(/^2 matches \(1 by meaning\)/)).toBeTruthy();
    expect(client.callsOf('memory.recall')).toEqual([
      { store: 'default', query: 'release', limit: 20, rehearse: false },
    ]);
  });

  it('filters by kind, pinned and community, and switches the colour mode', async () => {
    const client = createFakeClient({ 'graph.atlas': () => smallAtlas() });
    renderWithClient(<AtlasView />, client);
    await screen.findByRole('img', { name: /^Map of/ });
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    expect(screen.getByText('6 of 6 shown')).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Pinned only' }));
    expect(screen.getByText('1 of 6 shown')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Links at least' }), '1');
    expect(screen.getByText('5 of 6 shown')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /procedural\s*2/ }));
    expect(screen.getByText('3 of 6 shown')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'procedural' })).toHaveProperty('checked', false);

    await userEvent.click(screen.getByRole('radio', { name: 'Community' }));
    expect(screen.getByRole('heading', { name: 'Communities' })).toBeTruthy();
    expect(canvas().getAttribute('aria-label')).toMatch(/coloured by community/);
    await userEvent.click(screen.getByRole('button', { name: /#1 deploy\s*3/ }));
    expect((screen.getByRole('combobox', { name: 'Community' }) as HTMLSelectElement).value).toBe(
      '0',
    );
    expect(window.localStorage.getItem('loci.atlas.colour')).toBe('community');
  });

  it('reloads (once) when memories of this store change, not for another store', async () => {
    let nodes = smallAtlas().nodes;
    const client = createFakeClient({ 'graph.atlas': () => atlasFixture(nodes) });
    renderWithClient(<AtlasView />, client);
    await screen.findByRole('img', { name: /^Map of 6/ });
    nodes = [...nodes, atlasNode(6, { title: 'Fresh' })];
    act(() =>
      client.emit('memory.changed', {
        store: 'other',
        ids: ['x'],
        change: 'created',
        actor: 'cli',
      }),
    );
    act(() => {
      for (let i = 0; i < 3; i++)
        client.emit('link.changed', {
          store: 'default',
          from: nodeId(0),
          to: nodeId(1),
          change: 'created',
          actor: 'cli',
        });
    });
    expect(await screen.findByRole('img', { name: /^Map of 7/ }, { timeout: 3000 })).toBeTruthy();
    expect(client.callsOf('graph.atlas')).toHaveLength(2);
  });

  it('shows the frame-rate overlay on request and remembers it', async () => {
    const client = createFakeClient({ 'graph.atlas': () => smallAtlas() });
    renderWithClient(<AtlasView />, client);
    await screen.findByRole('img', { name: /^Map of/ });
    const toggle = screen.getByRole('button', { name: 'FPS' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await screen.findByText(/fps · .* ms\/frame/)).toBeTruthy();
    expect(screen.getByText(/6 nodes · 5 links/)).toBeTruthy();
    expect(window.localStorage.getItem('loci.atlas.fps')).toBe('on');
  });
});
