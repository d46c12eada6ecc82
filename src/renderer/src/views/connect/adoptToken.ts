// After `token.rotate`, the page must use the new token at once, or its next call (and
// the event stream's next reconnect) is refused. A call that left with the old token just
// before the rotation may still come back 401 afterwards; the connection store would then
// drop the new token and show the connect screen. For a short while, the first such
// refusal puts the new token back instead (only once: a token refused again is refused).
import { useConnectionStore } from '../../stores/connectionStore';

export const ADOPT_GUARD_MS = 5_000;

/** The guard of the last rotation: a newer rotation replaces it. */
let stopGuard: (() => void) | null = null;

export function adoptToken(token: string, guardMs = ADOPT_GUARD_MS): void {
  stopGuard?.();
  const store = useConnectionStore;
  store.getState().setToken(token);
  const until = Date.now() + guardMs;
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    unsubscribe();
    clearTimeout(timer);
    if (stopGuard === stop) stopGuard = null;
  };
  const unsubscribe = store.subscribe((state) => {
    if (Date.now() > until) return stop();
    if (state.status === 'unauthorized' && state.problem === 'rejected' && state.token !== token) {
      stop();
      state.setToken(token);
    }
  });
  const timer = setTimeout(stop, guardMs);
  stopGuard = stop;
}
