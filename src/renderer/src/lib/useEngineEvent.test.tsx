import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { createFakeClient } from '../testing/fakeClient';
import { EngineContext } from './engineContext';
import { useEngineEvent } from './useEngineEvent';

function Counter({ prefix }: { prefix: string }) {
  const [seen, setSeen] = useState<string[]>([]);
  useEngineEvent('store.created', (p) => setSeen((s) => [...s, `${prefix}${p.store}`]));
  return <p>{seen.join(',')}</p>;
}

describe('useEngineEvent', () => {
  it('delivers events to the latest handler, subscribes once, and unsubscribes on unmount', () => {
    const client = createFakeClient();
    const ui = (prefix: string) => (
      <EngineContext.Provider value={client}>
        <Counter prefix={prefix} />
      </EngineContext.Provider>
    );
    const { container, rerender, unmount } = render(ui('a:'));
    act(() => client.emit('store.created', { store: 'one' }));
    rerender(ui('b:'));
    expect(client.listenerCount('store.created')).toBe(1);
    act(() => client.emit('store.created', { store: 'two' }));
    expect(container.textContent).toBe('a:one,b:two');
    unmount();
    expect(client.listenerCount('store.created')).toBe(0);
  });
});
