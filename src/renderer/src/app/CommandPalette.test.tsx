import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createFakeClient } from '../testing/fakeClient';
import { hitFixture, recallFixture, statsFixture } from '../testing/fixtures';
import { renderWithClient } from '../testing/render';
import { Shell } from './Shell';

const DEPLOY = '01JDEPLOYAAAAAAAAAAAAAAAAA';
const ROLLBACK = '01JROLLBACKAAAAAAAAAAAAAAA';

function setup(conflicts = false) {
  const mark = (id: string, other: string) =>
    conflicts
      ? {
          conflicts_with: [
            {
              conflict: '01JCONF1C7000000000000000A',
              id: other,
              title: 'The other memory',
              current: ROLLBACK,
            },
          ],
        }
      : {};
  const client = createFakeClient({
    'stats.get': () => statsFixture(),
    'memory.recall': (args) =>
      recallFixture(
        /audit/i.test(args.query)
          ? [
              hitFixture(ROLLBACK, 'Audit the release log weekly', { score: 0.42 }),
              hitFixture(DEPLOY, 'The audit chain is verified before a release', { score: 0.77 }),
            ]
          : /deploy/i.test(args.query)
            ? [
                hitFixture(DEPLOY, 'Deploys go through ops/deploy.sh', {
                  kind: 'procedural',
                  score: 0.91,
                  why: 'matched "deploy" in the title',
                  ...mark(DEPLOY, ROLLBACK),
                }),
                hitFixture(ROLLBACK, 'Rollback is deploy --previous', {
                  score: 0.47,
                  ...mark(ROLLBACK, DEPLOY),
                }),
              ]
            : [],
      ),
  });
  window.history.replaceState(null, '', '/#/overview');
  renderWithClient(<Shell />, client);
  return { client, user: userEvent.setup() };
}

const dialog = () => screen.getByRole('dialog', { name: 'Search memories and views' });
const input = () => screen.getByRole('combobox', { name: 'Search memories and views' });
const selected = () =>
  screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true');

describe('CommandPalette', () => {
  it('puts the view a query names before memories about it, and memories best score first', async () => {
    const { user } = setup();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(input(), 'audit');
    await screen.findByRole('option', { name: /Audit the release log weekly/ });
    const options = within(dialog()).getAllByRole('option');
    expect(options[0]?.textContent).toMatch(/^Audit/);
    expect(selected()).toBe(options[0]);
    const memories = within(screen.getByRole('group', { name: 'Memories' })).getAllByRole('option');
    expect(memories.map((o) => within(o).getByTitle('Recall score (0–1)').textContent)).toEqual([
      '0.77',
      '0.42',
    ]);
  });

  it('opens on Ctrl-K, recalls as you type (once per pause) and opens the chosen memory', async () => {
    const { client, user } = setup();
    await user.keyboard('{Control>}k{/Control}');
    expect(dialog()).toBeTruthy();
    expect(document.activeElement).toBe(input());
    await user.type(input(), 'deploy');
    const first = await screen.findByRole('option', { name: /Deploys go through ops\/deploy\.sh/ });
    expect(client.callsOf('memory.recall')).toEqual([
      { query: 'deploy', limit: 8, format: 'compact', rehearse: false, store: 'default' },
    ]);
    expect(within(first).getByText('procedural')).toBeTruthy();
    expect(within(first).getByText('0.91')).toBeTruthy();
    expect(within(first).getByText('matched "deploy" in the title')).toBeTruthy();
    expect(selected()).toBe(first);
    expect(input().getAttribute('aria-activedescendant')).toBe(first.id);

    await user.keyboard('{ArrowDown}');
    expect(selected()?.textContent).toContain('Rollback is deploy --previous');
    await user.keyboard('{Enter}');
    expect(window.location.hash).toBe(`#/memories/${ROLLBACK}`);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists the views and goes to one', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: /Search memories and views/ }));
    const goTo = screen.getByRole('group', { name: 'Go to' });
    expect(within(goTo).getByRole('option', { name: /Overview/ })).toBeTruthy();
    window.history.replaceState(null, '', '/#/somewhere');
    await user.type(input(), 'dashboard');
    await screen.findByText('No memory matches “dashboard”.');
    expect(selected()?.textContent).toContain('Overview');
    await user.keyboard('{Enter}');
    expect(window.location.hash).toBe('#/overview');
  });

  it('wraps around with the arrows', async () => {
    const { user } = setup();
    await user.keyboard('{Control>}k{/Control}');
    await user.type(input(), 'deploy');
    await screen.findByRole('option', { name: /Deploys go through/ });
    await user.keyboard('{ArrowUp}');
    expect(selected()?.textContent).toContain('Rollback is deploy --previous');
    await user.keyboard('{ArrowDown}');
    expect(selected()?.textContent).toContain('Deploys go through');
  });

  it('closes on Esc and gives focus back; keeps Tab inside while open', async () => {
    const { user } = setup();
    const trigger = screen.getByRole('button', { name: /Search memories and views/ });
    await user.click(trigger);
    await user.tab();
    expect(dialog().contains(document.activeElement)).toBe(true);
    await user.tab({ shift: true });
    expect(dialog().contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('toggles closed with Ctrl-K and makes the page behind it inert while open', async () => {
    const { user } = setup();
    await user.keyboard('{Control>}k{/Control}');
    const app = document.querySelector('.shell')?.parentElement;
    expect(app?.hasAttribute('inert')).toBe(true);
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app?.hasAttribute('inert')).toBe(false);
  });

  it('says which results conflict, and which of the two holds now', async () => {
    const { user } = setup(true);
    await user.keyboard('{Control>}k{/Control}');
    await user.type(input(), 'deploy');
    const options = await screen.findAllByRole('option', { name: /Deploys go through|Rollback/ });
    expect(options[0]?.textContent).toContain(
      'Conflicts with “Rollback is deploy --previous” — current: the other',
    );
    expect(options[1]?.textContent).toContain(
      'Conflicts with “Deploys go through ops/deploy.sh” — current: this one',
    );
    expect(dialog()).toBeTruthy();
  });
});
