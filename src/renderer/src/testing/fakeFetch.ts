// A fetch double for the HTTP transport's tests: records requests and answers them from a
// script. Event-stream answers are controllable streams (push text or bytes, end, fail),
// and aborting a request rejects its pending read, as a browser does.
import type { FetchLike } from '../lib/engineClient';

export interface RecordedRequest {
  url: string;
  init: RequestInit;
  headers: Record<string, string>;
  body: unknown;
}

export interface ControlledStream {
  response: Response;
  push(chunk: string | Uint8Array): void;
  end(): void;
  fail(): void;
  readonly cancelled: boolean;
}

const abortError = () => new DOMException('The operation was aborted.', 'AbortError');

export function sseStream(signal?: AbortSignal | null, status = 200): ControlledStream {
  const queue: Uint8Array[] = [];
  let ended = false;
  let failed = false;
  let cancelled = false;
  let waiter: {
    resolve: (r: ReadableStreamReadResult<Uint8Array>) => void;
    reject: (e: unknown) => void;
  } | null = null;
  const encoder = new TextEncoder();

  const flush = () => {
    if (!waiter) return;
    const w = waiter;
    if (cancelled) {
      waiter = null;
      w.reject(abortError());
    } else if (queue.length) {
      waiter = null;
      w.resolve({ done: false, value: queue.shift() as Uint8Array });
    } else if (failed) {
      waiter = null;
      w.reject(new TypeError('network error'));
    } else if (ended) {
      waiter = null;
      w.resolve({ done: true, value: undefined });
    }
  };
  signal?.addEventListener('abort', () => {
    cancelled = true;
    flush();
  });

  const reader = {
    read: () =>
      new Promise<ReadableStreamReadResult<Uint8Array>>((resolve, reject) => {
        waiter = { resolve, reject };
        flush();
      }),
    cancel: async () => {
      cancelled = true;
    },
    releaseLock: () => undefined,
  };
  const response = {
    ok: status >= 200 && status < 300,
    status,
    body: { getReader: () => reader },
    json: async () => ({}),
  } as unknown as Response;
  return {
    response,
    push(chunk) {
      queue.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      flush();
    },
    end() {
      ended = true;
      flush();
    },
    fail() {
      failed = true;
      flush();
    },
    get cancelled() {
      return cancelled;
    },
  };
}

export function jsonResponse(status: number, body: unknown): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    body: null,
    json: async () => body,
  } as unknown as Response;
}

export function textResponse(status: number, text: string): Response {
  return {
    ok: status >= 200 && status < 300,
    status,
    body: null,
    json: async () => JSON.parse(text),
  } as unknown as Response;
}

export interface FakeFetch {
  fetch: FetchLike;
  requests: RecordedRequest[];
  /** Every event-stream request so far, in order. */
  streams: ControlledStream[];
}

/**
 * `answer` decides each non-stream request; event-stream requests get a new controlled
 * stream (or `streamStatus(n)` for the n-th one, e.g. 401).
 */
export function createFakeFetch(
  answer: (req: RecordedRequest) => Response | Promise<Response> = () =>
    jsonResponse(200, { result: {} }),
  streamStatus: (n: number) => number = () => 200,
): FakeFetch {
  const requests: RecordedRequest[] = [];
  const streams: ControlledStream[] = [];
  const fetch: FetchLike = async (url, init) => {
    if (init.signal?.aborted) throw abortError();
    const headers = { ...(init.headers as Record<string, string>) };
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const req = { url, init, headers, body };
    requests.push(req);
    if (url.endsWith('/api/events')) {
      const stream = sseStream(init.signal, streamStatus(streams.length));
      streams.push(stream);
      return stream.response;
    }
    return answer(req);
  };
  return { fetch, requests, streams };
}
