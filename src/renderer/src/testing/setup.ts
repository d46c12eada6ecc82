// Every renderer test starts from a clean page: no mounted components, no kept token or
// preference, fresh stores, the address at `/`.
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { useConnectionStore } from '../stores/connectionStore';
import { useUiStore } from '../stores/uiStore';

const connection = useConnectionStore.getState();
const ui = useUiStore.getState();

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
  useConnectionStore.setState(connection, true);
  useUiStore.setState(ui, true);
});

afterEach(() => {
  cleanup();
  for (const t of useUiStore.getState().toasts) useUiStore.getState().dismissToast(t.id);
});
