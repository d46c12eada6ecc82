import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { IngestReport, IngestUploadResult } from '../../../../shared/api';
import { EngineCallError } from '../../lib/engineClient';
import { useDropStore } from '../../stores/dropStore';
import { useUiStore } from '../../stores/uiStore';
import { createFakeClient, type FakeHandlers } from '../../testing/fakeClient';
import { renderWithClient } from '../../testing/render';
import IngestView from '../IngestView';
import { useImportStore } from './importStore';
import {
  batchInfo,
  deferred,
  dirEntry,
  DOC_A,
  DOC_B,
  dropData,
  fileEntry,
  fileReport,
  progress,
  report,
} from './ingestFixtures';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const MD = '---\ntags: [deploy]\n---\n# Deploys\nRoll back with the previous tag.\n';
const CSV = 'name,role\nada,admin\n';

type UploadArgs = { upload: string; path: string; content_base64: string };
type FilesArgs = { store?: string; upload?: string; batch?: string };

function setup(handlers: FakeHandlers = {}) {
  const client = createFakeClient({
    'ingest.list': () => ({ store: 'default', batches: [] }),
    'ingest.upload': (args) => ({ upload: args.upload, path: args.path, bytes: 1, files: 1 }),
    'ingest.cancel': (args) => ({ batch: args.batch, cancelled: true }),
    'ingest.undo': (args) => ({
      batch: args.batch,
      store: 'default',
      status: 'undone',
      memories: 5,
    }),
    'ingest.redo': (args) => ({ batch: args.batch, store: 'default', status: 'done', memories: 5 }),
    'memory.get': (args) => {
      throw new EngineCallError('not-found', `no memory ${args.id}`);
    },
    ...handlers,
  });
  renderWithClient(<IngestView />, client);
  return client;
}

/** A folder "notes" with a Markdown file, a CSV and a hidden folder, dropped on the zone. */
function dropNotes() {
  const entries = [
    dirEntry('notes', [
      fileEntry(new File([MD], 'deploys.md', { lastModified: 1_700_000_000_000 })),
      dirEntry('.git', [fileEntry(new File(['x'], 'HEAD'))]),
      fileEntry(new File([CSV], 'people.csv')),
    ]),
  ];
  fireEvent.drop(screen.getByTestId('ingest-dropzone'), { dataTransfer: dropData(entries) });
}

const row = (path: string) =>
  document.querySelector(`[data-testid="ingest-files"] tr[data-file="${path}"]`) as HTMLElement;
const decode = (b64: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));

beforeEach(() => {
  useImportStore.getState().reset();
  useDropStore.setState({ offer: null });
});

describe('IngestView', () => {
  it('says what to do first when the store has no imports', async () => {
    setup();
    expect(await screen.findByText('No imports in this store yet')).toBeTruthy();
    const zone = screen.getByTestId('ingest-dropzone');
    expect(within(zone).getByRole('heading', { name: 'Drop files or folders here' })).toBeTruthy();
    expect(zone.textContent).toMatch(/Markdown, plain text, source code.*PDF and DOCX/);
    expect(zone.textContent).toContain('Up to 32 MB a file');
    expect(screen.getByRole('button', { name: 'Choose files…' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose a folder…' })).toBeTruthy();
    expect(screen.getByLabelText('A folder to import').hasAttribute('webkitdirectory')).toBe(true);
  });

  it('uploads a dropped folder, imports it with progress, links the results, and undoes and redoes it', async () => {
    const user = userEvent.setup();
    const answer = deferred<IngestReport>();
    const client = setup({ 'ingest.files': () => answer.promise });
    dropNotes();

    // Every file sent under one fresh upload id, with its path under the dropped folder.
    await waitFor(() => expect(client.callsOf('ingest.files')).toHaveLength(1));
    const uploads = client.callsOf('ingest.upload') as UploadArgs[];
    expect(uploads.map((u) => u.path).sort()).toEqual(['notes/deploys.md', 'notes/people.csv']);
    const upload = uploads[0]?.upload ?? '';
    expect(upload).toMatch(ULID);
    expect(uploads.every((u) => u.upload === upload)).toBe(true);
    const md = uploads.find((u) => u.path === 'notes/deploys.md');
    expect(decode(md?.content_base64 ?? '')).toBe(MD);
    expect(md).toMatchObject({ modified: 1_700_000_000_000 });
    const files = client.callsOf('ingest.files')[0] as FilesArgs;
    expect(files).toEqual({ store: 'default', upload, batch: expect.stringMatching(ULID) });
    const batch = files.batch ?? '';
    expect(batch).not.toBe(upload);
    // The hidden folder was not read, and says so.
    expect(row('notes/.git/').textContent).toContain('hidden folder, not read');

    // Progress events of this batch move the rows; another batch's are ignored.
    act(() => {
      client.emit('ingest.progressed', progress(batch, { phase: 'scanning', files: 2 }));
      client.emit(
        'ingest.progressed',
        progress(batch, { phase: 'file', file: 'notes/deploys.md', chunks_total: 3 }),
      );
      client.emit(
        'ingest.progressed',
        progress(batch, {
          phase: 'chunk',
          file: 'notes/deploys.md',
          chunks_done: 2,
          chunks_total: 3,
          bytes_done: 60,
        }),
      );
      client.emit(
        'ingest.progressed',
        progress('01JOTHER00000000000000000A', {
          phase: 'file-done',
          file: 'notes/people.csv',
          status: 'failed',
        }),
      );
    });
    // Redrawn at most every FLUSH_MS, however many events arrive.
    await waitFor(() => expect(row('notes/deploys.md').dataset.status).toBe('reading'));
    expect(within(row('notes/deploys.md')).getByText('2 / 3')).toBeTruthy();
    expect(
      within(row('notes/deploys.md')).getByRole('progressbar').getAttribute('aria-valuenow'),
    ).toBe('67');
    expect(row('notes/people.csv').dataset.status).toBe('uploaded');
    expect(screen.getByTestId('ingest-status').textContent).toBe('Importing: 0 of 2 files done.');
    act(() =>
      client.emit(
        'ingest.progressed',
        progress(batch, {
          phase: 'file-done',
          file: 'notes/deploys.md',
          status: 'ingested',
          chunks_done: 3,
          chunks_total: 3,
        }),
      ),
    );
    await waitFor(() =>
      expect(screen.getByTestId('ingest-status').textContent).toBe('Importing: 1 of 2 files done.'),
    );

    // The report: per-file status and reasons, links, totals.
    await act(async () =>
      answer.resolve(
        report(batch, [
          fileReport('notes/deploys.md', {
            chunks: 3,
            document_id: DOC_A,
            memory_ids: [
              '01JC1000000000000000000000',
              '01JC2000000000000000000000',
              '01JC3000000000000000000000',
            ],
            quarantined: 1,
          }),
          fileReport('notes/people.csv', {
            format: 'csv',
            chunks: 1,
            document_id: DOC_B,
            memory_ids: ['01JC4000000000000000000000'],
          }),
        ]),
      ),
    );
    await screen.findByRole('heading', { name: 'Import finished' });
    expect(screen.getByTestId('ingest-status').textContent).toBe(
      'Import finished: 2 files imported as 6 memories, 1 skipped, 0 failed.',
    );
    const link = within(row('notes/deploys.md')).getByRole('link', { name: 'notes/deploys.md' });
    expect(link.getAttribute('href')).toBe(`#/memories/${DOC_A}`);
    expect(row('notes/people.csv').textContent).toContain('csv');
    expect(within(row('notes/deploys.md')).getByText('1').className).toContain('ig-pill-warn');
    const summary = screen.getByTestId('ingest-summary');
    expect(within(summary).getByText('Memories').nextElementSibling?.textContent).toBe('6');
    expect(within(summary).getByText('Quarantined').nextElementSibling?.textContent).toBe('1');

    // The files that need a look, alone.
    await user.click(screen.getByLabelText('Only the files skipped or failed (1)'));
    expect(
      Array.from(document.querySelectorAll('[data-testid="ingest-files"] tbody tr')).map(
        (tr) => (tr as HTMLElement).dataset.file,
      ),
    ).toEqual(['notes/.git/']);
    await user.click(screen.getByLabelText('Only the files skipped or failed (1)'));

    // Undo forgets the batch (toast with Redo); Redo brings it back.
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(client.callsOf('ingest.undo')).toEqual([{ store: 'default', batch }]);
    const toast = useUiStore.getState().toasts.at(-1);
    expect(toast?.message).toBe('Undid the import: 5 memories forgotten.');
    expect(toast?.action?.label).toBe('Redo');
    expect(await screen.findByText('undone')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Redo' }));
    expect(client.callsOf('ingest.redo')).toEqual([{ store: 'default', batch }]);
    expect(useUiStore.getState().toasts.at(-1)?.message).toBe('Redid the import: 5 memories back.');
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy();

    // Done: back to the drop zone, where the keyboard continues.
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('ingest-files')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose files…' }));
  });

  it('links to the Memories view filtered by the batch tag', async () => {
    let batch = '';
    const client = setup({
      'ingest.files': (args) => {
        batch = args.batch ?? '';
        return report(batch, [fileReport('notes/deploys.md', { chunks: 1, document_id: DOC_A })]);
      },
      'memory.get': () =>
        ({ id: DOC_A, tags: ['source:deploys.md', `batch:${batch}`, 'deploy'] }) as never,
    });
    dropNotes();
    const link = await screen.findByTestId('ingest-batch-link');
    expect(client.callsOf('memory.get')).toEqual([
      { store: 'default', id: DOC_A, include_deleted: true },
    ]);
    expect(link.getAttribute('href')).toBe(`#/memories?tag=batch%3A${batch}`);
    expect(link.parentElement?.textContent).toContain(`(tag batch:${batch})`);
  });

  it('says which store an import went into when another store is shown', async () => {
    const user = userEvent.setup();
    setup({
      'ingest.files': (args) =>
        report(args.batch ?? '', [
          fileReport('notes/deploys.md', { chunks: 1, document_id: DOC_A }),
        ]),
    });
    dropNotes();
    await screen.findByRole('heading', { name: 'Import finished' });
    expect(screen.queryByRole('note')).toBeNull();
    act(() => useUiStore.getState().setStore('work'));
    expect(screen.getByRole('note').textContent).toContain(
      'This import went into the store default',
    );
    await user.click(screen.getByRole('button', { name: 'Switch to default' }));
    expect(useUiStore.getState().store).toBe('default');
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('cancels a running import with the batch id it chose', async () => {
    const user = userEvent.setup();
    const answer = deferred<IngestReport>();
    const client = setup({ 'ingest.files': () => answer.promise });
    dropNotes();
    await waitFor(() => expect(client.callsOf('ingest.files')).toHaveLength(1));
    const batch = (client.callsOf('ingest.files')[0] as FilesArgs).batch ?? '';
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(client.callsOf('ingest.cancel')).toEqual([{ batch }]);
    expect(screen.getByTestId('ingest-status').textContent).toBe('Cancelling the import…');
    await act(async () =>
      answer.resolve(
        report(
          batch,
          [fileReport('notes/deploys.md', { chunks: 2, document_id: DOC_A })],
          'cancelled',
        ),
      ),
    );
    await screen.findByRole('heading', { name: 'Import cancelled' });
    expect(row('notes/people.csv').dataset.status).toBe('cancelled');
    expect(row('notes/people.csv').textContent).toContain('not reached before the cancel');
    expect(row('notes/deploys.md').dataset.status).toBe('ingested');
  });

  it('cancels while files are still being sent: nothing is imported', async () => {
    const user = userEvent.setup();
    const sending = deferred<IngestUploadResult>();
    const client = setup({ 'ingest.upload': () => sending.promise });
    dropNotes();
    await screen.findByRole('heading', { name: 'Sending the files' });
    expect(screen.getByRole('progressbar', { name: 'Sending to Loci' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await act(async () => sending.resolve({ upload: 'x', path: 'x', bytes: 1, files: 1 }));
    await screen.findByRole('heading', { name: 'Import cancelled' });
    expect(client.callsOf('ingest.files')).toEqual([]);
    expect(client.callsOf('ingest.cancel')).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('stops with a clear error naming the file when an upload is refused', async () => {
    const client = setup({
      'ingest.upload': (args) => {
        if (args.path.endsWith('.csv'))
          throw new EngineCallError(
            'invalid-args',
            'ingest.upload: the upload is past its 512 MB limit',
            { status: 400 },
          );
        return { upload: args.upload, path: args.path, bytes: 1, files: 1 };
      },
    });
    dropNotes();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not send notes/people.csv to Loci');
    expect(alert.textContent).toContain('the upload is past its 512 MB limit (invalid-args)');
    expect(screen.getByRole('heading', { name: 'Import failed' })).toBeTruthy();
    expect(client.callsOf('ingest.files')).toEqual([]);
    // The drop zone takes the next import.
    expect(screen.getByRole('button', { name: 'Choose files…' })).toHaveProperty('disabled', false);
  });

  it('imports files chosen with the keyboard', async () => {
    const user = userEvent.setup();
    const client = setup({
      'ingest.files': (args) =>
        report(args.batch ?? '', [
          fileReport('a.txt', { format: 'text', chunks: 1, document_id: DOC_A }),
        ]),
    });
    await user.upload(screen.getByLabelText('Files to import'), new File(['hello'], 'a.txt'));
    await screen.findByRole('heading', { name: 'Import finished' });
    expect((client.callsOf('ingest.upload') as UploadArgs[]).map((u) => u.path)).toEqual(['a.txt']);
  });

  it('lists recent imports, undoes one, and refreshes when an import finishes', async () => {
    const user = userEvent.setup();
    const B1 = '01JB1000000000000000000000';
    let batches = [batchInfo(B1)];
    const client = setup({ 'ingest.list': () => ({ store: 'default', batches }) });
    const table = await screen.findByTestId('ingest-recent');
    const b1 = within(table).getByRole('row', { name: /notes/ });
    expect(b1.textContent).toContain('2 / 3');
    expect(b1.textContent).toContain('1 skipped, 0 failed');
    await user.click(within(b1).getByRole('button', { name: 'Undo the import of notes' }));
    expect(client.callsOf('ingest.undo')).toEqual([{ store: 'default', batch: B1 }]);

    batches = [batchInfo(B1, { status: 'undone' })];
    const before = client.callsOf('ingest.list').length;
    act(() => client.emit('ingest.changed', { store: 'default', batch: B1, status: 'undone' }));
    await waitFor(() => expect(client.callsOf('ingest.list').length).toBe(before + 1));
    await screen.findByRole('button', { name: 'Redo the import of notes' });

    // Chunk progress does not reload the list; a finished batch does.
    const n = client.callsOf('ingest.list').length;
    act(() => client.emit('ingest.progressed', progress(B1, { phase: 'chunk', file: 'x' })));
    await new Promise((r) => setTimeout(r, 20));
    expect(client.callsOf('ingest.list').length).toBe(n);
    act(() => client.emit('ingest.progressed', progress(B1, { phase: 'finished' })));
    await waitFor(() => expect(client.callsOf('ingest.list').length).toBe(n + 1));
  });

  it('shows why the recent imports could not be listed, and retries', async () => {
    let fail = true;
    setup({
      'ingest.list': () => {
        if (fail) throw new EngineCallError('store-corrupt', 'The store is damaged.');
        return { store: 'default', batches: [] };
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not list the recent imports');
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No imports in this store yet')).toBeTruthy();
  });
});
