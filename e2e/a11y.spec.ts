// Every view, as it opens on the seeded store, checked with axe-core in the light and the
// dark scheme: no serious or critical violation anywhere (the specs of each view check
// their states with panels and dialogs open).
import type { E2EContext } from './harness/types';
import { VIEWS } from './harness/views';

async function checkViews(t: E2EContext, views: readonly (readonly [string, string])[]) {
  await t.open('/overview');
  for (const [id, title] of views) {
    await t.page.evaluate((route) => {
      window.location.hash = route;
    }, `#/${id}`);
    await t.page.getByRole('heading', { name: title, level: 1, exact: true }).waitFor();
    // What the view loads first has arrived (lists, charts, reports).
    await t.page.waitForTimeout(400);
    await t.checkA11y(`${title} as it opens`);
  }
}

export async function firstHalfOfTheViewsHaveNoSeriousA11yViolation(t: E2EContext) {
  await checkViews(t, VIEWS.slice(0, 7));
}

export async function secondHalfOfTheViewsHaveNoSeriousA11yViolation(t: E2EContext) {
  await checkViews(t, VIEWS.slice(7));
}
