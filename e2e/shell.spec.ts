// The observatory's shell against a real daemon: the token link, the connect screen, the
// command palette, live updates and accessibility, with the Overview as the first view.
import assert from 'node:assert/strict';
import { expectText, poll } from './harness/poll';
import { SEEDED } from './harness/seed';
import type { E2EContext } from './harness/types';

const stat = (t: E2EContext, name: string) => t.page.locator(`[data-stat="${name}"]`);
const overviewHeading = (t: E2EContext) =>
  t.page.getByRole('heading', { name: 'Overview', level: 1 });

export async function tokenLinkCleansAddressAndShowsSeededCounts(t: E2EContext) {
  await t.page.goto(t.observatoryUrl);
  await overviewHeading(t).waitFor();
  const url = await poll(
    async () => t.page.url(),
    (u) => u.endsWith('/#/overview'),
    { message: 'the address to become #/overview' },
  );
  assert.ok(!url.includes(t.token), 'the token left the address bar');
  assert.equal(await t.page.evaluate(() => window.sessionStorage.getItem('loci.token')), t.token);
  await expectText(stat(t, 'live'), String(SEEDED.live));
  await expectText(stat(t, 'deleted'), String(SEEDED.deleted));
  await expectText(stat(t, 'quarantined'), String(SEEDED.quarantined));
  await expectText(stat(t, 'pinned'), String(SEEDED.pinned));
  for (const kind of ['procedural', 'semantic', 'episodic'] as const)
    await expectText(stat(t, `kind.${kind}`), String(SEEDED.byKind(kind)));
  // A reload keeps working: the token is in this tab's session storage.
  await t.page.reload();
  await expectText(stat(t, 'live'), String(SEEDED.live));
  assert.ok(!t.page.url().includes(t.token));
}

export async function wrongTokenShowsConnectScreen(t: E2EContext) {
  const wrong = 'this-is-not-the-token-of-this-daemon-000000';
  await t.page.goto(`${t.baseUrl}/#token=${wrong}`);
  await t.page.getByRole('heading', { name: 'Connect to Loci' }).waitFor();
  assert.ok(!t.page.url().includes(wrong), 'the wrong token left the address bar');
  await t.page.getByText("refused this page's token").waitFor();
  await t.page.getByText('loci token show').waitFor();
  assert.equal(await t.page.evaluate(() => window.sessionStorage.getItem('loci.token')), null);
  await t.checkA11y('connect screen');
  await t.screenshot('connect-screen');
  // Pasting the right token connects.
  await t.page.getByLabel('Access token').fill(t.token);
  await t.page.getByRole('button', { name: 'Connect' }).click();
  await overviewHeading(t).waitFor();
  await expectText(stat(t, 'live'), String(SEEDED.live));
}

export async function noTokenExplainsHowToConnect(t: E2EContext) {
  await t.page.goto(`${t.baseUrl}/`);
  await t.page.getByRole('heading', { name: 'Connect to Loci' }).waitFor();
  await t.page.getByText("needs the daemon's access token").waitFor();
  await t.page.getByText('loci serve', { exact: true }).waitFor();
}

export async function quickSearchFindsASeededMemory(t: E2EContext) {
  await t.open();
  await stat(t, 'live').waitFor();
  await t.page.keyboard.press('Control+k');
  const dialog = t.page.getByRole('dialog', { name: 'Search memories and views' });
  await dialog.waitFor();
  await t.page.keyboard.type('roll back a release');
  const option = dialog.getByRole('option', { name: /Rolling back a release/ });
  await option.waitFor();
  await t.checkA11y('command palette');
  await t.screenshot('command-palette');
  // Walk down to it with the arrows, then open it.
  await poll(
    async () => {
      if ((await option.getAttribute('aria-selected')) === 'true') return true;
      await t.page.keyboard.press('ArrowDown');
      return false;
    },
    (selected) => selected,
    { message: 'the rollback memory to be selected', timeoutMs: 5_000 },
  );
  await t.page.keyboard.press('Enter');
  await poll(
    async () => t.page.url(),
    (u) => u.endsWith(`#/memories/${t.ids.rollback}`),
    { message: 'the memory route' },
  );
  await dialog.waitFor({ state: 'hidden' });
}

export async function overviewUpdatesLiveWithoutReload(t: E2EContext) {
  await t.open();
  const live = stat(t, 'live');
  const before = Number(await expectText(live, String(SEEDED.live)));
  await t.page.evaluate(() => {
    (window as unknown as { marker: string }).marker = 'same page';
  });
  const { id } = await t.api('memory.remember', {
    content: 'Written through the HTTP API while the observatory is open.',
    tags: ['e2e'],
  });
  await expectText(live, String(before + 1));
  await t.api('memory.erase', { id });
  await expectText(live, String(before));
  const marker = await t.page.evaluate(() => (window as unknown as { marker?: string }).marker);
  assert.equal(marker, 'same page', 'the page was not reloaded');
}

export async function shellAndOverviewAreAccessible(t: E2EContext) {
  await t.open();
  await expectText(stat(t, 'live'), String(SEEDED.live));
  await t.checkA11y('shell and Overview');
  await t.screenshot('overview');
}

export async function overviewIsHomeNeedsYouAndTilesLinkToTheirViews(t: E2EContext) {
  await t.open();
  await expectText(stat(t, 'live'), String(SEEDED.live));
  const needs = t.page.getByTestId('needs-you');
  // The seed holds a quarantined memory: it waits for the person, and its link filters.
  const quarantine = needs.locator('[data-need="quarantine"]');
  await quarantine.waitFor();
  assert.match(await quarantine.innerText(), /1 memory in quarantine/);
  const attention = await t.api('stats.attention', {});
  const shown = await needs
    .locator('[data-need]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-need')));
  assert.deepEqual(
    shown,
    attention.items.map((i) => i.id),
    'the card lists what the engine says, worst first',
  );
  // Once the Quality lab has runs (the quality spec made one), their trend is on the home.
  const runs = (await t.api('eval.runs', {})).runs.filter(
    (r) => Object.keys(r.config).length === 0,
  );
  if (runs.length) {
    const card = t.page.getByTestId('overview-quality');
    await card
      .getByText(/nDCG@10/)
      .first()
      .waitFor();
    assert.match(await card.innerText(), new RegExp(`Latest of ${runs.length} runs?`));
  } else {
    assert.equal(await t.page.getByTestId('overview-quality').count(), 0);
  }
  await t.screenshot('overview-home');
  await quarantine.getByRole('link').click();
  await t.page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
  await expectText(t.page.getByTestId('memories-total'), `${SEEDED.quarantined} memory`);
  assert.ok(t.page.url().endsWith('#/memories'), 'the filter query is dropped once applied');

  // Every tile is a link to the filtered list. (The token link again, in the open tab: taken
  // from the fragment and cleaned away, the Overview shown — never the token on screen.)
  await t.open();
  await overviewHeading(t).waitFor();
  assert.ok(!t.page.url().includes(t.token), 'the token stays in the address bar');
  await t.page.getByRole('link', { name: 'Pinned', exact: true }).click();
  await t.page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
  await expectText(
    t.page.getByTestId('memories-total'),
    `${SEEDED.pinned} ${SEEDED.pinned === 1 ? 'memory' : 'memories'}`,
  );

  // A store a few minutes old: the time axis spans a week, not 90 flat days.
  await t.open();
  await t.page.locator('[data-stat="created.window"]').waitFor();
  await t.page.getByText(/created in the last 7 days/).waitFor();
}
