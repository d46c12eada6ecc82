// Follows the daemon's /api/events with fetch streaming rather than EventSource, so the
// token goes in the Authorization header (EventSource can only put it in the URL, where
// it would land in history and logs). Reconnects with capped, jittered backoff and treats
// a silent connection (no heartbeat) as dead.
import { createSseParser, type SseMessage } from './sseParser';

/**
 * `unauthorized` is final until `start()` is called again (with a new token); every
 * other failure reconnects with backoff.
 */
export type StreamState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'unauthorized';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface EventStreamOptions {
  url: string;
  fetch: FetchLike;
  /** Read at every (re)connection, so a new token is picked up. */
  headers: () => Record<string, string>;
  onMessage: (message: SseMessage) => void;
  onState: (state: StreamState) => void;
  /** base × 2^attempt, capped at max, times a jitter factor in [0.5, 1). */
  backoff: { baseMs: number; maxMs: number };
  /** The daemon sends a heartbeat every 15 s: this much silence means a dead connection. */
  idleTimeoutMs: number;
  random: () => number;
}

export interface EventStream {
  start(): void;
  stop(): void;
}

export function createEventStream(o: EventStreamOptions): EventStream {
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  // Bumped on every start and stop: a loop from an earlier generation exits quietly.
  let generation = 0;

  const stop = () => {
    generation++;
    controller?.abort();
    controller = null;
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = null;
  };

  const scheduleRetry = (gen: number) => {
    if (gen !== generation) return;
    o.onState('reconnecting');
    const delay =
      Math.min(o.backoff.maxMs, o.backoff.baseMs * 2 ** attempt) * (0.5 + o.random() / 2);
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (gen === generation) void run(gen);
    }, delay);
  };

  async function run(gen: number): Promise<void> {
    const ctrl = new AbortController();
    controller = ctrl;
    let idle: ReturnType<typeof setTimeout> | null = null;
    const touch = () => {
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => ctrl.abort(), o.idleTimeoutMs);
    };
    try {
      touch();
      const response = await o.fetch(o.url, {
        method: 'GET',
        headers: o.headers(),
        signal: ctrl.signal,
        cache: 'no-store',
      });
      if (gen !== generation) return;
      if (response.status === 401 || response.status === 403) {
        // 401: the token; 403 on this route: the Host/Origin check. Retrying helps neither.
        o.onState('unauthorized');
        return;
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      attempt = 0;
      o.onState('open');
      const parser = createSseParser(o.onMessage);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (gen !== generation) return;
        if (done) break;
        touch();
        parser.push(decoder.decode(value, { stream: true }));
      }
      throw new Error('the event stream ended');
    } catch {
      // Aborted by stop() (stale generation: no retry), by the idle watchdog, or the
      // network failed: the last two reconnect.
      scheduleRetry(gen);
    } finally {
      if (idle) clearTimeout(idle);
    }
  }

  return {
    start() {
      stop();
      attempt = 0;
      o.onState('connecting');
      void run(generation);
    },
    stop,
  };
}
