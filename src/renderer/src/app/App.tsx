// The observatory's root: connects to the engine, applies the theme, and shows the app
// once the engine answered — or the connect screen (no or refused token), or the offline
// screen (the daemon does not answer and never did in this tab).
import { useEffect } from 'react';
import { LoadingState } from '../components/LoadingState';
import { Toasts } from '../components/Toasts';
import type { EngineClient } from '../lib/engineClient';
import { EngineContext } from '../lib/engineContext';
import { useConnectionStore } from '../stores/connectionStore';
import { useUiStore } from '../stores/uiStore';
import { ConnectScreen, OfflineScreen } from './ConnectScreen';
import { Shell } from './Shell';
import { useConnection } from './useConnection';
import { useNoFileNavigation } from './useWindowDrop';

function useThemeAttribute(): void {
  const theme = useUiStore((s) => s.theme);
  useEffect(() => {
    const root = document.documentElement;
    // No attribute: the stylesheet follows prefers-color-scheme.
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}

function Gate() {
  const status = useConnectionStore((s) => s.status);
  const everReady = useConnectionStore((s) => s.everReady);
  if (status === 'unauthorized') return <ConnectScreen />;
  if (everReady) return <Shell />;
  if (status === 'offline') return <OfflineScreen />;
  return (
    <main className="splash">
      <LoadingState label="Connecting to Loci…" />
    </main>
  );
}

export function App({ client }: { client: EngineClient }) {
  useConnection(client);
  useThemeAttribute();
  useNoFileNavigation();
  return (
    <EngineContext.Provider value={client}>
      <Gate />
      <Toasts />
    </EngineContext.Provider>
  );
}
