// Data for a view: calls a method, keeps the answer, and calls again when the arguments
// change, when chosen engine events say the data moved (for the same store, coalesced),
// or when the connection comes back after a drop. Stale answers never overwrite newer ones.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MethodArgs, MethodName, MethodResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { EventName } from '../../../shared/events';
import { useConnectionStore } from '../stores/connectionStore';
import { useEngineClient } from './engineContext';

export interface EngineQuery<T> {
  /** The last answer for these arguments; kept while a refresh runs. */
  data: T | undefined;
  /** The last call's error (data may still hold an older answer). */
  error: LociError | null;
  /** No answer for these arguments yet. */
  loading: boolean;
  /** A call runs while an earlier answer is shown. */
  refreshing: boolean;
  reload(): void;
}

export interface EngineQueryOptions {
  /** Events after which to call again; payloads for another store are ignored. */
  refreshOn?: readonly EventName[];
  /** Bursts of events within this many ms cause one call. */
  throttleMs?: number;
  /** false: do not call (yet). */
  enabled?: boolean;
}

interface State<T> {
  key: string;
  data: T | undefined;
  error: LociError | null;
  running: boolean;
}

export function toLociError(err: unknown): LociError {
  return err instanceof LociError
    ? err
    : new LociError('internal', 'Something went wrong in the observatory.');
}

const isAbort = (err: unknown) => (err as { name?: unknown } | null)?.name === 'AbortError';

export function useEngineQuery<M extends MethodName>(
  method: M,
  args: MethodArgs<M>,
  options: EngineQueryOptions = {},
): EngineQuery<MethodResult<M>> {
  const { refreshOn = [], throttleMs = 300, enabled = true } = options;
  const client = useEngineClient();
  const generation = useConnectionStore((s) => s.generation);
  // Arguments are JSON on the wire anyway: the string is a stable identity for them.
  const key = `${method} ${JSON.stringify(args ?? {})}`;
  const [state, setState] = useState<State<MethodResult<M>>>({
    key,
    data: undefined,
    error: null,
    running: enabled,
  });
  const seq = useRef(0);
  const inflight = useRef<AbortController | null>(null);

  const run = useCallback(async () => {
    const id = ++seq.current;
    inflight.current?.abort();
    const controller = new AbortController();
    inflight.current = controller;
    setState((s) =>
      s.key === key
        ? { ...s, running: true }
        : { key, data: undefined, error: null, running: true },
    );
    try {
      const argsNow = JSON.parse(key.slice(method.length + 1)) as MethodArgs<M>;
      const data = await client.call(method, argsNow, { signal: controller.signal });
      if (id === seq.current) setState({ key, data, error: null, running: false });
    } catch (err) {
      if (isAbort(err) || id !== seq.current) return;
      setState((s) => ({
        key,
        data: s.key === key ? s.data : undefined,
        error: toLociError(err),
        running: false,
      }));
    }
  }, [client, method, key]);

  useEffect(() => {
    if (!enabled) return;
    void run();
    return () => inflight.current?.abort();
  }, [run, enabled, generation]);

  const events = refreshOn.join(' ');
  useEffect(() => {
    if (!enabled || !events) return;
    const wanted = (JSON.parse(key.slice(method.length + 1)) as { store?: unknown }).store;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const offs = (events.split(' ') as EventName[]).map((event) =>
      client.on(event, (payload) => {
        const store = (payload as { store?: unknown }).store;
        if (typeof wanted === 'string' && typeof store === 'string' && store !== wanted) return;
        timer ??= setTimeout(() => {
          timer = null;
          void run();
        }, throttleMs);
      }),
    );
    return () => {
      for (const off of offs) off();
      if (timer) clearTimeout(timer);
    };
  }, [client, method, key, events, throttleMs, enabled, run]);

  const current = state.key === key;
  const data = current ? state.data : undefined;
  return {
    data,
    error: current ? state.error : null,
    loading: data === undefined && (!current || state.running),
    refreshing: data !== undefined && current && state.running,
    reload: () => void run(),
  };
}
