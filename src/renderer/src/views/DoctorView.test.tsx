import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { DoctorCheck, DoctorReport } from '../../../shared/api';
import { EngineCallError } from '../lib/engineClient';
import { useUiStore } from '../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../testing/fakeClient';
import { renderWithClient } from '../testing/render';
import DoctorView from './DoctorView';

const check = (
  id: string,
  group: string,
  status: DoctorCheck['status'],
  over: Partial<DoctorCheck> = {},
): DoctorCheck => ({
  id,
  group,
  title: id,
  status,
  finding: `${id} finding`,
  fix: status === 'ok' ? '' : `${id} fix`,
  fixable: false,
  ...over,
});

function report(checks: DoctorCheck[]): DoctorReport {
  const counts = { ok: 0, warn: 0, fail: 0 };
  for (const c of checks) counts[c.status]++;
  return {
    store: 'default',
    status: counts.fail ? 'fail' : counts.warn ? 'warn' : 'ok',
    checks,
    counts,
    ran_at: '2026-03-01T09:00:00.000Z',
    duration_ms: 42,
  };
}

const BROKEN = [
  check('sqlite.version', 'Database', 'ok', {
    title: 'SQLite and its driver',
    finding: 'SQLite 3.53.0, better-sqlite3-multiple-ciphers 12.11.1.',
  }),
  check('fts.sync', 'Indexes', 'fail', {
    title: 'Full-text index in step',
    finding: '1 memories missing from the full-text index.',
    fix: 'Rebuild the full-text index from the memories.',
    fixable: true,
  }),
  check('http.reachable', 'Endpoint', 'warn', {
    title: 'HTTP endpoint reachable',
    finding: 'No daemon serves this data directory.',
    fix: 'Start `loci serve`.',
  }),
];

function setup(handlers: FakeHandlers = {}) {
  let fixed = false;
  const client = createFakeClient({
    'doctor.run': () =>
      report(
        fixed
          ? BROKEN.map((c) =>
              c.id === 'fts.sync' ? { ...c, status: 'ok' as const, fixable: false } : c,
            )
          : BROKEN,
      ),
    'doctor.fix': ({ check: id }) => {
      fixed = true;
      return {
        store: 'default',
        check: id,
        done: 'Rebuilt the full-text index: 2 memories indexed.',
        after: check(id, 'Indexes', 'ok'),
      };
    },
    ...handlers,
  });
  renderWithClient(<DoctorView rest={[]} query={new URLSearchParams()} />, client);
  return { client, user: userEvent.setup() };
}

describe('DoctorView', () => {
  it('shows the verdict and every check grouped, status in words', async () => {
    setup();
    const verdict = await screen.findByTestId('doctor-verdict');
    expect(within(verdict).getByRole('heading').textContent).toBe('Something needs fixing');
    expect(verdict.textContent).toMatch(/1 ok · 1 warning · 1 failure/);
    for (const group of ['Database', 'Indexes', 'Endpoint']) {
      expect(screen.getByRole('heading', { name: group })).toBeTruthy();
    }
    const fts = screen.getByTestId('check-fts.sync');
    expect(within(fts).getByText('Failure')).toBeTruthy();
    expect(within(fts).getByText('Rebuild the full-text index from the memories.')).toBeTruthy();
    expect(within(screen.getByTestId('check-sqlite.version')).getByText('OK')).toBeTruthy();
    // An unsafe problem is explained, with no button.
    const http = screen.getByTestId('check-http.reachable');
    expect(within(http).getByText('Warning')).toBeTruthy();
    expect(within(http).queryByRole('button')).toBeNull();
  });

  it('applies a safe fix after confirmation, then runs again', async () => {
    const { client, user } = setup();
    await screen.findByTestId('doctor-verdict');
    await user.click(screen.getByRole('button', { name: 'Fix: Full-text index in step' }));
    const dialog = screen.getByRole('dialog', { name: 'Fix “Full-text index in step”?' });
    expect(within(dialog).getByText('Rebuild the full-text index from the memories.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Apply the fix' }));
    expect(client.callsOf('doctor.fix')).toEqual([{ store: 'default', check: 'fts.sync' }]);
    await waitFor(() =>
      expect(within(screen.getByTestId('check-fts.sync')).getByText('OK')).toBeTruthy(),
    );
    expect(client.callsOf('doctor.run').length).toBe(2);
    expect(useUiStore.getState().toasts.at(-1)?.message).toBe(
      'Full-text index in step: Rebuilt the full-text index: 2 memories indexed.',
    );
  });

  it('cancelling the confirmation fixes nothing', async () => {
    const { client, user } = setup();
    await screen.findByTestId('doctor-verdict');
    await user.click(screen.getByRole('button', { name: 'Fix: Full-text index in step' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(client.callsOf('doctor.fix')).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when a fix is refused', async () => {
    const { user } = setup({
      'doctor.fix': () => {
        throw new EngineCallError('forbidden', '"fts.sync" has no safe automatic fix.');
      },
    });
    await screen.findByTestId('doctor-verdict');
    await user.click(screen.getByRole('button', { name: 'Fix: Full-text index in step' }));
    await user.click(screen.getByRole('button', { name: 'Apply the fix' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        tone: 'error',
        message: 'Full-text index in step: "fts.sync" has no safe automatic fix.',
      }),
    );
  });

  it('shows only problems on request, and re-runs', async () => {
    const { client, user } = setup();
    await screen.findByTestId('doctor-verdict');
    await user.click(screen.getByLabelText('Show only problems'));
    expect(screen.queryByTestId('check-sqlite.version')).toBeNull();
    expect(screen.getByTestId('check-fts.sync')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Re-run' }));
    await waitFor(() => expect(client.callsOf('doctor.run').length).toBe(2));
  });

  it('says all is well when it is', async () => {
    setup({ 'doctor.run': () => report([BROKEN[0]!]) });
    const verdict = await screen.findByTestId('doctor-verdict');
    expect(within(verdict).getByRole('heading').textContent).toBe('All is well');
  });

  it('shows an error with a retry when the doctor cannot run', async () => {
    let fail = true;
    const { user } = setup({
      'doctor.run': () => {
        if (fail)
          throw new EngineCallError(
            'store-locked',
            'The data directory is in use by another process.',
          );
        return report(BROKEN);
      },
    });
    expect(
      await screen.findByText('The data directory is in use by another process.'),
    ).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('doctor-verdict');
  });
});
