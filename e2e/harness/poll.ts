// Waiting for the page to reach a state, with a clear message when it does not.
import type { Locator } from 'playwright-core';

export async function poll<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  { timeoutMs = 10_000, message = 'condition' }: { timeoutMs?: number; message?: string } = {},
): Promise<T> {
  const start = Date.now();
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
      if (ok(last)) return last;
    } catch {
      // Not there yet: try again.
    }
    if (Date.now() - start > timeoutMs)
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${message}; last value: ${JSON.stringify(last)}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the locator's text (trimmed) equals `expected`. */
export function expectText(
  locator: Locator,
  expected: string,
  timeoutMs = 10_000,
): Promise<string> {
  return poll(
    async () => (await locator.textContent({ timeout: 1000 }))?.trim() ?? '',
    (text) => text === expected,
    { timeoutMs, message: `text "${expected}" in ${locator.toString()}` },
  );
}
