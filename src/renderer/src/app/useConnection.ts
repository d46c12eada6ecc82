// Drives the connection store: probes the engine with the current token (`store.list`,
// which the store switcher needs anyway), follows the event stream's state, and retries
// an unreachable daemon with backoff. A refused token ends on the connect screen.
import { useEffect } from 'react';
import type { EngineClient } from '../lib/engineClient';
import { EngineCallError } from '../lib/engineClient';
import { useConnectionStore } from '../stores/connectionStore';
import { useUiStore } from '../stores/uiStore';

const RETRY_MS = [1_000, 2_000, 5_000, 10_000];

export function useConnection(client: EngineClient): void {
  const token = useConnectionStore((s) => s.token);
  const retries = useConnectionStore((s) => s.retries);

  useEffect(() => {
    const conn = useConnectionStore.getState;
    if (client.transport === 'http' && !token) {
      // A refused token was dropped already: keep saying it was refused.
      if (conn().problem !== 'rejected') conn().unauthorized('missing-token');
      return;
    }
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;

    const refreshStores = async () => {
      const { stores } = await client.call('store.list', {});
      if (!stopped) useUiStore.getState().setStores(stores);
    };

    const probe = async () => {
      timer = null;
      if (!conn().everReady) conn().connecting();
      try {
        await refreshStores();
        if (stopped) return;
        attempt = 0;
        conn().ready();
        client.connect();
      } catch (err) {
        if (stopped) return;
        const e = err instanceof EngineCallError ? err : null;
        if (e?.unauthorized) {
          conn().unauthorized('rejected', e.message);
          return;
        }
        conn().offline(e?.message ?? null);
        timer = setTimeout(probe, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
      }
    };

    const offState = client.onState((state) => {
      if (stopped) return;
      if (state === 'unauthorized') conn().unauthorized('rejected');
      else if (state === 'reconnecting' && conn().status === 'ready') conn().offline();
      else if (state === 'open' && conn().status === 'offline') {
        // Back after a drop: the store list may have changed while we were away.
        conn().ready();
        refreshStores().catch(() => undefined);
      }
    });
    const offCreated = client.on('store.created', () => {
      refreshStores().catch(() => undefined);
    });
    // Renamed anywhere (Settings, the CLI, another tab): every view follows the store it
    // shows, and the choice saved for the next visit follows too.
    const offRenamed = client.on('store.renamed', ({ store, to }) => {
      if (useUiStore.getState().store === store) useUiStore.getState().setStore(to);
      refreshStores().catch(() => undefined);
    });

    void probe();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      offState();
      offCreated();
      offRenamed();
      client.close();
    };
  }, [client, token, retries]);
}
