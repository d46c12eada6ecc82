import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ModelInfo, ModelListResult, StoreInfo } from '../../../../shared/api';
import { EngineCallError } from '../../lib/engineClient';
import { useUiStore } from '../../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { statsFixture, storeListFixture } from '../../testing/fixtures';
import { renderWithClient } from '../../testing/render';
import { systemInfoFixture } from '../connect/connectFixtures';
import SettingsView from '../SettingsView';
import { storeNameProblem } from './storeName';

const MINI: ModelInfo = {
  id: 'all-minilm-l6-v2-int8',
  name: 'all-MiniLM-L6-v2 (int8)',
  dims: 384,
  languages: ['en'],
  license: 'Apache-2.0',
  description: 'Fast English sentence embeddings.',
  installed: false,
  active: false,
  dir: null,
  pinned: true,
  size_bytes: 23 * 1024 * 1024,
};
const BGE: ModelInfo = {
  ...MINI,
  id: 'bge-small-en-v1.5-int8',
  name: 'BGE small (int8)',
  size_bytes: 34 * 1024 * 1024,
};

function modelsFixture(overrides: Partial<ModelInfo>[] = []): ModelListResult {
  const models = [MINI, BGE].map((m, i) => ({ ...m, ...overrides[i] }));
  const active = models.find((m) => m.active);
  return {
    models,
    active: active?.id ?? 'hash-384',
    semantic: active ? 'on' : 'off',
    note: active ? null : 'no embedding model installed',
    offer: null,
  };
}

const OFFER: NonNullable<ModelListResult['offer']> = {
  id: MINI.id,
  name: MINI.name,
  license: MINI.license,
  description: 'Fast English sentence embeddings.',
  size_bytes: 23_000_000,
  approximate: true,
  reason: 'Without a model recall matches words and spelling only.',
};

function stores(names: string[]): StoreInfo[] {
  return storeListFixture(names).stores;
}

function setup(handlers: FakeHandlers = {}, names = ['default', 'work']) {
  let list = names;
  const client = createFakeClient({
    'store.list': () => ({ ...storeListFixture(list), data_dir: '/home/me/.config/Loci' }),
    'store.create': ({ name }) => {
      list = [...list, name];
      return stores([name])[0] as StoreInfo;
    },
    'store.rename': ({ name, to }) => {
      list = list.map((n) => (n === name ? to : n));
      return { ...(stores([to])[0] as StoreInfo), is_default: false };
    },
    'models.list': () => modelsFixture(),
    'stats.get': () => statsFixture(),
    'system.info': () => systemInfoFixture(),
    'sync.status': () => ({ device: { id: 'dev', name: 'laptop' }, stores: [] }),
    'ingest.folders': () => ({ folders: [] }),
    ...handlers,
  });
  renderWithClient(<SettingsView />, client, { stores: names });
  return client;
}

const storeRow = (name: string) =>
  document.querySelector(`[data-testid="stores-table"] tr[data-store="${name}"]`) as HTMLElement;

describe('SettingsView: stores', () => {
  it('lists the stores and marks the one shown', async () => {
    setup();
    await screen.findByTestId('stores-table');
    expect(storeRow('default').textContent).toContain('shown now');
    expect(storeRow('work').textContent).not.toContain('shown now');
    const region = screen.getByRole('region', { name: 'Stores' });
    expect(within(region).getByText('/home/me/.config/Loci', { selector: 'code' })).toBeTruthy();
  });

  it('creates a store, offers to switch to it, and updates the top bar’s list', async () => {
    const user = userEvent.setup();
    const client = setup();
    await screen.findByTestId('stores-table');
    const field = screen.getByLabelText('New store');
    await user.type(field, 'Bad Name');
    await user.tab();
    expect(screen.getByText(/Not a valid store name/)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await user.clear(field);
    await user.type(field, 'side-project{Enter}');
    await waitFor(() => expect(client.callsOf('store.create')).toEqual([{ name: 'side-project' }]));
    await waitFor(() => expect(storeRow('side-project')).toBeTruthy());
    expect((field as HTMLInputElement).value).toBe('');
    await waitFor(() =>
      expect(useUiStore.getState().stores.map((s) => s.name)).toContain('side-project'),
    );
    const toast = useUiStore.getState().toasts.at(-1);
    expect(toast?.message).toBe('Created the store “side-project”.');
    act(() => void toast?.action?.run());
    expect(useUiStore.getState().store).toBe('side-project');
  });

  it('shows the engine’s refusal when the name is taken meanwhile', async () => {
    const user = userEvent.setup();
    setup({
      'store.create': () => {
        throw new EngineCallError('store-exists', 'A store named "late" already exists.');
      },
    });
    await screen.findByTestId('stores-table');
    await user.type(screen.getByLabelText('New store'), 'late{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('already exists');
  });

  it('switches the store every view shows', async () => {
    const user = userEvent.setup();
    setup();
    await screen.findByTestId('stores-table');
    await user.click(within(storeRow('work')).getByRole('button', { name: 'Switch to work' }));
    expect(useUiStore.getState().store).toBe('work');
    expect(storeRow('work').textContent).toContain('shown now');
    expect(
      (
        within(storeRow('work')).getByRole('button', {
          name: 'work is shown now',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
    await user.click(
      within(storeRow('default')).getByRole('button', { name: 'Switch to default' }),
    );
    expect(useUiStore.getState().store).toBe('default');
  });

  it('cannot rename the default store, and says why', async () => {
    setup();
    await screen.findByTestId('stores-table');
    const rename = within(storeRow('default')).getByRole('button', { name: 'Rename default' });
    expect((rename as HTMLButtonElement).disabled).toBe(true);
    const why = document.getElementById(rename.getAttribute('aria-describedby') ?? '');
    expect(why?.textContent).toContain('keeps its name');
    expect(
      (within(storeRow('work')).getByRole('button', { name: 'Rename work' }) as HTMLButtonElement)
        .disabled,
    ).toBe(false);
  });

  it('renames the store shown and follows it', async () => {
    const user = userEvent.setup();
    const client = setup();
    await screen.findByTestId('stores-table');
    act(() => useUiStore.getState().setStore('work'));
    await user.click(within(storeRow('work')).getByRole('button', { name: 'Rename work' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename the store “work”' });
    const field = within(dialog).getByLabelText('New name');
    expect((field as HTMLInputElement).value).toBe('work');
    expect(document.activeElement).toBe(field);
    await user.clear(field);
    await user.type(field, 'default');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(within(dialog).getByText(/already exists/)).toBeTruthy();
    expect(client.callsOf('store.rename')).toHaveLength(0);
    await user.clear(field);
    await user.type(field, 'job{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.callsOf('store.rename')).toEqual([{ name: 'work', to: 'job' }]);
    expect(useUiStore.getState().store).toBe('job');
    await waitFor(() => expect(storeRow('job')).toBeTruthy());
    expect(useUiStore.getState().stores.map((s) => s.name)).toEqual(['default', 'job']);
    expect(useUiStore.getState().store).toBe('job');
  });
});

describe('SettingsView: models', () => {
  it('installs a model with live progress from the engine’s events', async () => {
    const user = userEvent.setup();
    let finish: (m: ModelInfo) => void = () => undefined;
    let installed = false;
    const client = setup({
      'models.install': () => new Promise((r) => (finish = r)),
      'models.list': () => modelsFixture(installed ? [{ installed: true, active: true }] : []),
    });
    const table = await screen.findByTestId('models-table');
    expect(screen.getByTestId('semantic').textContent).toBe('semantic off');
    await user.click(within(table).getByRole('button', { name: `Install ${MINI.name}` }));
    expect(client.callsOf('models.install')).toEqual([{ id: MINI.id }]);
    const box = await screen.findByTestId('install-progress');
    const bar = within(box).getByRole('progressbar');
    expect(box.textContent).toContain('Starting the download');
    expect(bar.hasAttribute('aria-valuenow')).toBe(false);
    // Another model's events are not ours.
    act(() =>
      client.emit('models.progressed', {
        model: BGE.id,
        file: 'model.onnx',
        index: 1,
        files: 2,
        received: 1,
        total: 2,
      }),
    );
    expect(box.textContent).toContain('Starting the download');
    act(() =>
      client.emit('models.progressed', {
        model: MINI.id,
        file: 'tokenizer.json',
        index: 1,
        files: 2,
        received: 700 * 1024,
        total: 700 * 1024,
      }),
    );
    act(() =>
      client.emit('models.progressed', {
        model: MINI.id,
        file: 'model.onnx',
        index: 2,
        files: 2,
        received: 11.5 * 1024 * 1024,
        total: 22.3 * 1024 * 1024,
      }),
    );
    expect(box.textContent).toContain('model.onnx (file 2 of 2)');
    expect(box.textContent).toContain('11.5 MB of 22.3 MB');
    // 0.7 MB + 11.5 MB of the catalogue's 23 MB.
    expect(bar.getAttribute('aria-valuenow')).toBe('53');
    expect(bar.getAttribute('aria-valuetext')).toContain('11.5 MB of 22.3 MB');
    // Every install button waits for this one.
    expect(
      (within(table).getByRole('button', { name: `Install ${BGE.name}` }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    installed = true;
    await act(async () => finish({ ...MINI, installed: true, active: true }));
    await waitFor(() => expect(screen.queryByTestId('install-progress')).toBeNull());
    expect(useUiStore.getState().toasts.at(-1)?.message).toBe(
      `Installed ${MINI.name}: recall uses it now.`,
    );
    await waitFor(() => expect(screen.getByTestId('semantic').textContent).toBe('semantic on'));
    expect(within(table).getByText('in use')).toBeTruthy();
  });

  it('reports a failed install and clears the progress', async () => {
    const user = userEvent.setup();
    setup({
      'models.install': () => {
        throw new EngineCallError('unavailable', 'The download failed after 3 attempts.');
      },
    });
    const table = await screen.findByTestId('models-table');
    await user.click(within(table).getByRole('button', { name: `Install ${MINI.name}` }));
    expect((await screen.findByRole('alert')).textContent).toContain('after 3 attempts');
    expect(screen.queryByTestId('install-progress')).toBeNull();
  });

  it('uses a model, auto or none', async () => {
    const user = userEvent.setup();
    const client = setup({
      'models.list': () => modelsFixture([{ installed: true, active: true }, { installed: true }]),
      'models.use': ({ id }) =>
        id === 'none'
          ? { ...modelsFixture(), note: null }
          : modelsFixture([{ installed: true }, { installed: true, active: true }]),
    });
    const table = await screen.findByTestId('models-table');
    await user.click(within(table).getByRole('button', { name: `Use ${BGE.name}` }));
    await waitFor(() => expect(client.callsOf('models.use')).toEqual([{ id: BGE.id }]));
    expect(useUiStore.getState().toasts.at(-1)?.message).toContain(`Recall now uses ${BGE.id}`);
    await user.click(screen.getByRole('button', { name: 'Use none (words only)' }));
    await waitFor(() => expect(client.callsOf('models.use')).toHaveLength(2));
    expect(client.callsOf('models.use')[1]).toEqual({ id: 'none' });
    await user.click(screen.getByRole('button', { name: 'Use the best installed' }));
    await waitFor(() => expect(client.callsOf('models.use')[2]).toEqual({ id: 'auto' }));
  });

  it('removes a model only after a confirmation', async () => {
    const user = userEvent.setup();
    const client = setup({
      'models.list': () =>
        modelsFixture([{ installed: true, active: true, dir: '/home/me/.config/Loci/models/x' }]),
      'models.remove': ({ id }) => ({ id, removed: true }),
    });
    const table = await screen.findByTestId('models-table');
    await user.click(within(table).getByRole('button', { name: `Remove ${MINI.name}` }));
    const dialog = await screen.findByRole('dialog', { name: `Remove ${MINI.name}?` });
    expect(dialog.textContent).toContain('/home/me/.config/Loci/models/x');
    expect(dialog.textContent).toContain('Recall uses it now.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(client.callsOf('models.remove')).toHaveLength(0);
    await user.click(within(table).getByRole('button', { name: `Remove ${MINI.name}` }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.callsOf('models.remove')).toEqual([{ id: MINI.id }]);
  });
});

describe('SettingsView: the model offer', () => {
  it('offers the default model with its size and licence, and installs it with one click', async () => {
    const user = userEvent.setup();
    let installed = false;
    const client = setup({
      'models.list': () =>
        installed
          ? modelsFixture([{ installed: true, active: true }])
          : { ...modelsFixture(), offer: OFFER },
      'models.install': () => {
        installed = true;
        return { ...MINI, installed: true, active: true, dir: '/m' };
      },
    });
    const offer = await screen.findByTestId('model-offer');
    expect(offer.textContent).toContain('Recall by meaning');
    expect(offer.textContent).toMatch(/about 21\.9 MB, licence Apache-2\.0/);
    await user.click(within(offer).getByRole('button', { name: /^Install \(about 21\.9 MB\)/ }));
    expect(client.callsOf('models.install')).toEqual([{ id: MINI.id }]);
    await waitFor(() => expect(screen.queryByTestId('model-offer')).toBeNull());
  });

  it('remembers "not now" and stops offering', async () => {
    const user = userEvent.setup();
    let declined = false;
    const client = setup({
      'models.list': () => ({ ...modelsFixture(), offer: declined ? null : OFFER }),
      'models.decline': () => {
        declined = true;
        return modelsFixture();
      },
    });
    const offer = await screen.findByTestId('model-offer');
    await user.click(within(offer).getByRole('button', { name: 'Not now' }));
    expect(client.callsOf('models.decline')).toEqual([{}]);
    await waitFor(() => expect(screen.queryByTestId('model-offer')).toBeNull());
    expect(client.callsOf('models.install')).toEqual([]);
  });

  it('says why an install failed and offers to try again', async () => {
    const user = userEvent.setup();
    setup({
      'models.list': () => ({ ...modelsFixture(), offer: OFFER }),
      'models.install': () => {
        throw new EngineCallError(
          'unavailable',
          'Could not download model.onnx: network unreachable.',
        );
      },
    });
    const offer = await screen.findByTestId('model-offer');
    await user.click(within(offer).getByRole('button', { name: /^Install/ }));
    expect((await within(offer).findByText(/network unreachable/)).textContent).toBeTruthy();
    expect(within(offer).getByRole('button', { name: /Try again|Retry/ })).toBeTruthy();
  });
});

describe('SettingsView: vectors, daemon and about', () => {
  it('embeds the waiting memories with progress from the engine', async () => {
    const user = userEvent.setup();
    let finish: () => void = () => undefined;
    const client = setup({
      'embedding.backfill': () =>
        new Promise(
          (r) =>
            (finish = () => r({ model: 'hash-384', semantic: 'off', embedded: 42, pending: 0 })),
        ),
    });
    const button = await screen.findByRole('button', { name: 'Embed 2 waiting' });
    await user.click(button);
    expect(client.callsOf('embedding.backfill')).toEqual([{ store: 'default' }]);
    act(() =>
      client.emit('embedding.progressed', { store: 'other', model: 'm', done: 1, total: 9 }),
    );
    act(() =>
      client.emit('embedding.progressed', { store: 'default', model: 'm', done: 1, total: 2 }),
    );
    const box = screen.getByTestId('backfill-progress');
    expect(box.textContent).toContain('Embedding with m: 1 of 2');
    expect(within(box).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    await act(async () => finish());
    await waitFor(() => expect(screen.queryByTestId('backfill-progress')).toBeNull());
    expect(useUiStore.getState().toasts.at(-1)?.message).toBe(
      'Every memory of “default” has a vector of hash-384.',
    );
  });

  it('recalibrates abstention and shows the threshold and balanced accuracy', async () => {
    const user = userEvent.setup();
    const client = setup({
      'recall.calibrate': ({ sample }) => ({
        store: 'default',
        model: 'hash-384',
        threshold: 0.41234,
        answerable: sample ?? 0,
        unanswerable: 40,
        balanced_accuracy: 0.9125,
        memories: 42,
        calibrated_at: new Date().toISOString(),
      }),
    });
    const sample = await screen.findByLabelText('Sample');
    await user.clear(sample);
    await user.type(sample, '5');
    expect(
      (screen.getByRole('button', { name: 'Recalibrate' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await user.clear(sample);
    await user.type(sample, '50');
    await user.click(screen.getByRole('button', { name: 'Recalibrate' }));
    const result = await screen.findByTestId('calibration');
    expect(client.callsOf('recall.calibrate')).toEqual([{ store: 'default', sample: 50 }]);
    expect(result.querySelector('[data-stat="calibration.threshold"]')?.textContent).toBe('0.412');
    expect(result.querySelector('[data-stat="calibration.accuracy"]')?.textContent).toBe('91.3%');
    expect(result.textContent).toContain('50 answerable · 40 unanswerable');
  });

  it('shows the daemon’s port, data directory and versions, with the token on Connect', async () => {
    setup();
    const info = await screen.findByTestId('system-info');
    expect(info.querySelector('[data-stat="system.port"]')?.textContent).toBe('4747');
    expect(info.querySelector('[data-stat="system.data_dir"]')?.textContent).toBe(
      '/home/me/.config/Loci',
    );
    expect(info.textContent).toContain('v20.19.0');
    expect(info.textContent).toContain('3.53.0');
    expect(info.textContent).toContain('linux x64');
    expect(info.textContent).not.toContain('tok_');
    expect(
      within(info)
        .getByRole('link', { name: 'Show, copy or rotate on Connect' })
        .getAttribute('href'),
    ).toBe('#/connect');
    const about = screen.getByRole('region', { name: 'About' });
    expect(about.textContent).toContain('MIT');
    expect(about.textContent).toContain('README.md');
    expect(about.textContent).toContain('0.1.0');
  });
});

describe('store names', () => {
  it('accepts what the engine accepts', () => {
    expect(storeNameProblem('work')).toBeNull();
    expect(storeNameProblem('a-b_c1')).toBeNull();
    expect(storeNameProblem('')).toMatch(/Give the store a name/);
    expect(storeNameProblem('-x')).toMatch(/Not a valid/);
    expect(storeNameProblem('Work')).toMatch(/Not a valid/);
    expect(storeNameProblem('x'.repeat(64))).toMatch(/Not a valid/);
    expect(storeNameProblem('work', ['work'])).toMatch(/already exists/);
  });
});
