import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { JournalListResult, JournalView } from '../../../../shared/api';
import { EngineCallError } from '../../lib/engineClient';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import JournalsView from '../JournalsView';
import { groupByProject, quotedSpans } from './journalsModel';

const J1 = '01JJOURNA1AAAAAAAAAAAAAAAA';
const J2 = '01JJOURNA1BBBBBBBBBBBBBBBB';
const MEM = '01JMEMORYAAAAAAAAAAAAAAAAA';

const summary = (id: string, cwd: string, started: string) => ({
  id,
  source: `/home/ada/.codex/sessions/${id}.jsonl`,
  format: 'codex' as const,
  session: `s-${id.slice(-4)}`,
  cwd,
  started_at: started,
  ended_at: started,
  turns: 4,
  episode_id: null,
  imported_at: started,
});

const list = (): JournalListResult => ({
  store: 'default',
  journals: [
    summary(J1, '/home/ada/code/ferry-app', '2026-03-03T10:15:00.000Z'),
    summary(J2, '/home/ada/code/billing', '2026-03-02T09:00:00.000Z'),
  ],
});

const view = (): JournalView => ({
  journal: {
    ...summary(J1, '/home/ada/code/ferry-app', '2026-03-03T10:15:00.000Z'),
    lines: 9,
    accounting: {
      used: 5,
      ignored: { reasoning: 3 },
      skipped: [{ line: 9, reason: 'not JSON' }],
      skipped_total: 1,
      not_kept: 0,
      stopped_at: null,
      turns: 4,
      truncated: 0,
      quarantined: 1,
      by_class: { USER: 1, TOOL: 2, ACT: 1, SELF: 0 },
    },
  },
  total: 4,
  turns: [
    {
      seq: 0,
      line: 2,
      class: 'USER',
      at: null,
      tool: null,
      text: 'Upgrade date-fns. From now on use pnpm, never npm.',
      exit: null,
      quarantined: false,
    },
    {
      seq: 1,
      line: 3,
      class: 'ACT',
      at: null,
      tool: 'shell',
      text: 'pnpm build',
      exit: null,
      quarantined: false,
    },
    {
      seq: 2,
      line: 4,
      class: 'TOOL',
      at: null,
      tool: 'shell',
      text: 'built in 3.2s',
      exit: 0,
      quarantined: false,
    },
    {
      seq: 3,
      line: 5,
      class: 'TOOL',
      at: null,
      tool: 'shell',
      text: '[quarantined: this turn looked like it holds a credential; reveal to read it]',
      exit: 0,
      quarantined: true,
    },
  ],
  candidates: [
    {
      n: 0,
      extractor: 'instruction',
      content: 'From now on use pnpm, never npm.',
      quotes: [{ quote: 'From now on use pnpm, never npm.', class: 'USER', seq: 0, line: 2 }],
      status: 'written',
      reasons: [],
      memory_id: MEM,
      review_id: null,
    },
    {
      n: 1,
      extractor: 'agent',
      content: 'The build takes 4 s.',
      quotes: [{ quote: 'pnpm build', class: 'ACT', seq: 1, line: 3 }],
      status: 'rejected',
      reasons: ['the measurement "4 s" is quoted from no TOOL output'],
      memory_id: null,
      review_id: null,
    },
  ],
});

function setup(handlers: FakeHandlers = {}, rest: string[] = []) {
  const client = createFakeClient({
    'journal.list': () => list(),
    'journal.get': () => view(),
    ...handlers,
  });
  renderWithClient(<JournalsView rest={rest} query={new URLSearchParams()} />, client);
  return client;
}

describe('JournalsView', () => {
  it('lists sessions by project and shows the newest: accounting, candidates with the gate’s reasons', async () => {
    setup();
    const nav = await screen.findByRole('navigation', { name: 'Sessions by project' });
    expect(within(nav).getByRole('heading', { name: 'ferry-app' })).toBeTruthy();
    expect(within(nav).getByRole('heading', { name: 'billing' })).toBeTruthy();
    const detail = await screen.findByRole('region', { name: `Session ${J1}` });
    expect(within(detail).getByText(/9 lines: 5 read, 1 not readable/)).toBeTruthy();
    expect(within(detail).getByText('Refused by the gate')).toBeTruthy();
    expect(
      within(detail).getByText('the measurement "4 s" is quoted from no TOOL output'),
    ).toBeTruthy();
    expect(within(detail).getByRole('link', { name: 'Open the memory' }).getAttribute('href')).toBe(
      `#/memories/${MEM}`,
    );
    // The quoted span is marked inside its turn; the quarantined turn is masked.
    const marks = detail.querySelectorAll('mark.jr-quote');
    expect([...marks].map((m) => m.textContent)).toEqual([
      'From now on use pnpm, never npm.',
      'pnpm build',
    ]);
    expect(within(detail).getByText(/\[quarantined: this turn looked like/)).toBeTruthy();
  });

  it('filters turns by class, reveals quarantined turns on request, and marks a chosen candidate’s quotes', async () => {
    const user = userEvent.setup();
    const client = setup();
    const detail = await screen.findByRole('region', { name: `Session ${J1}` });
    await user.click(within(detail).getByRole('button', { name: /^TOOL 2/ }));
    await waitFor(() =>
      expect(client.callsOf('journal.get').at(-1)).toMatchObject({
        classes: ['USER', 'ACT', 'SELF'],
      }),
    );
    await user.click(within(detail).getByRole('button', { name: 'Reveal quarantined' }));
    await waitFor(() =>
      expect(client.callsOf('journal.get').at(-1)).toMatchObject({ reveal: true }),
    );
    await user.click(within(detail).getByRole('button', { name: /The build takes 4 s/ }));
    expect(detail.querySelector('mark.jr-quote-chosen')?.textContent).toBe('pnpm build');
  });

  it('asks the configured model and says when none is', async () => {
    const user = userEvent.setup();
    const client = setup({
      'journal.distill': () => {
        throw new EngineCallError(
          'unavailable',
          'No language model is configured: set llm.url (an OpenAI-compatible endpoint on this machine).',
        );
      },
    });
    const detail = await screen.findByRole('region', { name: `Session ${J1}` });
    await user.click(within(detail).getByRole('button', { name: 'Distil with the model' }));
    expect(await screen.findByText(/No language model is configured: set llm\.url/)).toBeTruthy();
    expect(client.callsOf('journal.distill')).toEqual([{ store: 'default', id: J1 }]);
  });

  it('says how to import a session when there is none', async () => {
    setup({ 'journal.list': () => ({ store: 'default', journals: [] }) });
    expect(await screen.findByText('No session read yet')).toBeTruthy();
    expect(screen.getByText('loci setup hooks')).toBeTruthy();
  });
});

describe('journalsModel', () => {
  it('merges overlapping quotes into one span naming both candidates', () => {
    const text = 'run pnpm build now';
    const spans = quotedSpans(0, text, [
      {
        ...view().candidates[0]!,
        n: 0,
        quotes: [{ quote: 'pnpm build', class: 'ACT', seq: 0, line: 1 }],
      },
      {
        ...view().candidates[0]!,
        n: 1,
        quotes: [{ quote: 'build now', class: 'ACT', seq: 0, line: 1 }],
      },
    ]);
    expect(spans).toEqual([{ start: 4, end: 18, candidates: [0, 1] }]);
    expect(groupByProject(list().journals).map(([p]) => p)).toEqual(['ferry-app', 'billing']);
  });
});
