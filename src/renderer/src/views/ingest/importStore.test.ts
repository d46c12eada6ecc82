import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { IngestReport } from '../../../../shared/api';
import { createFakeClient } from '../../testing/fakeClient';
import { deferred, fileReport, progress, report } from './ingestFixtures';
import { FLUSH_MS, useImportStore } from './importStore';

beforeEach(() => useImportStore.getState().reset());

describe('the import store', () => {
  it('redraws a burst of progress at most once per FLUSH_MS, ending on the last step', async () => {
    const answer = deferred<IngestReport>();
    const client = createFakeClient({
      'ingest.upload': (a) => ({ upload: a.upload, path: a.path, bytes: 1, files: 1 }),
      'ingest.files': () => answer.promise,
    });
    const picked = { files: [{ path: 'big.md', file: new File(['# x'], 'big.md') }], left: [] };
    expect(useImportStore.getState().start(client, 'default', picked)).toBe(true);
    await waitFor(() => expect(useImportStore.getState().run?.phase).toBe('ingesting'));
    const batch = useImportStore.getState().run?.batch ?? '';

    let renders = 0;
    const off = useImportStore.subscribe(() => renders++);
    for (let i = 1; i <= 300; i++)
      client.emit(
        'ingest.progressed',
        progress(batch, { phase: 'chunk', file: 'big.md', chunks_done: i, chunks_total: 300 }),
      );
    expect(renders).toBe(0);
    await new Promise((r) => setTimeout(r, FLUSH_MS * 2));
    expect(renders).toBe(1);
    expect(useImportStore.getState().run?.rows[0]).toMatchObject({ chunksDone: 300 });

    // A new phase is shown at once.
    answer.resolve(report(batch, [fileReport('big.md', { chunks: 300 })]));
    await waitFor(() => expect(useImportStore.getState().run?.phase).toBe('done'));
    expect(renders).toBe(2);
    off();
  });
});
