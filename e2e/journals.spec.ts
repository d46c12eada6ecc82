// Journals against a real daemon, in a store of its own: a session imported from its
// transcript, what distillation drew (a "remember that" written at once, an instruction
// for review, an agent's candidate refused by the gate with its reason), the quoted spans
// marked in the classed turns, and a distilled memory's evidence leading back to its turn.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { E2EContext } from './harness/types';

const STORE = 'journals-e2e';

const SESSION = [
  {
    role: 'system',
    content: 'session start',
    session: 'e2e-ferry-1',
    cwd: '/home/ada/code/ferry-app',
    ts: '2026-03-03T10:15:00Z',
  },
  {
    role: 'user',
    content:
      'Upgrade the date library. From now on use pnpm in this repo, never npm. Remember that the timetable builds with pnpm build.',
    ts: '2026-03-03T10:15:05Z',
  },
  { role: 'assistant', tool: 'shell', content: 'pnpm build', ts: '2026-03-03T10:16:00Z' },
  { role: 'tool', tool: 'shell', content: 'built in 3.2s', exit: 0, ts: '2026-03-03T10:16:04Z' },
  {
    role: 'assistant',
    content: 'The timetable builds; I think the upgrade took about 5 minutes.',
    ts: '2026-03-03T10:16:10Z',
  },
];

export async function aSessionItsCandidatesAndTheEvidenceOfAMemory(t: E2EContext) {
  const { page } = t;
  await t.api('store.create', { name: STORE });
  const file = join(mkdtempSync(join(tmpdir(), 'loci-e2e-journal-')), 'session.jsonl');
  writeFileSync(file, `${SESSION.map((l) => JSON.stringify(l)).join('\n')}\nnot json at all\n`);
  const imported = await t.api('transcript.import', { store: STORE, paths: [file] });
  const journal = imported.files[0]!.journal_id!;
  assert.equal(imported.files[0]!.distilled?.written, 1);
  // An agent's candidate that quotes a number from its own prose: refused, with the reason.
  await t.api('journal.propose', {
    store: STORE,
    journal_id: journal,
    candidates: [
      {
        content: 'The date library upgrade takes 5 minutes.',
        quotes: ['I think the upgrade took about 5 minutes.'],
      },
    ],
  });

  await page.addInitScript((name) => window.localStorage.setItem('loci.store', name), STORE);
  await t.open('/journals');
  await page.getByRole('heading', { name: 'Journals', level: 1 }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Sessions by project' });
  await nav.getByRole('heading', { name: 'ferry-app' }).waitFor();
  const detail = page.getByRole('region', { name: `Session ${journal}` });
  await detail.getByText(/6 lines: \d+ read, 1 not readable/).waitFor();
  await detail.getByText('Refused by the gate').waitFor();
  await detail.getByText('the measurement "5 minutes" is quoted from no TOOL output').waitFor();
  await detail.getByText('In the review inbox').waitFor();
  assert.equal((await detail.locator('mark.jr-quote').count()) >= 2, true, 'quotes are marked');

  // Choosing the refused candidate marks its quote in the agent's turn.
  await detail.getByRole('button', { name: /The date library upgrade takes 5 minutes/ }).click();
  await detail
    .locator('mark.jr-quote-chosen', { hasText: 'I think the upgrade took about 5 minutes.' })
    .waitFor();
  await t.checkA11y('Journals');
  await t.screenshot('journals');

  // The written memory's evidence leads back to the turn it quotes.
  await detail.getByRole('link', { name: 'Open the memory' }).click();
  await page.getByRole('link', { name: 'Session turn 0' }).click();
  await page.waitForURL(/#\/journals\/[0-9A-Z]{26}\?turn=0/);
  await page.locator('#jr-turn-0.jr-turn-chosen').waitFor();
}
