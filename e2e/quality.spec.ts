// The quality lab against the seeded daemon: an agent's recall (a real MCP client over
// Streamable HTTP) is opened in Activity and marked — one result wrong, one memory it
// missed — then the Quality view runs the cases and shows the run. The case is removed
// afterwards (tests share one daemon; the run stays in the store's eval history).
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { poll } from './harness/poll';
import type { E2EContext } from './harness/types';
import { dismissToasts } from './harness/toasts';

export async function qualityLabMarksARecallInActivityAndRunsIt(t: E2EContext) {
  const name = `e2e-quality-${process.pid}`;
  const query = 'how do we roll back a release';
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${t.token}` } },
    }),
  );
  let results: { id: string; title: string }[];
  try {
    const recalled = await client.callTool({ name: 'recall', arguments: { query, limit: 3 } });
    results = (recalled.structuredContent as { results: { id: string; title: string }[] }).results;
  } finally {
    await client.close().catch(() => undefined);
  }
  const missed = t.ids['pattern-flags'] as string;
  // The least relevant result that is neither the answer nor the memory marked missed.
  const wrong =
    results.filter((r) => r.id !== missed && r.id !== t.ids.rollback).at(-1) ??
    results.find((r) => r.id !== missed);
  assert.ok(wrong, 'the recall returned something to mark wrong');
  const call = (await t.api('activity.list', { client: name, tool: 'recall', limit: 5 })).items[0];
  assert.ok(call, 'the recall is in the activity feed');

  let caseId: string | undefined;
  try {
    await t.open(`/activity/${call.id}`);
    const detail = t.page.getByTestId('call-detail');
    await detail.getByText('Recall results').waitFor();
    await detail.getByRole('button', { name: `This one was wrong: ${wrong.title}` }).click();
    await detail.getByRole('button', { name: `Marked wrong: ${wrong.title}` }).waitFor();

    await detail.getByRole('button', { name: 'This recall missed a memory…' }).click();
    const dialog = t.page.getByRole('dialog', { name: 'Which memory did this recall miss?' });
    await dialog.getByRole('searchbox', { name: 'Search memories' }).fill('feature flag risky');
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog
      .getByRole('button', { name: 'Mark as missed: Risky changes ship behind feature flags' })
      .click();
    await dialog
      .getByRole('button', { name: 'Marked missed: Risky changes ship behind feature flags' })
      .waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();

    const cases = (await t.api('eval.cases', {})).cases.filter((c) => c.query === query);
    assert.equal(cases.length, 1);
    caseId = cases[0]?.id;
    assert.deepEqual(
      cases[0]?.expected.map((m) => m.id),
      [missed],
    );
    assert.deepEqual(
      cases[0]?.wrong.map((m) => m.id),
      [wrong.id],
    );
    assert.equal(cases[0]?.call_id, call.id);

    // The Quality view (through the navigation: a second t.open() would only change the
    // fragment and the token link would not be read again): the case, Run now, the run.
    await t.page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: 'Quality' })
      .click();
    await t.page.getByRole('heading', { name: 'Quality', level: 1 }).waitFor();
    const list = t.page.getByRole('list', { name: 'Marked cases' });
    await list.getByText(query).waitFor();
    const before = (await t.api('eval.runs', {})).runs.length;
    await t.page.getByRole('button', { name: 'Run now' }).click();
    await poll(
      async () => (await t.api('eval.runs', {})).runs.length,
      (n) => n === before + 1,
      { message: 'the run saved' },
    );
    await t.page.getByRole('img', { name: /^nDCG@10 over \d+ runs?; latest \d\.\d{3}/ }).waitFor();
    await t.page.getByTestId('quality-runs').getByText('store configuration').first().waitFor();
    // The toasts of the marks and the run would cover the view in the screenshot.
    await dismissToasts(t.page);
    await t.checkA11y('Quality');
    await t.screenshot('quality');
  } finally {
    if (caseId) await t.api('eval.remove', { id: caseId });
  }
}
