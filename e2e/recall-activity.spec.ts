// The Recall lab and the Activity view against a real daemon: a recall of a seeded memory
// with its `how`, results and a replay stepped to the last stage; an abstention on
// nonsense; and a call made by a real MCP client (the SDK over Streamable HTTP) during
// the test, appearing live in the feed and opened to show what the client received.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { poll } from './harness/poll';
import type { E2EContext } from './harness/types';

// Opens the lab once per test: a second t.open() would only change the address's
// fragment (a same-document navigation), so the token link would not be read again.
async function recall(t: E2EContext, query: string, { open = true } = {}) {
  if (open) await t.open('/recall');
  await t.page.getByRole('heading', { name: 'Recall lab', level: 1 }).waitFor();
  await t.page.getByRole('searchbox', { name: 'Query' }).fill(query);
  await t.page.getByRole('button', { name: 'Recall', exact: true }).click();
  await t.page.getByTestId('recall-how').waitFor();
}

const captionText = (t: E2EContext) => t.page.getByTestId('replay-caption').textContent();

export async function recallLabRunsASeededQueryAndReplaysItToTheEnd(t: E2EContext) {
  await t.open('/recall');
  // Before the first query: what the lab is for, with examples from the store.
  await t.page.getByRole('heading', { name: 'Ask the store what an agent would ask' }).waitFor();
  await t.page.getByRole('button', { name: /nonsense: watch it abstain/ }).waitFor();

  await recall(t, 'how do we roll back a release', { open: false });
  const how = (await t.page.getByTestId('recall-how').textContent())?.trim();
  assert.ok(how === 'hybrid' || how === 'lexical' || how === 'fastpath', `how: ${how}`);
  assert.match((await t.page.getByTestId('recall-verdict').textContent()) ?? '', /\d+ results?/);
  const results = t.page.getByRole('region', { name: /^Results/ });
  const link = results.getByRole('link', { name: 'Rolling back a release' });
  await link.waitFor();
  assert.equal(await link.getAttribute('href'), `#/memories/${t.ids.rollback}`);
  // The address says what ran.
  assert.ok(t.page.url().includes('#/recall?q=how+do+we+roll+back+a+release'), t.page.url());

  // The harness asks for reduced motion: no play, the stages are stepped through.
  assert.equal(await t.page.getByRole('button', { name: 'Play' }).count(), 0);
  await poll(
    () => captionText(t),
    (c) => /^Stage 1 of \d+/.test(c ?? ''),
    {
      message: 'the replay to start at the first stage',
    },
  );
  if (how !== 'fastpath') {
    await t.page.getByRole('button', { name: 'Next stage' }).click();
    await poll(
      () => captionText(t),
      (c) => /^Stage 2 of \d+ · Lexical/.test(c ?? ''),
      {
        message: 'the lexical stage',
      },
    );
    await t.page.getByRole('button', { name: 'Last stage' }).click();
  }
  const last = await poll(
    () => captionText(t),
    (c) => {
      const m = /^Stage (\d+) of (\d+)/.exec(c ?? '');
      return Boolean(m && m[1] === m[2]);
    },
    { message: 'the replay at its last stage' },
  );
  if (how !== 'fastpath') {
    assert.match(last ?? '', /· Budget/);
    const budget = t.page.locator('.rl-board [data-stage="budget"]');
    assert.equal(await budget.getAttribute('data-status'), 'current');
    assert.ok((await budget.locator('.rl-chip').count()) > 0, 'the budget column shows memories');
  }
  await t.checkA11y('Recall lab');
  await t.screenshot('recall');
}

export async function recallLabShowsAnAbstentionForNonsense(t: E2EContext) {
  await recall(t, 'zxqv blorptangle frumious');
  assert.equal((await t.page.getByTestId('recall-verdict').textContent())?.trim(), 'abstained');
  const decision = t.page.getByTestId('recall-decision');
  await decision.getByText('Abstained: nothing relevant').waitFor();
  const reason = (await decision.textContent()) ?? '';
  assert.match(reason, /under the (calibrated|default) bar of \d\.\d\d|matched/, reason);
  await t.page.getByRole('heading', { name: /No results/ }).waitFor();
  await t.checkA11y('Recall lab, abstained');
}

export async function activityShowsALiveMcpCallAndWhatTheClientReceived(t: E2EContext) {
  await t.open('/activity');
  await t.page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
  await t.page.evaluate(() => {
    (window as unknown as { marker: string }).marker = 'same page';
  });

  const name = `e2e-probe-${process.pid}`;
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${t.token}` } },
  });
  let memoryId: string | undefined;
  await client.connect(transport);
  try {
    const remembered = await client.callTool({
      name: 'remember',
      arguments: {
        content: `The ${name} note proves the Activity view shows calls of MCP clients live.`,
        tags: ['e2e'],
      },
    });
    memoryId = (remembered.structuredContent as { id?: string } | undefined)?.id;
    assert.ok(memoryId, 'remember returned an id');
    const recalled = await client.callTool({
      name: 'recall',
      arguments: { query: `${name} note activity view`, limit: 3 },
    });
    const sentText = (recalled.content as { type: string; text: string }[])[0]?.text ?? '';
    const structured = recalled.structuredContent as {
      results: { id: string; title: string }[];
    };
    const found = structured.results.find((r) => r.id === memoryId);
    assert.ok(found, 'the recall found the note');

    // Both calls arrive live, without a reload.
    const rows = t.page.locator('tr[data-call]', { hasText: name });
    await poll(
      () => rows.count(),
      (n) => n >= 2,
      { message: 'both calls in the feed' },
    );
    const recallRow = rows.filter({
      has: t.page.getByRole('link', { name: 'recall', exact: true }),
    });
    await recallRow.first().waitFor();
    assert.equal(
      await t.page.evaluate(() => (window as unknown as { marker?: string }).marker),
      'same page',
      'the page was not reloaded',
    );
    // The client's summary chip.
    await t.page.locator(`.act-client[data-client="mcp:${name}"]`).waitFor();
    // Calls over time: the client in the chart's legend and its accessible summary.
    const chart = t.page.locator('[data-chart="calls"] svg');
    await poll(
      async () => (await chart.getAttribute('aria-label')) ?? '',
      (label) => label.includes(name),
      { message: 'the calls chart to name the client' },
    );
    const stats = await t.api('activity.stats', { window_minutes: 60, buckets: 60 });
    assert.ok(stats.clients.includes(`mcp:${name}`));
    assert.ok(
      stats.buckets.reduce((n, b) => n + (b.calls[`mcp:${name}`] ?? 0), 0) >= 2,
      'both calls counted',
    );
    await t.page.getByRole('button', { name: 'Day', exact: true }).click();
    await t.page.getByRole('button', { name: 'Hour', exact: true }).click();

    await recallRow.first().getByRole('link', { name: 'recall', exact: true }).click();
    const detail = t.page.getByTestId('call-detail');
    await detail.getByText('Recall results').waitFor();
    await detail.getByRole('heading', { name: `recall by ${name}` }).waitFor();
    // Exactly the text the client received.
    assert.equal(await detail.getByTestId('received-text').textContent(), sentText);
    await detail.getByRole('list', { name: 'Structured content' }).waitFor();
    const memoryLink = detail.getByRole('link', { name: found.title });
    assert.equal(await memoryLink.getAttribute('href'), `#/memories/${memoryId}`);
    await t.checkA11y('Activity with an opened call');
    await t.screenshot('activity');
  } finally {
    await client.close().catch(() => undefined);
    if (memoryId) await t.api('memory.erase', { id: memoryId });
  }
}
