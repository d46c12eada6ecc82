// Connect, Settings and the Overview's charts against the seeded daemon: the MCP URL and
// an editor's entry (token masked, reveal and copy), the configuration check, a live MCP
// client, stores created, renamed and switched, and the charts drawn from real data.
// "Write config" and token rotation are not driven here: the daemon reads this machine's
// real HOME (writing would edit real editor configs) and every spec shares its token;
// the component tests cover both.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectText, poll } from './harness/poll';
import type { E2EContext } from './harness/types';
import { dismissToasts } from './harness/toasts';

const MASK = '•'.repeat(12);
const STATUSES = new Set(['ok', 'missing', 'stale', 'duplicate', 'invalid', 'not-installed']);

/** For the documentation's screenshots: no toasts, no focus ring, the view from its top. */
async function tidy(t: E2EContext) {
  await dismissToasts(t.page);
  await t.page.mouse.move(0, 0);
  await t.page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    for (const el of [document.scrollingElement, document.getElementById('main')])
      el?.scrollTo(0, 0);
  });
}

/** An MCP client over HTTP, as an editor would connect; `stop` ends its session. */
async function connectAgent(t: E2EContext, name: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${t.token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    async stop() {
      await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}

export async function connectShowsEndpointEntriesCheckAndLiveClients(t: E2EContext) {
  await t.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: t.baseUrl,
  });
  const agent = await connectAgent(t, 'e2e-agent');
  try {
    const r = await agent.client.callTool({ name: 'recall', arguments: { query: 'deploy' } });
    assert.ok(!r.isError, 'the agent recalled');

    await t.open('/connect');
    await t.page.getByRole('heading', { name: 'Connect', level: 1 }).waitFor();
    const page = t.page;

    // The endpoint, and the token masked until revealed.
    await expectText(page.getByTestId('mcp-url'), `${t.baseUrl}/mcp`);
    const token = page.getByTestId('token-value');
    await expectText(token, MASK);
    assert.ok(!(await page.content()).includes(t.token), 'the token is not in the page');
    await page.getByRole('button', { name: 'Reveal', exact: true }).click();
    await expectText(token, t.token);
    await page.getByRole('button', { name: 'Copy the token' }).click();
    await page.getByText('Copied the token.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), t.token);
    await page.getByRole('button', { name: 'Copy the MCP URL' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${t.baseUrl}/mcp`);
    await page.getByRole('button', { name: 'Hide', exact: true }).click();
    await expectText(token, MASK);

    // An entry per client: Cursor's, over HTTP, with the daemon's URL and the token masked.
    const cursor = page.getByRole('tab', { name: /Cursor/ });
    await cursor.click();
    assert.equal(await cursor.getAttribute('aria-selected'), 'true');
    const snippet = page.getByTestId('snippet');
    const text = await poll(
      async () => (await snippet.textContent()) ?? '',
      (s) => s.includes('"url"'),
      { message: 'the Cursor entry over HTTP' },
    );
    const entry = JSON.parse(text.replace(MASK, 'x')) as {
      mcpServers: { loci: { url: string; headers: Record<string, string> } };
    };
    assert.equal(entry.mcpServers.loci.url, `${t.baseUrl}/mcp`);
    assert.equal(entry.mcpServers.loci.headers.Authorization, 'Bearer x');
    await page.getByRole('radio', { name: 'stdio' }).check();
    await poll(
      async () => (await snippet.textContent()) ?? '',
      (s) => s.includes('"command"') && s.includes('"mcp"'),
      { message: 'the stdio entry' },
    );
    await page.getByRole('radio', { name: 'HTTP' }).check();

    // The check: every known client with a status (this machine's real configs, read only).
    const rows = page.locator('[data-testid="check-table"] tbody tr');
    await poll(
      async () => rows.count(),
      (n) => n >= 6,
      { message: 'six checked clients' },
    );
    for (const status of await rows.evaluateAll((trs) =>
      trs.map((tr) => tr.getAttribute('data-status') ?? ''),
    ))
      assert.ok(STATUSES.has(status), `a known status: ${status}`);
    await page.getByRole('button', { name: 'Check again' }).click();
    await poll(
      async () => rows.count(),
      (n) => n >= 6,
      { message: 'the check again' },
    );

    // The agent is connected, with its last call.
    const session = page.locator('[data-testid="sessions-table"] tr[data-client="e2e-agent"]');
    await session.waitFor();
    const row = (await session.textContent()) ?? '';
    assert.ok(row.includes('recall'), `the last call is shown: ${row}`);

    // The copy buttons say "Copied" for a moment, then offer to copy again.
    await page.getByRole('button', { name: 'Copy the token' }).waitFor();
    await page.getByRole('button', { name: 'Copy the MCP URL' }).waitFor();
    await t.checkA11y('Connect');
    await tidy(t);
    await t.screenshot('connect');
  } finally {
    await agent.stop();
  }
  // The session ended: after a refresh it is no longer listed.
  await t.page.getByRole('button', { name: 'Refresh' }).click();
  await t.page
    .locator('[data-testid="sessions-table"] tr[data-client="e2e-agent"]')
    .waitFor({ state: 'detached' });
}

export async function settingsCreatesRenamesAndSwitchesStores(t: E2EContext) {
  await t.open('/settings');
  const page = t.page;
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  const row = (name: string) =>
    page.locator(`[data-testid="stores-table"] tr[data-store="${name}"]`);
  const switcher = page.locator('.store-switcher select');
  await row('default').waitFor();
  assert.equal(
    await page.getByRole('button', { name: 'Rename default' }).isDisabled(),
    true,
    'the default store cannot be renamed',
  );

  // Create.
  await page.getByLabel('New store').fill('e2e-settings');
  await page.getByRole('button', { name: 'Create store' }).click();
  await row('e2e-settings').waitFor();
  await page.getByText('Created the store “e2e-settings”.').waitFor();
  await poll(
    async () => switcher.locator('option').allTextContents(),
    (names) => names.includes('e2e-settings'),
    { message: 'the new store in the top bar' },
  );

  // Rename.
  await page.getByRole('button', { name: 'Rename e2e-settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename the store “e2e-settings”' });
  await dialog.getByLabel('New name').fill('e2e-settings-renamed');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await dialog.waitFor({ state: 'detached' });
  await row('e2e-settings-renamed').waitFor();
  await row('e2e-settings').waitFor({ state: 'detached' });
  const { stores } = await t.api('store.list', {});
  assert.ok(stores.some((s) => s.name === 'e2e-settings-renamed'));
  assert.ok(!stores.some((s) => s.name === 'e2e-settings'));

  // Switch to it, and back.
  await page.getByRole('button', { name: 'Switch to e2e-settings-renamed' }).click();
  await poll(
    async () => switcher.inputValue(),
    (v) => v === 'e2e-settings-renamed',
    {
      message: 'the top bar to show the renamed store',
    },
  );
  await expectText(row('e2e-settings-renamed').locator('.pill-ok'), 'shown now');
  await page.getByRole('heading', { name: /Vectors of “e2e-settings-renamed”/ }).waitFor();
  await page.getByRole('button', { name: 'Switch to default' }).click();
  await poll(
    async () => switcher.inputValue(),
    (v) => v === 'default',
    {
      message: 'the top bar to show the default store again',
    },
  );

  // The daemon's details.
  const info = await t.api('system.info', {});
  await expectText(page.locator('[data-stat="system.port"]'), String(info.port));
  await expectText(page.locator('[data-stat="system.data_dir"]'), info.data_dir);
  await page.getByTestId('models-table').waitFor();

  await t.checkA11y('Settings');
  await tidy(t);
  await t.screenshot('settings');
}

export async function overviewDrawsChartsFromSeededData(t: E2EContext) {
  // Recall timings are the daemon's own: make some.
  for (const query of ['deploy', 'roll back a release', 'database migrations', 'zzzz qqqq'])
    await t.api('memory.recall', { query });
  const overview = await t.api('stats.overview', { days: 90 });
  const created = overview.created_per_day.reduce((s, d) => s + d.count, 0);
  assert.ok(created > 0, 'the seed was created within the window');

  await t.open('/overview');
  const page = t.page;
  // No model is installed here: the first screen offers the default one, size and
  // licence shown, and nothing is downloaded unless someone clicks.
  const offer = page.getByTestId('model-offer');
  await offer.getByRole('heading', { name: 'Recall by meaning' }).waitFor();
  assert.match((await offer.textContent()) ?? '', /about \d+(\.\d)? MB, licence Apache-2\.0/);
  await offer.getByRole('button', { name: /^Install \(about/ }).waitFor();
  await offer.getByRole('button', { name: 'Not now' }).waitFor();
  const chart = (id: string) => page.locator(`[data-chart="${id}"] svg[role="img"]`);
  await chart('created').waitFor();
  await expectText(page.locator('[data-stat="created.window"]'), String(created));
  const label = (await chart('created').getAttribute('aria-label')) ?? '';
  assert.match(label, new RegExp(`${created} memories on \\d+ days?`));
  assert.ok((await page.locator('[data-chart="created"] rect.chart-bar').count()) >= 1);

  await chart('sources').waitFor();
  const sources = page.locator('[data-chart="sources"] tbody tr');
  assert.equal(await sources.count(), overview.by_source.length);

  await chart('latency').waitFor();
  const recalls = Number(await page.locator('[data-stat="recall.count"]').textContent());
  assert.ok(recalls >= 4, `recalls counted: ${recalls}`);
  assert.match((await chart('latency').getAttribute('aria-label')) ?? '', /median/);

  // A tooltip on hover and on keyboard focus (the chart scrolled into the window first: the
  // "needs you" card sits above it).
  await chart('created').scrollIntoViewIfNeeded();
  const box = await chart('created').boundingBox();
  assert.ok(box);
  await page.mouse.move(box.x + box.width - 50, box.y + box.height / 2);
  await page.locator('[data-chart="created"] .chart-tooltip').waitFor();
  await page.mouse.move(0, 0);
  await chart('latency').focus();
  await page.locator('[data-chart="latency"] .chart-tooltip').waitFor();
  await chart('latency').blur();

  // The kinds list and its hooks are still there.
  await page.locator('[data-stat="kind.semantic"]').waitFor();
  await page.getByRole('region', { name: 'Connected clients' }).waitFor();

  await t.checkA11y('Overview with charts');
  await tidy(t);
  await t.screenshot('overview');
}

export async function connectGivesAClientATokenOfItsOwn(t: E2EContext) {
  await t.open('/connect');
  const page = t.page;
  const card = page.locator('section', {
    has: page.getByRole('heading', { name: 'Client tokens' }),
  });
  await card.waitFor();
  const form = card.getByRole('form', { name: 'Add a client token' });
  await form.getByLabel('Client name').fill('e2e-reader');
  await form.getByLabel('Read only').check();
  await form.getByRole('button', { name: 'Add client' }).click();
  const dialog = page.getByRole('dialog', { name: 'The token of e2e-reader' });
  await dialog.waitFor();
  const token = ((await dialog.getByTestId('new-client-token').textContent()) ?? '').trim();
  assert.match(token, /^loci_c_/, 'the new token is shown once');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const row = card.locator('[data-client-token="e2e-reader"]');
  await expectText(
    row.getByRole('list', { name: 'What e2e-reader may do' }),
    'read-onlyevery store',
  );
  assert.ok(!(await page.content()).includes(token), 'the token is gone from the page');

  // The token works, within its policy only.
  const api = (method: string, body: unknown, bearer = token) =>
    fetch(`${t.baseUrl}/api/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  assert.equal((await api('memory.recall', { query: 'deploy' })).status, 200);
  const write = await api('memory.remember', { content: 'a read-only client tries to write' });
  assert.equal(write.status, 403);
  const refusal = (await write.json()) as {
    error: { message: string; data: { permission: string } };
  };
  assert.equal(refusal.error.data.permission, 'write');
  assert.match(refusal.error.message, /Client "e2e-reader" may not/);
  const agent = new Client({ name: 'anything', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await agent.connect(transport);
  const r = await agent.callTool({
    name: 'forget',
    arguments: { id: '01J00000000000000000000000' },
  });
  assert.ok(r.isError, 'a read-only client cannot forget');
  await transport.terminateSession().catch(() => undefined);
  await agent.close();

  // Revoked from the page: refused at once.
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page
    .getByRole('dialog', { name: 'Revoke the token of e2e-reader?' })
    .getByRole('button', { name: 'Revoke token' })
    .click();
  await poll(
    async () => (await api('memory.recall', { query: 'deploy' })).status,
    (status) => status === 401,
    { message: 'the revoked token refused' },
  );
  await row.waitFor({ state: 'detached' });
}

export async function settingsSyncsTheStoreThroughAFolder(t: E2EContext) {
  // A folder as Syncthing or Dropbox would keep in step; nothing else watches it here.
  const folder = mkdtempSync(join(tmpdir(), 'loci-e2e-sync-'));
  try {
    await t.open('/settings');
    const page = t.page;
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: 'Sync' });
    const form = card.getByRole('form', { name: 'Connect the store to sync' });
    await form.waitFor();
    assert.match(
      (await card.textContent()) ?? '',
      /Private and quarantined memories never leave this device/,
    );

    // Connect the default store to the folder.
    await form.getByRole('radio', { name: 'A synced folder' }).check();
    await form.getByLabel('Folder', { exact: true }).fill(folder);
    await form.getByRole('button', { name: 'Connect' }).click();
    await page.getByText(`The store “default” now syncs with ${folder}.`).waitFor();
    await expectText(card.getByTestId('sync-target'), folder);
    await expectText(card.getByTestId('sync-state'), 'in step', 20_000);

    // This device in the devices table.
    const mine = card.locator('[data-testid="sync-devices"] tbody tr[aria-current="true"]');
    await mine.waitFor({ timeout: 20_000 });
    assert.match((await mine.textContent()) ?? '', /this device/);
    const { device } = await t.api('sync.status', {});
    assert.match((await mine.textContent()) ?? '', new RegExp(device.name));

    // Sync now, with what moved.
    await card.getByRole('button', { name: 'Sync now' }).click();
    await poll(
      async () => (await card.getByTestId('sync-run').textContent()) ?? '',
      (s) => /^Synced in .+: sent \d+, received \d+, applied \d+/.test(s),
      { message: 'the result of Sync now' },
    );
    await expectText(card.getByTestId('sync-state'), 'in step');
    await expectText(card.locator('[data-stat="sync.pending"]'), '0 operations');
    assert.ok(readdirSync(folder).length > 0, 'the folder holds what the store sent');

    await t.checkA11y('Settings, syncing');
    await dismissToasts(page);
    await page.mouse.move(0, 0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await card.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await t.screenshot('settings-sync');
  } finally {
    // The daemon is shared with the specs that follow: the store stops syncing again.
    await t.api('sync.leave', {}).catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  }
}
