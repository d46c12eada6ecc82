import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../stores/uiStore';
import { Toasts } from './Toasts';

describe('Toasts', () => {
  afterEach(() => vi.useRealTimers());

  it('runs Undo once and closes the toast', async () => {
    const user = userEvent.setup();
    const undo = vi.fn();
    render(<Toasts />);
    act(() => {
      useUiStore.getState().toast({
        message: 'Memory forgotten',
        tone: 'success',
        action: { label: 'Undo', run: undo },
      });
    });
    expect(screen.getByText('Memory forgotten')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Memory forgotten')).toBeNull();
  });

  it('says so when the undo fails', async () => {
    const user = userEvent.setup();
    render(<Toasts />);
    act(() => {
      useUiStore.getState().toast({
        message: 'Memory forgotten',
        action: { label: 'Undo', run: () => Promise.reject(new Error('conflict')) },
      });
    });
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('did not work'),
    );
  });

  it('closes on its own, but not while the pointer is on it', async () => {
    vi.useFakeTimers();
    render(<Toasts />);
    act(() => {
      useUiStore.getState().toast({ message: 'Saved', durationMs: 1000 });
    });
    fireEvent.mouseEnter(screen.getByText('Saved'));
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByText('Saved')).toBeTruthy();
    fireEvent.mouseLeave(screen.getByText('Saved'));
    act(() => vi.advanceTimersByTime(1500));
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('can be dismissed by hand', async () => {
    const user = userEvent.setup();
    render(<Toasts />);
    act(() => {
      useUiStore.getState().toast({ message: 'Saved', durationMs: 0 });
    });
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Saved')).toBeNull();
  });
});
