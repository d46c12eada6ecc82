// The Audit and Doctor views against the seeded daemon: the chain paged with its seeded
// writes, verified intact (with an anchor), filtered by actor, an MCP client's reads in
// the read log; the doctor's grouped report, re-run. Fixes that would write outside the
// data directory (editor configs in the real HOME) are not clicked; the component and
// engine tests cover every fix.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { poll } from './harness/poll';
import type { E2EContext } from './harness/types';
import { dismissToasts } from './harness/toasts';

async function tidy(t: E2EContext) {
  await dismissToasts(t.page);
  await t.page.mouse.move(0, 0);
  await t.page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    for (const el of [document.scrollingElement, document.getElementById('main')])
      el?.scrollTo(0, 0);
  });
}

export async function auditVerifiesTheChainAndShowsClientReads(t: E2EContext) {
  // An agent reads over MCP, so the read log has something to show.
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${t.token}` } },
  });
  const agent = new Client({ name: 'e2e-reader', version: '1.0.0' });
  await agent.connect(transport);
  try {
    const r = await agent.callTool({ name: 'recall', arguments: { query: 'deploy' } });
    assert.ok(!r.isError, 'the agent recalled');
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await agent.close().catch(() => undefined);
  }

  const head = (await t.api('audit.list', { limit: 1 })) as { head: { seq: number } };
  assert.ok(head.head.seq >= 35, `the seed left ${head.head.seq} audit entries`);

  await t.open('/audit');
  const page = t.page;
  await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
  await page.getByTestId(`audit-row-${head.head.seq}`).waitFor();
  assert.equal(await page.locator('tbody tr[data-testid^="audit-row-"]').count(), 50);

  // Verify: intact, with an anchor.
  await page.getByRole('button', { name: 'Verify the chain' }).click();
  const verdict = page.getByTestId('audit-verdict');
  await poll(
    async () => (await verdict.textContent({ timeout: 1000 })) ?? '',
    (text) => /Chain intact: \d+ entries verified/.test(text),
    { message: 'the chain verified intact' },
  );
  const anchor = (await page.getByTestId('audit-anchor').textContent()) ?? '';
  assert.match(anchor, /^loci-anchor:1:default:\d+:[0-9a-f]{64}:/);
  // The anchor the page shows checks the chain through the API too.
  const again = (await t.api('audit.verify', { anchor })) as { ok: boolean };
  assert.equal(again.ok, true);

  await tidy(t);
  await t.checkA11y('the Audit view after a verification');
  await t.screenshot('audit');

  // Filter by actor: the seed wrote through the API as the observatory's person (ui).
  const actors = await page.getByLabel('Actor').locator('option').allTextContents();
  assert.ok(actors.length >= 2, `actors offered: ${actors.join(', ')}`);
  await page.getByLabel('Action').selectOption('memory.create');
  await poll(
    async () =>
      page.locator('tbody tr[data-testid^="audit-row-"] td:nth-child(4)').allTextContents(),
    (actions) => actions.length > 0 && actions.every((a) => a === 'memory.create'),
    { message: 'only memory.create rows' },
  );

  // Reads by clients.
  await page.getByRole('tab', { name: 'Reads by clients' }).click();
  await page.getByRole('button', { name: 'e2e-reader (MCP)' }).click();
  await page.getByText(/e2e-reader \(MCP\) read \d+ memories on/).waitFor();
  assert.ok((await page.locator('.au-reads li').count()) > 0, 'the memories read are listed');
  await t.checkA11y('the reads by clients');
}

export async function doctorReportsGroupedChecksAndReruns(t: E2EContext) {
  await t.open('/doctor');
  const page = t.page;
  await page.getByRole('heading', { name: 'Doctor', level: 1 }).waitFor();
  const verdict = page.getByTestId('doctor-verdict');
  await verdict.waitFor();
  for (const group of ['Database', 'Indexes', 'Embeddings', 'Audit', 'Endpoint', 'Disk']) {
    await page.getByRole('heading', { name: group, level: 2 }).waitFor();
  }
  // The daemon serves itself: its endpoint answers, on loopback, and the FTS index is in step.
  for (const id of [
    'http.reachable',
    'http.loopback',
    'fts.sync',
    'sqlite.integrity',
    'lock.owner',
  ]) {
    const text = (await page.getByTestId(`check-${id}`).textContent()) ?? '';
    assert.match(text, /^OK/, `${id}: ${text}`);
  }
  // The previous test verified the chain.
  assert.match((await page.getByTestId('check-audit.chain').textContent()) ?? '', /^OK.*Verified/);

  await page.getByRole('button', { name: 'Re-run' }).click();
  await verdict.waitFor();
  await page.getByLabel('Show only problems').check();
  assert.equal(await page.getByTestId('check-fts.sync').count(), 0);
  await page.getByLabel('Show only problems').uncheck();

  await tidy(t);
  await t.checkA11y('the Doctor view');
  await t.screenshot('doctor');
}

export async function auditEntryNamesItsMemoryAndOpensToTheDiff(t: E2EContext) {
  const { id } = await t.api('memory.remember', {
    content: 'The nightly export writes to the archive bucket at 02:00.',
    title: 'Nightly export schedule',
    tags: ['e2e'],
  });
  try {
    await t.api('memory.update', {
      id,
      content: 'The nightly export writes to the archive bucket at 03:30.',
    });
    const { entries } = await t.api('audit.list', { limit: 1 });
    const seq = entries[0]!.seq;
    assert.equal(entries[0]?.action, 'memory.update');
    await t.open('/audit');
    await t.page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    const row = t.page.getByTestId(`audit-row-${seq}`);
    // Named by its title (the id on hover), not by the raw id.
    const ref = row.getByRole('link', { name: 'Nightly export schedule' });
    await ref.waitFor();
    assert.ok((await ref.getAttribute('title'))?.includes(id));
    assert.ok(!(await row.innerText()).includes(id), 'the row shows the raw id');
    await row.getByRole('button', { name: `Entry ${seq}: open what it records` }).click();
    const detail = t.page.getByTestId(`audit-entry-detail-${seq}`);
    await detail.getByText('Version 1 → 2').waitFor();
    await detail.getByText('Before (fingerprint)').waitFor();
    await detail.locator('ins', { hasText: '03' }).first().waitFor();
    await detail.locator('del', { hasText: '02' }).first().waitFor();
    await t.checkA11y('an audit entry opened');
    await t.screenshot('audit-entry');
  } finally {
    await t.api('memory.erase', { id }).catch(() => undefined);
  }
}
