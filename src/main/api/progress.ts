// A long call's progress and cancellation, for the transports that relay them (MCP): the
// engine announces how an import or a dream moves along as events; these relay the
// call's own events to its caller, and turn the caller's abort into the engine's cancel.
import type { CallContext, CallProgress } from '../../shared/api';
import { progressSink } from '../engine/progress';
import type { EventMap, EventName } from '../../shared/events';
import type { EngineEvents } from '../engine/events';

/**
 * Watches one long call: its events (those `pick` maps to a progress) go to the caller,
 * and the caller's abort runs `cancel` — again at each later event of the call, for an
 * abort that came before the engine had registered the work — while `run` runs.
 */
export async function watchCall<E extends EventName, T>(
  ctx: CallContext,
  events: EngineEvents,
  event: E,
  pick: (payload: EventMap[E]) => CallProgress | null,
  cancel: () => unknown,
  run: () => Promise<T>,
): Promise<T> {
  if (!ctx.progress && !ctx.signal) return run();
  const sink = progressSink(ctx);
  const off = events.on(event, (payload) => {
    const p = pick(payload);
    if (!p) return;
    if (ctx.signal?.aborted) cancel();
    else sink.report(p);
  });
  const onAbort = () => cancel();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal?.aborted) cancel();
  try {
    return await run();
  } finally {
    off();
    ctx.signal?.removeEventListener('abort', onAbort);
    sink.close();
  }
}
