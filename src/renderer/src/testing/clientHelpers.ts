// Small helpers for the transport tests.
import { createFakeFetch, jsonResponse, type FakeFetch } from './fakeFetch';

/** A fake fetch answering every call with the same JSON body (HTTP 200). */
export function createJsonFetch(body: unknown): FakeFetch {
  return createFakeFetch(() => jsonResponse(200, body));
}

/** One server-sent event as the daemon writes it. */
export function eventBlock(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}

/** Polls until the condition holds (real timers; the transport runs on promises). */
export async function waitFor(condition: () => boolean, timeoutMs = 500): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('waitFor: condition never held');
    await new Promise((r) => setTimeout(r, 2));
  }
}
