// Closes every notification on the page, for screenshots and checks that toasts would
// cover. A toast may leave on its own (it times out) while being clicked: that is the
// wanted end, not a failure, so a click that finds it gone is simply retried on the next.
import type { Page } from 'playwright-core';

/** Toasts closed at most; more means they keep coming, and the caller should know. */
const MAX_TOASTS = 50;

export async function dismissToasts(page: Page): Promise<void> {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < MAX_TOASTS; i++) {
    if ((await dismiss.count()) === 0) return;
    await dismiss
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined);
  }
  throw new Error(`notifications kept coming: ${MAX_TOASTS} dismissed and more are shown`);
}
