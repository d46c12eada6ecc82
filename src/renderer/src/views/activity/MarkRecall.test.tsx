import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../../../shared/api';
import type { EvalCase } from '../../../../shared/eval';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import { useUiStore } from '../../stores/uiStore';
import ActivityView from '../ActivityView';

const DEPLOY = '01JDEPLOY00000000000000000';
const RUNBOOK = '01JRUNBK000000000000000000';

const RECALL: ActivityItem = {
  id: 9,
  at: '2026-03-01T09:00:00Z',
  actor: 'mcp:cursor',
  transport: 'http',
  tool: 'recall',
  ok: true,
  error_code: null,
  duration_ms: 12,
  args: { query: 'how do we deploy', store: 'work' },
  result: {
    text: '…',
    structured: {
      how: 'hybrid',
      abstained: false,
      semantic: 'off',
      degraded: [],
      omitted: 0,
      results: [
        {
          id: DEPLOY,
          title: 'Deploys go through ops/deploy.sh',
          content: 'Production deploys run ops/deploy.sh.',
          tags: [],
          kind: 'procedural',
          score: 0.9,
          why: 'matched all 3 query terms',
        },
      ],
    },
  },
};

function setup(handlers: FakeHandlers = {}) {
  let cases: EvalCase[] = [];
  const client = createFakeClient({
    'activity.list': () => ({
      items: [{ ...RECALL, args: undefined, result: undefined } as never],
    }),
    'activity.get': () => RECALL,
    'eval.cases': () => ({ store: 'work', cases }),
    'eval.mark': (args) => {
      const c: EvalCase = {
        id: '01JCASE0000000000000000000',
        query: args.query,
        expected: (args.missed ?? []).map((id) => ({ id, title: id, gone: false })),
        wrong: (args.wrong ?? []).map((id) => ({ id, title: id, gone: false })),
        note: null,
        call_id: args.call_id ?? null,
        actor: 'ui',
        created_at: '2026-03-01T09:00:00Z',
        updated_at: '2026-03-01T09:00:00Z',
      };
      cases = [c];
      return c;
    },
    'memory.recall': () =>
      ({
        store: 'work',
        query: 'runbook',
        how: 'lexical',
        abstained: false,
        semantic: 'off',
        degraded: [],
        notes: [],
        omitted: 0,
        timings: {},
        results: [
          {
            id: RUNBOOK,
            title: 'The deploy runbook',
            content: 'Run the deploy runbook.',
            kind: 'procedural',
            score: 0.5,
            why: 'matched',
            tags: [],
          },
        ],
      }) as never,
    ...handlers,
  });
  renderWithClient(<ActivityView rest={['9']} query={new URLSearchParams()} />, client);
  return { client, user: userEvent.setup() };
}

describe('marking a recall for the quality lab', () => {
  it('marks a returned result as wrong, in the store the recall searched', async () => {
    const { client, user } = setup();
    const wrong = await screen.findByRole('button', {
      name: 'This one was wrong: Deploys go through ops/deploy.sh',
    });
    await user.click(wrong);
    expect(client.callsOf('eval.mark')).toEqual([
      { store: 'work', query: 'how do we deploy', call_id: 9, wrong: [DEPLOY] },
    ]);
    // Read back from eval.cases: the button now says it is marked.
    expect(
      await screen.findByRole('button', { name: 'Marked wrong: Deploys go through ops/deploy.sh' }),
    ).toHaveProperty('disabled', true);
  });

  it('finds and marks the memory a recall missed', async () => {
    const { client, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'This recall missed a memory…' }));
    const dialog = screen.getByRole('dialog', { name: 'Which memory did this recall miss?' });
    const box = within(dialog).getByRole('searchbox', { name: 'Search memories' });
    expect((box as HTMLInputElement).value).toBe('how do we deploy');
    await user.clear(box);
    await user.type(box, 'runbook');
    await user.click(within(dialog).getByRole('button', { name: 'Search' }));
    expect(client.callsOf('memory.recall')).toEqual([
      { store: 'work', query: 'runbook', limit: 10, rehearse: false },
    ]);
    await user.click(
      await within(dialog).findByRole('button', { name: 'Mark as missed: The deploy runbook' }),
    );
    expect(client.callsOf('eval.mark')).toEqual([
      { store: 'work', query: 'how do we deploy', call_id: 9, missed: [RUNBOOK] },
    ]);
    await waitFor(() =>
      expect(
        within(dialog).getByRole('button', { name: 'Marked missed: The deploy runbook' }),
      ).toBeTruthy(),
    );
  });

  it('says so when marking fails', async () => {
    const { user } = setup({
      'eval.mark': () => {
        throw new Error('boom');
      },
    });
    await user.click(
      await screen.findByRole('button', {
        name: 'This one was wrong: Deploys go through ops/deploy.sh',
      }),
    );
    await waitFor(() =>
      expect(useUiStore.getState().toasts.map((t) => [t.tone, t.message])).toContainEqual([
        'error',
        expect.stringMatching(/^Could not mark it/),
      ]),
    );
  });
});
