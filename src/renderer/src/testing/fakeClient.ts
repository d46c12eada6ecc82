// A scripted EngineClient for component tests: answers calls from per-method handlers,
// records every call, and lets a test emit engine events and stream states. It stands
// in for the process boundary (the daemon), nothing more.
import type { MethodArgs, MethodName, MethodResult } from '../../../shared/api';
import type { EventMap, EventName } from '../../../shared/events';
import { EngineCallError, type EngineClient, type StreamState } from '../lib/engineClient';

export type FakeHandlers = {
  [M in MethodName]?: (args: MethodArgs<M>) => MethodResult<M> | Promise<MethodResult<M>>;
};

export interface FakeClient extends EngineClient {
  handlers: FakeHandlers;
  calls: { method: MethodName; args: unknown }[];
  callsOf(method: MethodName): unknown[];
  emit<E extends EventName>(event: E, payload: EventMap[E]): void;
  setState(state: StreamState): void;
  listenerCount(event: EventName): number;
}

export function createFakeClient(handlers: FakeHandlers = {}): FakeClient {
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const stateListeners = new Set<(s: StreamState) => void>();
  let state: StreamState = 'idle';
  const client: FakeClient = {
    transport: 'http',
    handlers,
    calls: [],
    callsOf: (method) => client.calls.filter((c) => c.method === method).map((c) => c.args),
    async call<M extends MethodName>(
      method: M,
      args: MethodArgs<M>,
      options?: { signal?: AbortSignal },
    ) {
      client.calls.push({ method, args });
      const handler = client.handlers[method] as
        ((a: MethodArgs<M>) => MethodResult<M> | Promise<MethodResult<M>>) | undefined;
      if (!handler) throw new EngineCallError('unknown-method', `No fake for ${method}`);
      const result = await handler(args);
      if (options?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      return result;
    },
    on(event, handler) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const h = handler as (p: unknown) => void;
      set.add(h);
      return () => void set.delete(h);
    },
    connect: () => client.setState('open'),
    close: () => client.setState('idle'),
    get state() {
      return state;
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
    emit(event, payload) {
      for (const h of [...(listeners.get(event) ?? [])]) h(payload);
    },
    setState(next) {
      if (next === state) return;
      state = next;
      for (const l of [...stateListeners]) l(next);
    },
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
  };
  return client;
}
