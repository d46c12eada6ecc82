import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeListFixture } from '../testing/fixtures';
import { TOAST_MS, TOAST_WITH_ACTION_MS, useUiStore } from './uiStore';

describe('uiStore: stores', () => {
  it('shows the default store first, then keeps the one the user picked', () => {
    const ui = useUiStore.getState();
    ui.setStores(storeListFixture(['main', 'work']).stores);
    expect(useUiStore.getState().store).toBe('main');
    ui.setStore('work');
    ui.setStores(storeListFixture(['main', 'work', 'new']).stores);
    expect(useUiStore.getState().store).toBe('work');
    expect(window.localStorage.getItem('loci.store')).toBe('work');
  });

  it('falls back to the default when the chosen store is gone', () => {
    const ui = useUiStore.getState();
    ui.setStores(storeListFixture(['main', 'work']).stores);
    ui.setStore('work');
    ui.setStores(storeListFixture(['main']).stores);
    expect(useUiStore.getState().store).toBe('main');
  });

  it('remembers the theme', () => {
    useUiStore.getState().setTheme('dark');
    expect(window.localStorage.getItem('loci.theme')).toBe('dark');
  });
});

describe('uiStore: toasts', () => {
  afterEach(() => vi.useRealTimers());

  it('dismisses a toast after its time, a toast with an action later', () => {
    vi.useFakeTimers();
    const ui = useUiStore.getState();
    ui.toast({ message: 'Saved' });
    ui.toast({ message: 'Forgotten', action: { label: 'Undo', run: () => undefined } });
    vi.advanceTimersByTime(TOAST_MS);
    expect(useUiStore.getState().toasts.map((t) => t.message)).toEqual(['Forgotten']);
    vi.advanceTimersByTime(TOAST_WITH_ACTION_MS - TOAST_MS);
    expect(useUiStore.getState().toasts).toEqual([]);
  });

  it('holds a paused toast open and resumes its timer', () => {
    vi.useFakeTimers();
    const ui = useUiStore.getState();
    const id = ui.toast({ message: 'Saved', durationMs: 1000 });
    vi.advanceTimersByTime(600);
    ui.pauseToast(id);
    vi.advanceTimersByTime(10_000);
    expect(useUiStore.getState().toasts).toHaveLength(1);
    ui.resumeToast(id);
    vi.advanceTimersByTime(1_499);
    expect(useUiStore.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(useUiStore.getState().toasts).toHaveLength(0);
  });

  it('keeps at most four toasts, dropping the oldest', () => {
    const ui = useUiStore.getState();
    for (let i = 1; i <= 6; i++) ui.toast({ message: `t${i}`, durationMs: 0 });
    expect(useUiStore.getState().toasts.map((t) => t.message)).toEqual(['t3', 't4', 't5', 't6']);
  });
});
