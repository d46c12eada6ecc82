// The renderer's one way to the engine: typed calls and events over the preload bridge
// (`window.loci`, in the Electron window) or over the daemon's HTTP API and its event
// stream (any browser). It keeps no UI state; the connection store watches its state.
// The token travels only in the Authorization header, never in a URL or a log line.
import type { MethodArgs, MethodName, MethodResult } from '../../../shared/api';
import { isLociErrorData, LociError, type ErrorCode } from '../../../shared/errors';
import { EVENT_NAMES, type EventMap, type EventName } from '../../../shared/events';
import type { LociBridge } from './bridge';
import { createEventStream, type FetchLike, type StreamState } from './eventStream';

export type { FetchLike, StreamState };

/** An error from a call: the contract's code and message, plus what the transport saw. */
export class EngineCallError extends LociError {
  /** The HTTP status, or null when no response came (or over the bridge). */
  readonly status: number | null;
  /** The daemon refused the token (HTTP 401): the user must connect again. */
  readonly unauthorized: boolean;
  /** The daemon did not answer at all. */
  readonly offline: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { status?: number | null; data?: Record<string, unknown>; offline?: boolean } = {},
  ) {
    super(code, message, opts.data);
    this.name = 'EngineCallError';
    this.status = opts.status ?? null;
    this.unauthorized = opts.status === 401;
    this.offline = opts.offline ?? false;
  }
}

export interface CallOptions {
  /** Aborting rejects with the AbortError (HTTP only; the bridge cannot cancel). */
  signal?: AbortSignal;
}

export interface EngineClient {
  readonly transport: 'bridge' | 'http';
  call<M extends MethodName>(
    method: M,
    args: MethodArgs<M>,
    options?: CallOptions,
  ): Promise<MethodResult<M>>;
  /** Subscribes to an engine event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, handler: (payload: EventMap[E]) => void): () => void;
  /** Opens the event stream, or reopens it (after a new token). */
  connect(): void;
  /** Closes the event stream; handlers stay registered for the next `connect()`. */
  close(): void;
  readonly state: StreamState;
  onState(listener: (state: StreamState) => void): () => void;
}

export interface HttpClientOptions {
  /** The daemon's origin; '' means the page's own (the daemon serves the observatory). */
  baseUrl?: string;
  getToken: () => string | null;
  fetch?: FetchLike;
  backoff?: { baseMs: number; maxMs: number };
  idleTimeoutMs?: number;
  random?: () => number;
}

type Handler = (payload: never) => void;

/** Handlers by event; one throwing handler spares the others. */
function createEmitter() {
  const handlers = new Map<EventName, Set<Handler>>();
  return {
    add(event: EventName, handler: Handler): () => void {
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      set.add(handler);
      return () => void set.delete(handler);
    },
    emit(event: EventName, payload: unknown): void {
      for (const handler of [...(handlers.get(event) ?? [])]) {
        try {
          (handler as (p: unknown) => void)(payload);
        } catch (err) {
          console.error(`loci: a handler of ${event} failed`, err);
        }
      }
    },
  };
}

function createStateHolder() {
  let state: StreamState = 'idle';
  const listeners = new Set<(s: StreamState) => void>();
  return {
    get: () => state,
    set(next: StreamState) {
      if (next === state) return;
      state = next;
      for (const l of [...listeners]) l(next);
    },
    subscribe(listener: (s: StreamState) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

const isAbort = (err: unknown) => (err as { name?: unknown } | null)?.name === 'AbortError';

export function createHttpClient(options: HttpClientOptions): EngineClient {
  const base = options.baseUrl ?? '';
  const doFetch: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const emitter = createEmitter();
  const state = createStateHolder();
  const known = new Set<string>(EVENT_NAMES);

  const headers = (extra: Record<string, string>): Record<string, string> => {
    const token = options.getToken();
    return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
  };

  const stream = createEventStream({
    url: `${base}/api/events`,
    fetch: doFetch,
    headers: () => headers({ accept: 'text/event-stream' }),
    onState: state.set,
    onMessage(m) {
      if (!known.has(m.event)) return;
      let payload: unknown;
      try {
        payload = JSON.parse(m.data);
      } catch {
        return;
      }
      emitter.emit(m.event as EventName, payload);
    },
    backoff: options.backoff ?? { baseMs: 500, maxMs: 15_000 },
    idleTimeoutMs: options.idleTimeoutMs ?? 45_000,
    random: options.random ?? Math.random,
  });

  async function call<M extends MethodName>(
    method: M,
    args: MethodArgs<M>,
    callOptions: CallOptions = {},
  ): Promise<MethodResult<M>> {
    let response: Response;
    try {
      response = await doFetch(`${base}/api/${method}`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(args ?? {}),
        cache: 'no-store',
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
      });
    } catch (err) {
      if (isAbort(err)) throw err;
      throw new EngineCallError(
        'unavailable',
        'The Loci daemon does not answer. Is `loci serve` still running?',
        { offline: true },
      );
    }
    const body = (await response.json().catch(() => null)) as {
      result?: unknown;
      error?: unknown;
    } | null;
    if (response.ok && body && 'result' in body) return body.result as MethodResult<M>;
    const error = isLociErrorData(body?.error)
      ? new EngineCallError(body.error.code, body.error.message, {
          status: response.status,
          ...(body.error.data ? { data: body.error.data } : {}),
        })
      : new EngineCallError('unavailable', `The Loci daemon answered HTTP ${response.status}.`, {
          status: response.status,
        });
    if (error.unauthorized) {
      // A rotated token fails every call: stop the stream too, the user must reconnect.
      stream.stop();
      state.set('unauthorized');
    }
    throw error;
  }

  return {
    transport: 'http',
    call,
    on: (event, handler) => emitter.add(event, handler as Handler),
    connect: () => stream.start(),
    close() {
      stream.stop();
      state.set('idle');
    },
    get state() {
      return state.get();
    },
    onState: (listener) => state.subscribe(listener),
  };
}

/** Over the preload bridge: the Electron main process relays calls and events over IPC. */
export function createBridgeClient(bridge: LociBridge): EngineClient {
  const state = createStateHolder();
  return {
    transport: 'bridge',
    async call(method, args) {
      try {
        return await bridge.call(method, args);
      } catch (err) {
        if (isLociErrorData(err))
          throw new EngineCallError(err.code, err.message, err.data ? { data: err.data } : {});
        throw new EngineCallError('internal', 'The Loci engine failed; see its log for details.');
      }
    },
    on: (event, handler) => bridge.on(event, handler),
    // IPC needs no connection; "open" lets the UI treat both transports alike.
    connect: () => state.set('open'),
    close: () => state.set('idle'),
    get state() {
      return state.get();
    },
    onState: (listener) => state.subscribe(listener),
  };
}

/** The bridge when the Electron preload provided one, HTTP to the page's origin otherwise. */
export function createEngineClient(getToken: () => string | null): EngineClient {
  const bridge = typeof window !== 'undefined' ? window.loci : undefined;
  return bridge ? createBridgeClient(bridge) : createHttpClient({ getToken });
}
