// Where the observatory stands with the engine: the token it holds and whether calls
// work. app/useConnection.ts drives it from probes and the event stream's state; the
// shell reads it to choose between the app, the connect screen and the offline screen.
import { create } from 'zustand';
import { storeToken } from '../lib/token';

export type ConnectionStatus = 'connecting' | 'ready' | 'unauthorized' | 'offline';

/** Why the connect screen shows: no token was given, or the daemon refused the one we had. */
export type AuthProblem = 'missing-token' | 'rejected';

export interface ConnectionState {
  /** The bearer token (HTTP transport); never rendered, never logged. */
  token: string | null;
  status: ConnectionStatus;
  problem: AuthProblem | null;
  /** The daemon's own words on the last failure, when it said any. */
  detail: string | null;
  /** The app has been ready once: a later drop shows a banner, not a full screen. */
  everReady: boolean;
  /** Bumped when the connection comes back after a drop: views reload what they show. */
  generation: number;
  /** Bumped by "Retry now": the connection hook probes again at once. */
  retries: number;

  /** Uses (and keeps, for this tab) a new token, and connects with it. */
  setToken(token: string | null): void;
  connecting(): void;
  ready(): void;
  offline(detail?: string | null): void;
  unauthorized(problem: AuthProblem, detail?: string | null): void;
  retry(): void;
}

export const useConnectionStore = create<ConnectionState>()((set, get) => ({
  token: null,
  status: 'connecting',
  problem: null,
  detail: null,
  everReady: false,
  generation: 0,
  retries: 0,

  setToken(token) {
    storeToken(token);
    set({ token, status: 'connecting', problem: null, detail: null });
  },
  connecting() {
    set({ status: 'connecting', problem: null, detail: null });
  },
  ready() {
    const { status, everReady, generation } = get();
    if (status === 'ready') return;
    set({
      status: 'ready',
      problem: null,
      detail: null,
      everReady: true,
      // Only a comeback needs a reload; the first connection finds nothing stale.
      generation: everReady ? generation + 1 : generation,
    });
  },
  offline(detail = null) {
    set({ status: 'offline', detail });
  },
  unauthorized(problem, detail = null) {
    // A refused token is dropped, so a reload does not try it again.
    if (problem === 'rejected') storeToken(null);
    set({
      status: 'unauthorized',
      problem,
      detail,
      token: problem === 'rejected' ? null : get().token,
    });
  },
  retry() {
    set((s) => ({ retries: s.retries + 1 }));
  },
}));
