// Renders a component as the shell would: with an engine client in context and, unless
// told otherwise, a connection that is ready on the `default` store.
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { EngineContext } from '../lib/engineContext';
import { useConnectionStore } from '../stores/connectionStore';
import { useUiStore } from '../stores/uiStore';
import type { FakeClient } from './fakeClient';
import { storeListFixture } from './fixtures';

export function renderWithClient(
  ui: ReactElement,
  client: FakeClient,
  { ready = true, stores = ['default'] }: { ready?: boolean; stores?: string[] } = {},
): RenderResult {
  if (ready) {
    useUiStore.getState().setStores(storeListFixture(stores).stores);
    useConnectionStore.getState().ready();
  }
  return render(<EngineContext.Provider value={client}>{ui}</EngineContext.Provider>);
}
