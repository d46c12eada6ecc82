// What is true now, against a real daemon, in a store of its own (the seeded one stays as
// the other specs count it): a port that changed makes a conflict at write time; its
// card shows both memories with 8080 and 9090 marked; "Newer replaces older" hides the old
// one from recall ("1 older version hidden") and from "True now", its history says it
// was superseded and the Atlas draws the supersession; Undo opens the conflict again,
// recall finds both (each marked with the conflict) and the Atlas draws the contradiction.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { poll } from './harness/poll';
import { dismissToasts } from './harness/toasts';
import type { E2EContext } from './harness/types';

const STORE = 'conflicts-e2e';
const OLD = 'The billing service listens on port 8080.';
const NEW = 'The billing service listens on port 9090.';

/** The two memories and their conflict, made by the first test, read by the next. */
let made: { older: string; newer: string; conflict: string } | null = null;

/** Same-document navigation: a second t.open() would not read the token link again. */
async function go(page: Page, hash: string) {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
}

/** For the documentation's screenshot: no toasts, no focus ring, the view from its top. */
async function tidy(page: Page) {
  await dismissToasts(page);
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    for (const el of [document.scrollingElement, document.getElementById('main')])
      el?.scrollTo(0, 0);
  });
}

async function openStore(t: E2EContext, route: string) {
  await t.page.addInitScript((name) => window.localStorage.setItem('loci.store', name), STORE);
  await t.open(route);
}

export async function aChangedPortIsAConflictAndNewerReplacesOlderHidesTheOldOne(t: E2EContext) {
  const { page } = t;
  await t.api('store.create', { name: STORE });
  const older = await t.api('memory.remember', { store: STORE, content: OLD });
  const newer = await t.api('memory.remember', { store: STORE, content: NEW });
  // One remember finds its contradictions synchronously.
  const mark = newer.conflicts?.[0];
  assert.ok(mark, `remember reports the conflict: ${JSON.stringify(newer)}`);
  assert.equal(mark.id, older.id);
  assert.equal(mark.current, newer.id);
  made = { older: older.id, newer: newer.id, conflict: mark.conflict };

  await openStore(t, '/conflicts');
  await page.getByRole('heading', { name: 'Conflicts', level: 1 }).waitFor();
  // The navigation counts what waits for a decision.
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Conflicts 1 open' })
    .waitFor();
  await page.getByRole('tab', { name: 'Open (1)' }).waitFor();
  const card = page.locator(`[data-conflict="${mark.conflict}"]`);
  await card.waitFor();
  const olderPane = card.getByRole('region', { name: /^Older: / });
  const newerPane = card.getByRole('region', { name: /^Newer: / });
  assert.equal(await olderPane.locator('mark').textContent(), '8080');
  assert.equal(await newerPane.locator('mark').textContent(), '9090');
  assert.equal(await olderPane.getByTestId('conflict-older-content').textContent(), OLD);
  await newerPane.getByText('holds now').waitFor();
  assert.equal(await olderPane.getByText('holds now').count(), 0);
  assert.equal(
    await olderPane.getByRole('link').first().getAttribute('href'),
    `#/memories/${older.id}`,
  );
  await card.getByRole('list', { name: 'What differs' }).getByText('8080').waitFor();
  await t.checkA11y('Conflicts');
  await tidy(page);
  await t.screenshot('conflicts');

  // Newer replaces older.
  await card.getByRole('button', { name: 'Newer replaces older' }).click();
  await page.getByText('Conflict resolved: one replaces the other.').waitFor();
  await page.getByRole('region', { name: 'Nothing contradicts anything' }).waitFor();
  const decided = await t.api('conflict.list', { store: STORE, state: 'superseded' });
  assert.equal(decided.conflicts[0]?.id, mark.conflict);
  assert.equal(decided.conflicts[0]?.current, newer.id);
  assert.equal(decided.conflicts[0]?.resolution?.by, 'ui');
  // The navigation's count follows the engine's event.
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByTestId('conflicts-badge')
    .waitFor({ state: 'detached' });

  // Recall: the old one is hidden, and the answer says so.
  await go(page, '#/recall?q=billing%20service%20port');
  const results = page.getByRole('region', { name: /^Results/ });
  await results.locator(`[data-hit="${newer.id}"]`).waitFor();
  await results.getByText(/1 older version hidden/).waitFor();
  assert.equal(await results.locator(`[data-hit="${older.id}"]`).count(), 0);

  // The old memory's history: superseded, by whom, and it no longer holds.
  await go(page, `#/memories/${older.id}`);
  const detail = page.getByTestId('memory-detail');
  const timeline = detail.getByRole('list', { name: 'History, oldest first' });
  await timeline.locator('[data-kind="superseded"]').waitFor();
  await timeline.locator('[data-kind="superseded"]').getByText('Superseded').waitFor();
  await detail.getByTestId('memory-holds').getByText('no longer holds').waitFor();
  const conflicts = detail.getByRole('list', { name: 'Conflicts it took part in' });
  assert.equal(
    await conflicts.getByRole('link', { name: /See the decision/ }).getAttribute('href'),
    `#/conflicts/${mark.conflict}?tab=resolved`,
  );

  // "True now" leaves it out of the list; "All memories" has both.
  await detail.getByRole('button', { name: 'Close the details (Esc)' }).click();
  const which = page.getByRole('group', { name: 'Which memories' });
  await which.getByRole('button', { name: 'True now' }).click();
  await poll(
    async () => (await page.getByTestId('memories-total').textContent())?.trim(),
    (text) => text === '1 memory',
    { message: 'one memory true now' },
  );
  await which.getByRole('button', { name: 'All memories' }).click();
  await poll(
    async () => (await page.getByTestId('memories-total').textContent())?.trim(),
    (text) => text === '2 memories',
    { message: 'both memories in all' },
  );

  // The Atlas draws the supersession with its own key.
  await go(page, '#/atlas');
  const key = page.getByRole('list', { name: 'Link types' });
  await key.locator('[data-link="supersedes"]').waitFor();
  // The decision took the detector's contradicts link away.
  assert.equal(await key.locator('[data-link="contradicts"]').count(), 0);
}

export async function undoingTheDecisionOpensTheConflictAgain(t: E2EContext) {
  const { page } = t;
  if (!made) t.skip('the conflict of the previous test was not made');
  const { older, newer, conflict } = made;
  await openStore(t, '/conflicts?tab=resolved');
  await page.getByRole('list', { name: 'Decided conflicts' }).waitFor();
  const card = page.locator(`[data-conflict="${conflict}"]`);
  await card
    .getByTestId('conflict-decision')
    .getByText(/replaces/)
    .waitFor();
  await card.getByText(/Decided by ui/).waitFor();
  await card.getByRole('button', { name: 'Undo' }).click();
  await page.getByText('Decision undone: the conflict is open again.').waitFor();
  await poll(
    () => t.api('conflict.list', { store: STORE, state: 'open' }),
    (r) => r.open === 1 && r.conflicts[0]?.id === conflict,
    { message: 'the conflict to be open again' },
  );

  await page.getByRole('tab', { name: /^Open/ }).click();
  await page.getByRole('tab', { name: 'Open (1)' }).waitFor();
  await card.getByRole('button', { name: 'Newer replaces older' }).waitFor();
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Conflicts 1 open' })
    .waitFor();

  // The old memory holds again: recall hides nothing, and both carry the open conflict.
  const answer = await t.api('memory.recall', {
    store: STORE,
    query: 'billing service port',
    rehearse: false,
  });
  assert.ok(!answer.hidden_versions, `nothing hidden: ${JSON.stringify(answer.hidden_versions)}`);
  assert.ok(answer.results.some((r) => r.id === older));
  await go(page, '#/recall?q=billing%20service%20listens%20on%20port');
  const results = page.getByRole('region', { name: /^Results/ });
  await results.locator(`[data-hit="${older}"]`).waitFor();
  const oldHit = results.locator(`[data-hit="${older}"]`);
  await oldHit.getByText(/current: the other/).waitFor();
  assert.equal(
    await oldHit.getByRole('link', { name: 'Resolve' }).getAttribute('href'),
    `#/conflicts/${conflict}`,
  );
  await results
    .locator(`[data-hit="${newer}"]`)
    .getByText(/current: this one/)
    .waitFor();

  // The Atlas: the contradiction is drawn again, the supersession is gone.
  await go(page, '#/atlas');
  const key = page.getByRole('list', { name: 'Link types' });
  await key.locator('[data-link="contradicts"]').waitFor();
  assert.equal(await key.locator('[data-link="supersedes"]').count(), 0);
}
