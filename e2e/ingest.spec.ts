// The Ingest view against a real daemon, with real files from a temporary folder: a drop
// on the Overview (the window's own drop handler, through a DataTransfer built in the
// page from the files' bytes) opens Ingest and imports them — Markdown with front matter,
// a CSV, a JSON file, and a binary file that is refused — then Undo forgets the batch and
// Redo brings it back. Then a folder chosen with "Choose a folder…" (nested, with a
// .gitignore and a hidden folder). Every memory created is erased at the end.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { expectText, poll } from './harness/poll';
import type { E2EContext } from './harness/types';
import { dismissToasts } from './harness/toasts';

const MARKDOWN = `---
title: Deploy runbook
tags: [e2e-frontmatter, runbooks]
---
# Deploys

Roll back a bad deploy with \`deploy --rollback <tag>\`; the previous image stays warm
for an hour after each release.

## Canary

The canary takes ten percent of traffic for fifteen minutes before the rest follows.
`;
const CSV = `service,owner,on_call
billing,ada,yes
search,grace,no
ingest,linus,yes
`;
const JSON_FILE = JSON.stringify(
  { service: 'billing', retries: 3, regions: ['eu-west-1', 'us-east-2'], owner: 'ada' },
  null,
  2,
);
/** A PNG header and bytes no text has: the engine must refuse it as binary. */
const BINARY = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0,
  0, 0, 1, 0, 8, 6, 0, 0, 0, 0x5c, 0x72, 0xa8, 0x66, 0, 0, 0, 0, 0xff, 0xfe, 0, 1, 2, 3,
]);

function tempFolder(): string {
  return mkdtempSync(join(tmpdir(), 'loci-e2e-ingest-'));
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

const fileRow = (page: Page, path: string) =>
  page.getByTestId('ingest-files').locator(`tr[data-file="${path}"]`);

async function latestBatch(t: E2EContext): Promise<string> {
  const list = await t.api('ingest.list', { limit: 1 });
  const batch = list.batches[0]?.batch;
  assert.ok(batch, 'the import is in ingest.list');
  return batch;
}

async function batchMemories(
  t: E2EContext,
  batch: string,
  deleted: 'exclude' | 'only' | 'include',
) {
  const r = await t.api('memory.list', {
    tags: [`batch:${batch}`],
    deleted,
    trust: 'any',
    limit: 500,
  });
  return r.items;
}

async function eraseBatch(t: E2EContext, batch: string | null) {
  if (!batch) return;
  for (const m of await batchMemories(t, batch, 'include'))
    await t.api('memory.erase', { id: m.id });
}

export async function ingestADropOnTheWindowUndoAndRedo(t: E2EContext) {
  const dir = tempFolder();
  const files = [
    ['deploy-runbook.md', MARKDOWN, 'text/markdown'],
    ['owners.csv', CSV, 'text/csv'],
    ['billing.json', JSON_FILE, 'application/json'],
    ['logo.png', BINARY, 'image/png'],
  ] as const;
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
  let batch: string | null = null;
  try {
    const { page } = t;
    await t.open('/overview');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    // The files' bytes as read from disk, made into File objects inside the page.
    const payload = files.map(([name, , type]) => ({
      name,
      type,
      bytes: [...readFileSync(join(dir, name))],
    }));
    const dataTransfer = await page.evaluateHandle((list) => {
      const dt = new DataTransfer();
      for (const f of list)
        dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
      return dt;
    }, payload);
    // Dropped on the Overview: the window's handler takes it and opens Ingest.
    await page.dispatchEvent('#main', 'dragenter', { dataTransfer });
    await page.dispatchEvent('#main', 'dragover', { dataTransfer });
    await page.locator('.drop-overlay').waitFor();
    await page.dispatchEvent('#main', 'drop', { dataTransfer });
    await page.getByRole('heading', { name: 'Ingest', level: 1 }).waitFor();
    assert.match(page.url(), /#\/ingest$/);
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 30_000 });

    // Per file: the three text files imported, the binary refused with its reason.
    for (const name of ['deploy-runbook.md', 'owners.csv', 'billing.json'])
      assert.equal(await fileRow(page, name).getAttribute('data-status'), 'ingested', name);
    assert.equal(await fileRow(page, 'logo.png').getAttribute('data-status'), 'skipped');
    const reason = (await fileRow(page, 'logo.png').textContent()) ?? '';
    assert.match(reason, /binary/i, `the binary file's reason: ${reason}`);
    assert.match((await fileRow(page, 'owners.csv').textContent()) ?? '', /csv/);

    // The engine's memories: tagged source:<file> and with the batch; front matter kept.
    batch = await latestBatch(t);
    for (const name of ['deploy-runbook.md', 'owners.csv', 'billing.json']) {
      const tagged = await t.api('memory.list', { tags: [`source:${name}`], limit: 50 });
      assert.ok(tagged.items.length > 0, `memories tagged source:${name}`);
    }
    const fm = await t.api('memory.list', { tags: ['e2e-frontmatter'], limit: 50 });
    assert.ok(fm.items.length > 0, 'the front matter tags are kept');
    const live = await batchMemories(t, batch, 'exclude');
    const summary = page.getByTestId('ingest-summary');
    assert.equal(
      (await summary.locator('dt:text-is("Memories") + dd').textContent())?.trim(),
      String(live.length),
    );

    // The file's name links to its document memory.
    const link = fileRow(page, 'deploy-runbook.md').getByRole('link', {
      name: 'deploy-runbook.md',
    });
    const href = (await link.getAttribute('href')) ?? '';
    assert.match(href, /^#\/memories\/[0-9A-Z]{26}$/);
    assert.ok(
      live.some((m) => href.endsWith(m.id)),
      'the link names a memory of the batch',
    );
    await page.getByTestId('ingest-batch-link').waitFor();
    // The recent imports list shows it.
    await page
      .getByTestId('ingest-recent')
      .locator(`tr[data-batch="${batch}"][data-status="done"]`)
      .waitFor();

    await tidy(page);
    await t.screenshot('ingest');
    await t.checkA11y('Ingest');

    // Undo forgets every memory of the batch; Redo brings them back.
    await page.getByTestId('ingest-files').scrollIntoViewIfNeeded();
    await page.locator('.ig-run').getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByText(`Undid the import: ${live.length} memories forgotten.`).waitFor();
    const b = batch;
    await poll(
      () => batchMemories(t, b, 'exclude'),
      (items) => items.length === 0,
      { message: 'the batch forgotten' },
    );
    assert.equal((await batchMemories(t, b, 'only')).length, live.length);
    await page
      .getByTestId('ingest-recent')
      .locator(`tr[data-batch="${batch}"][data-status="undone"]`)
      .waitFor();
    await page.locator('.ig-run').getByRole('button', { name: 'Redo', exact: true }).click();
    await page.getByText(`Redid the import: ${live.length} memories back.`).waitFor();
    await poll(
      () => batchMemories(t, b, 'exclude'),
      (items) => items.length === live.length,
      { message: 'the batch back' },
    );

    // "Show them all in Memories": the Memories view lists exactly this batch.
    await page.getByTestId('ingest-batch-link').click();
    await page.getByRole('heading', { name: 'Memories', level: 1 }).waitFor();
    await expectText(page.getByTestId('memories-total'), `${live.length} memories`);
    assert.match(page.url(), /#\/memories$/);
  } finally {
    await eraseBatch(t, batch);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function ingestAFolderChosenWithTheKeyboard(t: E2EContext) {
  const root = tempFolder();
  const dir = join(root, 'handbook');
  mkdirSync(join(dir, 'guides', 'deep'), { recursive: true });
  mkdirSync(join(dir, '.private'), { recursive: true });
  writeFileSync(join(dir, '.gitignore'), 'scratch.txt\n');
  writeFileSync(join(dir, 'scratch.txt'), 'Throwaway notes that .gitignore leaves out.\n');
  writeFileSync(
    join(dir, 'guides', 'onboarding.md'),
    '# Onboarding\n\nNew engineers pair with a buddy for their first two weeks.\n',
  );
  writeFileSync(
    join(dir, 'guides', 'deep', 'incidents.txt'),
    'Incidents are reviewed every Thursday; the write-up is due within three days.\n',
  );
  writeFileSync(join(dir, '.private', 'secret.md'), '# Not for the store\n');
  let batch: string | null = null;
  try {
    const { page } = t;
    await t.open('/ingest');
    await page.getByRole('heading', { name: 'Ingest', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Choose a folder…' }).waitFor();
    await page.getByTestId('ingest-folder-input').setInputFiles(dir);
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 30_000 });
    const top = basename(dir);
    assert.equal(
      await fileRow(page, `${top}/guides/onboarding.md`).getAttribute('data-status'),
      'ingested',
    );
    assert.equal(
      await fileRow(page, `${top}/guides/deep/incidents.txt`).getAttribute('data-status'),
      'ingested',
    );
    const ignored = fileRow(page, `${top}/scratch.txt`);
    assert.equal(await ignored.getAttribute('data-status'), 'skipped');
    assert.match((await ignored.textContent()) ?? '', /gitignore/);
    assert.match(
      (await fileRow(page, `${top}/.private/`).textContent()) ?? '',
      /hidden folder, not read/,
    );
    batch = await latestBatch(t);
    const onboarding = await t.api('memory.list', { tags: ['source:onboarding.md'], limit: 50 });
    assert.ok(onboarding.items.length > 0, 'memories tagged source:onboarding.md');

    // Undo from the recent imports list.
    const row = page.getByTestId('ingest-recent').locator(`tr[data-batch="${batch}"]`);
    await row.getByRole('button', { name: /^Undo the import of/ }).click();
    await row.and(page.locator('[data-status="undone"]')).waitFor();
    const b = batch;
    await poll(
      () => batchMemories(t, b, 'exclude'),
      (items) => items.length === 0,
      { message: 'the folder import forgotten' },
    );
  } finally {
    await eraseBatch(t, batch);
    rmSync(root, { recursive: true, force: true });
  }
}
