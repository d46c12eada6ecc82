// Dreams against a real daemon, in a store of its own (the seeded one stays as the other
// specs count it): a dry run that changes nothing, a real cycle whose merge proposal
// waits in the review inbox with its evidence and diff, and accepting it from the view.
import assert from 'node:assert/strict';
import { poll } from './harness/poll';
import type { E2EContext } from './harness/types';
import { dismissToasts } from './harness/toasts';

const STORE = 'dreams-e2e';

export async function dreamsDryRunThenACycleThenAcceptAProposal(t: E2EContext) {
  const { page } = t;
  await t.api('store.create', { name: STORE });
  const text =
    'Deploy the billing service from the ops repository: staging first, then production, and check the dashboard';
  const { results } = await t.api('memory.rememberMany', {
    store: STORE,
    items: [
      { content: text },
      { content: `${text}\nPage on-call.` },
      { content: 'Kafka consumers in billing commit offsets after each batch' },
      { content: 'The search indexer reads from Kafka and commits offsets per batch' },
      { content: 'Friday afternoons are for documentation' },
    ],
  });
  const [keep, drop] = results.map((r) => r.id);
  await page.addInitScript((name) => window.localStorage.setItem('loci.store', name), STORE);
  await t.open('/dreams');
  await page.getByRole('heading', { name: 'Dreams', level: 1 }).waitFor();
  await page.getByRole('region', { name: 'No dream yet' }).waitFor();

  // A dry run: every phase reports, nothing is written, nothing waits for review.
  await page.getByRole('button', { name: 'Dry run', exact: true }).first().click();
  const dryDetail = page.getByRole('region', { name: /^Cycle / });
  await dryDetail.getByRole('heading', { name: /Dry run/ }).waitFor();
  await dryDetail.getByText('Merge', { exact: true }).waitFor();
  // Its changes name their memories (title, id on hover), never by an id fragment.
  const refs = dryDetail.locator('a.memref');
  await refs.first().waitFor();
  assert.match((await refs.first().getAttribute('title')) ?? '', /[0-9A-HJKMNP-TV-Z]{26}/);
  assert.doesNotMatch(
    await dryDetail.innerText(),
    /(^|[\s→])[0-9A-HJKMNP-TV-Z]{8}(?=\s|$)/m,
    'the dry run lists id fragments',
  );
  const afterDry = await t.api('review.list', { store: STORE });
  assert.equal(afterDry.counts.pending, 0, 'a dry run proposes nothing for real');
  assert.equal((await t.api('dream.list', { store: STORE })).cycles[0]?.dry_run, true);

  // A real cycle: the merge goes to the inbox (nothing is merged yet).
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByRole('tab', { name: 'Review inbox (1)' }).waitFor();
  const cycles = await t.api('dream.list', { store: STORE });
  assert.equal(cycles.cycles.length, 2);
  assert.equal(cycles.cycles[0]?.status, 'done');
  assert.equal((await t.api('memory.get', { store: STORE, id: drop! })).deleted_at, null);
  await page.getByRole('region', { name: `Cycle ${cycles.cycles[0]!.id}` }).waitFor();

  await page.getByRole('tab', { name: 'Review inbox (1)' }).click();
  const item = page.getByRole('listitem', { name: /^Merge “/ });
  await item.waitFor();
  await item.getByLabel('Changes to the existing text').getByText('+ Page on-call.').waitFor();
  await item
    .getByRole('link', { name: /Deploy the billing service/ })
    .first()
    .waitFor();
  await t.checkA11y('Dreams');
  // The toasts of the two runs would cover the inbox in the screenshot.
  await dismissToasts(page);
  await t.screenshot('dreams');

  await item.getByRole('button', { name: 'Accept', exact: true }).click();
  await page.getByText('Accepted 1 proposal.').waitFor();
  await poll(
    () => t.api('review.list', { store: STORE, state: 'accepted' }),
    (r) => r.items.length === 1,
    { message: 'the proposal to be accepted' },
  );
  const merged = await t.api('memory.get', { store: STORE, id: keep! });
  assert.match(merged.content, /Page on-call\.$/);
  assert.notEqual(
    (await t.api('memory.get', { store: STORE, id: drop!, include_deleted: true })).deleted_at,
    null,
  );
  const audit = await t.api('audit.list', { store: STORE, action: 'review.accept' });
  assert.equal(audit.entries[0]?.actor, 'ui');
}
