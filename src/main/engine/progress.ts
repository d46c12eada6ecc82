// A long call's progress, as the caller is told it (MCP progress notifications), and
// the error a cancelled call ends with. The work itself says where it is; this keeps the
// caller's view well-behaved.
import type { CallContext, CallProgress } from '../../shared/api';
import { LociError } from '../../shared/errors';

/** What a long piece of work is given by its call: where to say progress, when to stop. */
export type CallWatch = Pick<CallContext, 'progress' | 'signal'>;

/** Progress is sent at most this often (the last word of a call always goes). */
const MIN_INTERVAL_MS = 200;

/**
 * A call still at work says so at least this often: the last progress again, a hair
 * further on (MCP asks that progress grow), with what it is doing. A client whose
 * timeout restarts on progress then waits as long as the work does.
 */
export const HEARTBEAT_MS = 800;
const HEARTBEAT_STEP = 1e-3;

/**
 * `ctx.progress`, with `done` kept growing (a value that does not grow is dropped, as
 * MCP asks) and sends spaced at least MIN_INTERVAL_MS apart; a held-back value goes when
 * the interval ends; a quiet stretch of HEARTBEAT_MS repeats the last. `close()` sends
 * what is held back and stops.
 */
export function progressSink(ctx: CallWatch): {
  report(p: CallProgress): void;
  close(): void;
} {
  const send = ctx.progress;
  let last = -Infinity;
  let lastSent: CallProgress | null = null;
  let sentAt = -Infinity;
  let held: CallProgress | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const heartbeat = send
    ? setInterval(() => {
        if (closed || held || !lastSent) return;
        if (performance.now() - sentAt < HEARTBEAT_MS) return;
        last += HEARTBEAT_STEP;
        lastSent = { ...lastSent, done: last };
        sentAt = performance.now();
        send(lastSent);
      }, HEARTBEAT_MS / 4)
    : null;
  heartbeat?.unref();
  const flush = () => {
    timer = null;
    if (!held || !send) return;
    const p = held;
    held = null;
    sentAt = performance.now();
    lastSent = p;
    send(p);
  };
  return {
    report(p) {
      if (!send || closed || !(p.done > last)) return;
      last = p.done;
      held = p;
      const wait = MIN_INTERVAL_MS - (performance.now() - sentAt);
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      if (heartbeat) clearInterval(heartbeat);
      flush();
    },
  };
}

/** The error a call ends with when its caller cancelled it. */
export function cancelled(what: string): LociError {
  return new LociError('cancelled', `${what} was cancelled; what finished before is kept.`);
}

/** Throws `cancelled(what)` when the call's caller has given up. */
export function stopIfCancelled(watch: CallWatch | undefined, what: string): void {
  if (watch?.signal?.aborted) throw cancelled(what);
}
