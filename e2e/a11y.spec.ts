// Every view, as it opens on the seeded store, checked with axe-core in the light and the
// dark scheme: no serious or critical violation anywhere (the specs of each view check
// their states with panels and dialogs open).
import type { E2EContext } from './harness/types';

const VIEWS: [id: string, title: string][] = [
  ['overview', 'Overview'],
  ['memories', 'Memories'],
  ['recall', 'Recall lab'],
  ['atlas', 'Atlas'],
  ['conflicts', 'Conflicts'],
  ['ingest', 'Ingest'],
  ['dreams', 'Dreams'],
  ['journals', 'Journals'],
  ['activity', 'Activity'],
  ['quality', 'Quality'],
  ['connect', 'Connect'],
  ['audit', 'Audit'],
  ['doctor', 'Doctor'],
  ['settings', 'Settings'],
];

async function checkViews(t: E2EContext, views: [string, string][]) {
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
