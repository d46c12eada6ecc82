import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListArgs } from '../../../../shared/schemas';
import { createFakeClient } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import MemoriesView from '../MemoriesView';
import { useMemoriesStore } from './memoriesStore';
import { ROW_HEIGHT } from './MemoryList';
import { listHandler } from './testData';
import { BLOCK_SIZE } from './useRowSource';

const view = () => <MemoriesView rest={[]} query={new URLSearchParams()} />;
const grid = () => screen.getByRole('grid', { name: 'Memories' });
const listCalls = (client: ReturnType<typeof createFakeClient>) =>
  client.callsOf('memory.list') as ListArgs[];

describe('Memories list at 100,000 memories', () => {
  beforeEach(() => useMemoriesStore.getState().reset());

  it('renders a bounded number of rows and asks only for the first block', async () => {
    const client = createFakeClient({ 'memory.list': listHandler(100_000) });
    renderWithClient(view(), client);
    await screen.findByText('Memory number 0');
    expect(grid().getAttribute('aria-rowcount')).toBe('100000');
    expect(screen.getByTestId('memories-total').textContent).toContain('100,000');
    const rows = screen.getAllByRole('row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    // Let any throttled range requests run.
    await new Promise((r) => setTimeout(r, 120));
    const calls = listCalls(client);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ offset: 0, limit: BLOCK_SIZE, trust: 'any' });
  });

  it('jumping far fetches only the blocks around the new position', async () => {
    const client = createFakeClient({ 'memory.list': listHandler(100_000) });
    renderWithClient(view(), client);
    await screen.findByText('Memory number 0');
    const target = 73_456;
    act(() => {
      grid().scrollTop = target * ROW_HEIGHT;
      fireEvent.scroll(grid());
    });
    await screen.findByText(`Memory number ${target}`, {}, { timeout: 2000 });
    const offsets = listCalls(client).map((c) => c.offset);
    // The first block, then the block(s) under the new position — never the ones between.
    expect(offsets[0]).toBe(0);
    for (const offset of offsets.slice(1))
      expect(Math.abs((offset ?? 0) - target)).toBeLessThan(3 * BLOCK_SIZE);
    expect(offsets.length).toBeLessThanOrEqual(3);
    expect(screen.getAllByRole('row').length).toBeLessThan(40);
  });

  it('End moves the cursor to the last memory and loads only its block', async () => {
    const client = createFakeClient({ 'memory.list': listHandler(100_000) });
    renderWithClient(view(), client);
    await screen.findByText('Memory number 0');
    // happy-dom lays nothing out: give the list the box a browser would.
    Object.defineProperty(grid(), 'scrollHeight', { value: 100_000 * ROW_HEIGHT });
    Object.defineProperty(grid(), 'clientHeight', { value: 600 });
    grid().focus();
    fireEvent.keyDown(grid(), { key: 'End' });
    await waitFor(() => expect(grid().scrollTop).toBeGreaterThan(0));
    // …and the scroll event a browser sends after scrolling.
    act(() => void fireEvent.scroll(grid()));
    await waitFor(() => expect(grid().getAttribute('aria-activedescendant')).toBe('mem-row-99999'));
    await screen.findByText('Memory number 99999', {}, { timeout: 2000 });
    const offsets = listCalls(client).map((c) => c.offset);
    expect(offsets).toEqual([0, 99_900]);
  });
});
