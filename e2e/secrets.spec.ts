// Secrets on screen: a quarantined memory whose title and text hold a Slack bot token and an
// AWS key id is masked in the list, the detail, the Atlas and the Recall lab — nothing the
// daemon sends the page holds the secret — until Reveal (an audited read by `ui`), and
// Redact replaces it with a fingerprint in every version and releases the memory to agents.
// The memory is erased at the end, for the specs that follow.
import assert from 'node:assert/strict';
import type { Page, Response } from 'playwright-core';
import { poll } from './harness/poll';
import type { E2EContext } from './harness/types';

// Built at run time, so that no scanner of this repository takes the fixture for a leak.
const SLACK = ['xoxb', '2417786301', '9912054419273', 'Qm7NcY4rTb2Vx9LpW8sKe3Hd'].join('-');
const AWS = ['AKIA', 'Q7ZL4N2WXC5R6T3M'].join('');
const CONTENT = `Alerts bot ${SLACK} posts to #ops; the backup job signs in as ${AWS}.`;

/** Every API answer the page receives, as text (the event stream is left out). */
function recordAnswers(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (r: Response) => {
    if (!r.url().includes('/api/') || r.url().includes('/api/events')) return;
    void r.text().then(
      (b) => bodies.push(b),
      () => undefined,
    );
  });
  return bodies;
}

function assertNoSecret(bodies: string[], where: string) {
  const leaked = bodies.filter((b) => b.includes(SLACK) || b.includes(AWS));
  assert.equal(
    leaked.length,
    0,
    `${where}: the page was sent the secret:\n${leaked[0]?.slice(0, 300)}`,
  );
}

export async function quarantinedSecretIsMaskedRevealedAndRedacted(t: E2EContext) {
  const { id, quarantined } = await t.api('memory.remember', { content: CONTENT, tags: ['e2e'] });
  assert.equal(quarantined, true, 'the memory should be quarantined');
  const { page } = t;
  const bodies = recordAnswers(page);
  try {
    // The list: the row is there, its title and preview masked.
    await t.open('/memories');
    await page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
    const row = page.getByRole('row', { name: /Alerts bot/ });
    await row.waitFor();
    await row.locator('.secret-mask').first().waitFor();
    assert.ok(!(await row.innerText()).includes(SLACK));

    // The detail: masked, with Reveal and Redact.
    await row.click();
    const detail = page.getByTestId('memory-detail');
    const content = detail.getByTestId('memory-content');
    await content.locator('.secret-mask').first().waitFor();
    assert.equal(await content.locator('.secret-mask').count(), 2, 'both secrets masked');
    assert.ok(!(await detail.innerText()).includes(SLACK));
    await t.checkA11y('a masked quarantined memory');
    await t.screenshot('memory-secret-masked');

    // The Atlas and the Recall lab get the masked text too.
    await page.evaluate(() => {
      window.location.hash = '#/atlas';
    });
    await page.getByRole('heading', { name: 'Atlas', level: 1 }).waitFor();
    await poll(
      async () => bodies.some((b) => b.includes('"nodes"')),
      (v) => v,
      { message: 'the atlas to load' },
    );
    const lab = await t.api('memory.recall', {
      query: 'alerts bot posts to ops',
      include_quarantined: true,
    });
    assert.ok(lab.results.some((r) => r.id === id && r.quarantined));
    assert.ok(!JSON.stringify(lab).includes(SLACK), 'the recall lab answer holds the secret');
    assertNoSecret(bodies, 'before Reveal');

    // Reveal: the text in clear, and an entry `memory.reveal` by ui in the audit chain.
    await page.evaluate((mid) => {
      window.location.hash = `#/memories/${mid}`;
    }, id);
    await content.locator('.secret-mask').first().waitFor();
    await detail.getByRole('button', { name: 'Reveal' }).click();
    await poll(
      async () => content.innerText(),
      (text) => text.includes(SLACK) && text.includes(AWS),
      { message: 'the revealed text' },
    );
    const audit = await t.api('audit.list', { action: 'memory.reveal' });
    const entry = audit.entries.find((e) => e.target === id);
    assert.equal(entry?.actor, 'ui', 'the reveal is audited as a read by ui');
    await detail.getByRole('button', { name: 'Hide' }).click();
    await content.locator('.secret-mask').first().waitFor();
    assert.ok(!(await content.innerText()).includes(SLACK));

    // Redact: placeholders with fingerprints, trusted, no secret in any version.
    await detail.getByRole('button', { name: 'Redact…' }).click();
    const dialog = page.getByRole('dialog', { name: /Redact the secret/ });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Redact and release' }).click();
    await poll(
      async () => content.innerText(),
      (text) => text.includes('[redacted '),
      { message: 'the redacted text' },
    );
    const after = await t.api('memory.get', { id });
    assert.equal(after.trust, 'trusted');
    assert.match(after.content, /\[redacted [a-z-]+ [0-9a-f]{16}\]/);
    assert.ok(!after.content.includes(SLACK) && !after.content.includes(AWS));
    const history = await t.api('memory.history', { id });
    assert.ok(!JSON.stringify(history).includes(SLACK), 'an earlier version holds the secret');
    await detail.getByTestId('quarantine-banner').waitFor({ state: 'hidden' });
  } finally {
    await t.api('memory.erase', { id }).catch(() => undefined);
  }
}
