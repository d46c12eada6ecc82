// The Memories view against a real daemon: the list and its filters, search through
// recall, the detail panel, editing with versions (diff and restore), forget with Undo,
// live updates and accessibility. Every change is undone, for the specs that follow.
import assert from 'node:assert/strict';
import { expectText, poll } from './harness/poll';
import { MEMORIES, SEEDED } from './harness/seed';
import type { E2EContext } from './harness/types';

const title = (key: string) => {
  const m = MEMORIES.find((x) => x.key === key);
  if (!m) throw new Error(`no seed memory ${key}`);
  return m;
};
const grid = (t: E2EContext) => t.page.getByRole('grid');
const total = (t: E2EContext) => t.page.getByTestId('memories-total');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const row = (t: E2EContext, text: string) =>
  grid(t).getByRole('row', { name: new RegExp(escape(text)) });
const detail = (t: E2EContext) => t.page.getByTestId('memory-detail');
const countLabel = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;

async function openList(t: E2EContext) {
  await t.open('/memories');
  await t.page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
  await expectText(total(t), countLabel(SEEDED.live));
}

export async function searchFindsASeededMemoryAndOpensIt(t: E2EContext) {
  await openList(t);
  const standup = title('standup');
  await t.page.getByRole('searchbox', { name: 'Search memories' }).fill('stand-up moved');
  await row(t, standup.title).waitFor();
  await row(t, standup.title).click();
  await poll(
    async () => t.page.url(),
    (u) => u.endsWith(`#/memories/${t.ids.standup}`),
    { message: 'the memory route' },
  );
  await detail(t).getByRole('heading', { name: standup.title }).waitFor();
  await expectText(detail(t).getByTestId('memory-content'), standup.content);
  // Esc closes the panel and the address follows.
  await t.page.keyboard.press('Escape');
  await detail(t).waitFor({ state: 'hidden' });
  await poll(
    async () => t.page.url(),
    (u) => u.endsWith('#/memories'),
    { message: 'the list route' },
  );
  // The keyboard: j moves the cursor, x selects, Enter opens, Esc closes then clears.
  await t.page.getByRole('searchbox', { name: 'Search memories' }).fill('');
  await expectText(total(t), countLabel(SEEDED.live));
  await grid(t).focus();
  await t.page.keyboard.press('j');
  await poll(
    async () => grid(t).getAttribute('aria-activedescendant'),
    (id) => id === 'mem-row-1',
    { message: 'the cursor on the second row' },
  );
  await t.page.keyboard.press('x');
  await t.page.getByRole('toolbar', { name: 'Actions on the selected memories' }).waitFor();
  assert.equal(await t.page.locator('#mem-row-1').getAttribute('aria-selected'), 'true');
  await t.page.keyboard.press('Enter');
  await detail(t).waitFor();
  await t.page.keyboard.press('Escape');
  await detail(t).waitFor({ state: 'hidden' });
  await t.page.keyboard.press('Escape');
  await t.page
    .getByRole('toolbar', { name: 'Actions on the selected memories' })
    .waitFor({ state: 'hidden' });
}

export async function editShowsTheNewVersionWithADiffAndRestoresTheOld(t: E2EContext) {
  const standup = title('standup');
  await t.open(`/memories/${t.ids.standup}`);
  await detail(t).getByRole('heading', { name: standup.title }).waitFor();
  await detail(t).getByRole('button', { name: 'Edit' }).click();
  const text = detail(t).getByRole('textbox', { name: /Text/ });
  const edited = standup.content.replace('June', 'July');
  assert.notEqual(edited, standup.content);
  try {
    await text.fill(edited);
    await detail(t).getByRole('button', { name: 'Save', exact: true }).click();
    await t.page.getByText('Saved as version 2.').waitFor();
    await expectText(detail(t).getByTestId('memory-content'), edited);
    const versions = detail(t).getByRole('list', { name: 'Versions, newest first' });
    await versions.getByText('v2').waitFor();
    await versions.getByRole('button', { name: /v1/ }).waitFor();
    // The diff shows what the edit removed and added.
    const diff = detail(t).getByTestId('version-diff');
    await expectText(diff.locator('del'), '[removed: June]');
    await expectText(diff.locator('ins'), '[added: July]');
    await t.checkA11y('a version diff');
    await detail(t).getByRole('button', { name: 'Restore version 1' }).click();
    await t.page.getByText('Restored version 1 as version 3.').waitFor();
    await expectText(detail(t).getByTestId('memory-content'), standup.content);
    const after = await t.api('memory.get', { id: t.ids.standup as string });
    assert.equal(after.content, standup.content);
    assert.equal(after.version, 3);
  } finally {
    // Whatever happened above, the next spec finds the seeded text.
    const now = await t.api('memory.get', { id: t.ids.standup as string });
    if (now.content !== standup.content)
      await t.api('memory.update', { id: t.ids.standup as string, content: standup.content });
  }
}

export async function forgetAndUndoFromTheDetail(t: E2EContext) {
  const mood = title('mood');
  await openList(t);
  await row(t, mood.title).click();
  await detail(t).getByRole('heading', { name: mood.title }).waitFor();
  await detail(t).getByRole('button', { name: 'Forget' }).click();
  const toast = t.page.getByRole('listitem').filter({ hasText: `Forgot “${mood.title}”` });
  await toast.waitFor();
  // Gone from the list (it hides forgotten memories), kept in the panel with a way back.
  await expectText(total(t), countLabel(SEEDED.live - 1));
  await detail(t).getByRole('button', { name: 'Restore' }).waitFor();
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expectText(total(t), countLabel(SEEDED.live));
  await detail(t).getByRole('button', { name: 'Forget' }).waitFor();
  const back = await t.api('memory.get', { id: t.ids.mood as string });
  assert.equal(back.deleted_at, null);
}

export async function filtersByTagAndByForgotten(t: E2EContext) {
  await openList(t);
  const incident = MEMORIES.filter((m) => m.tags.includes('incident'));
  const tagInput = t.page.getByRole('textbox', { name: /Filter by tag/ });
  await tagInput.fill('incident');
  await tagInput.press('Enter');
  await expectText(total(t), countLabel(incident.length));
  for (const m of incident) await row(t, m.title).waitFor();
  await t.page.getByRole('button', { name: 'Remove the tag filter “incident”' }).click();
  await expectText(total(t), countLabel(SEEDED.live));

  await t.page.getByRole('combobox', { name: 'Forgotten' }).selectOption('only');
  await expectText(total(t), countLabel(SEEDED.deleted));
  await row(t, title('typo').title).waitFor();
  await row(t, title('old-ci').title).waitFor();
  await t.page.getByRole('button', { name: /^Clear filter/ }).click();
  await expectText(total(t), countLabel(SEEDED.live));
}

export async function conversationFiltersListOneSpeakerAndASessionInOrder(t: E2EContext) {
  // A short stand-up, as an agent would store it: one memory per turn, with when it was
  // said, who said it and the session it belongs to (stored in reverse to prove the order).
  const turns = [
    ['Priya', 'Marco starts today, welcome Marco!', '2026-03-02T09:05:00Z'],
    ['Aiko', 'I am his onboarding buddy this week', '2026-03-02T09:06:00Z'],
    ['Priya', 'first ticket for him is the dark mode toggle', '2026-03-02T09:07:00Z'],
  ] as const;
  const { results } = await t.api('memory.rememberMany', {
    items: [...turns].reverse().map(([speaker, text, at]) => ({
      content: `${speaker}: ${text}`,
      speaker,
      session: 'standup-2026-03-02',
      occurred_at: at,
      tags: ['e2e'],
    })),
  });
  try {
    await t.open('/memories');
    await t.page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
    await expectText(total(t), countLabel(SEEDED.live + 3));
    await t.page.getByRole('group', { name: 'Conversations' }).waitFor();
    await t.page.getByRole('combobox', { name: 'Speaker' }).selectOption('Priya');
    await expectText(total(t), countLabel(2));
    await row(t, 'Priya: first ticket for him').waitFor();
    await row(t, 'Priya: Marco starts today').click();
    await t.page.getByRole('button', { name: 'Show the whole session' }).click();
    // The session, every speaker, in the order it was said.
    await expectText(total(t), countLabel(3));
    const ordered = await poll(
      async () =>
        (await grid(t).getByRole('row').allTextContents()).filter((r) => r.includes(': ')),
      (rows) => rows.length === 3,
      { message: 'the three turns' },
    );
    assert.match(ordered[0] as string, /Marco starts today/);
    assert.match(ordered[1] as string, /onboarding buddy/);
    assert.match(ordered[2] as string, /dark mode toggle/);
    await t.screenshot('memories-conversation');
    await t.page.getByRole('button', { name: /^Clear / }).click();
    await expectText(total(t), countLabel(SEEDED.live + 3));
  } finally {
    for (const r of results) await t.api('memory.erase', { id: r.id });
  }
}

export async function aMemoryAnAgentAddsAppearsWithoutReload(t: E2EContext) {
  await openList(t);
  const { id } = await t.api('memory.remember', {
    title: 'Written while the Memories view is open',
    content: 'An agent wrote this while the observatory showed the list of memories.',
    tags: ['e2e'],
  });
  try {
    await row(t, 'Written while the Memories view is open').waitFor();
    await expectText(total(t), countLabel(SEEDED.live + 1));
  } finally {
    await t.api('memory.erase', { id });
  }
  await expectText(total(t), countLabel(SEEDED.live));
}

export async function memoriesViewIsAccessibleWithThePanelOpen(t: E2EContext) {
  const deploy = title('deploy');
  await t.open(`/memories/${t.ids.deploy}`);
  await expectText(total(t), countLabel(SEEDED.live));
  await detail(t).getByRole('heading', { name: deploy.title }).waitFor();
  await detail(t)
    .getByRole('link', { name: title('rollback').title })
    .waitFor();
  await grid(t).focus();
  await t.checkA11y('Memories list with the detail panel');
  await t.screenshot('memories');
  // Erasing asks first, naming the memory; Cancel has the focus.
  await detail(t).getByRole('button', { name: 'Erase…' }).click();
  const dialog = t.page.getByRole('dialog', { name: `Erase “${deploy.title}” for good?` });
  await dialog.waitFor();
  await t.checkA11y('the erase confirmation');
  await t.page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await t.api('memory.get', { id: t.ids.deploy as string })).id, t.ids.deploy);
}

export async function smallWindowFoldsTheFiltersIntoOneRow(t: E2EContext) {
  await t.page.setViewportSize({ width: 800, height: 700 });
  await openList(t);
  const filters = t.page.locator('.mem-filters');
  const folded = await filters.boundingBox();
  assert.ok(folded && folded.height < 60, `the filters take ${folded?.height} px at 800 px`);
  assert.equal(await t.page.getByLabel('Trust').count(), 0, 'the secondary filters are folded');
  await t.page.getByRole('button', { name: 'Filters', exact: true }).click();
  await t.page.getByLabel('Trust').selectOption('quarantined');
  await expectText(total(t), countLabel(SEEDED.quarantined));
  await t.page.getByRole('button', { name: 'Fewer filters' }).click();
  // Folded again, the count of filters in use stays on the button.
  await t.page.getByRole('button', { name: 'Filters (1)' }).waitFor();
  await t.page.getByRole('button', { name: 'Clear filter' }).click();
  await expectText(total(t), countLabel(SEEDED.live));
}
