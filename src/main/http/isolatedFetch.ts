// A fetch for long-lived MCP client sessions (the `loci mcp` proxy). The SDK's
// StreamableHTTPClientTransport passes one AbortSignal to every request of a session;
// Node's fetch adds a listener to it per request and removes it only when that request
// is garbage-collected, so a busy session piles up thousands of listeners. Here each
// request gets a signal of its own, tied to the session's by one listener that goes away
// as soon as the response body is finished (or the request fails). Aborting the
// session's signal still aborts every request in flight.

export function isolatedFetch(base: typeof fetch = fetch): typeof fetch {
  return async (input, init = {}) => {
    const parent = init.signal;
    if (!parent) return base(input, init);
    if (parent.aborted) throw parent.reason;
    const own = new AbortController();
    const onAbort = () => own.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    const release = () => parent.removeEventListener('abort', onAbort);
    let response: Response;
    try {
      response = await base(input, { ...init, signal: own.signal });
    } catch (err) {
      release();
      throw err;
    }
    const body = response.body;
    if (!body) {
      release();
      return response;
    }
    const reader = body.getReader();
    const tracked = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            controller.close();
          } else controller.enqueue(value);
        } catch (err) {
          release();
          controller.error(err);
        }
      },
      async cancel(reason) {
        release();
        await reader.cancel(reason);
      },
    });
    return new Response(tracked, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
