// Ingest: files and folders become memories. A drop zone (dropping anywhere on the window
// works too; the shell hands those files here), the import running now with per-file
// progress and Cancel, its results with links and Undo/Redo, and the recent imports.
import { useEffect } from 'react';
import { LoadingState } from '../components/LoadingState';
import { useEngineClient } from '../lib/engineContext';
import { useDropStore } from '../stores/dropStore';
import { useUiStore } from '../stores/uiStore';
import { DropZone } from './ingest/DropZone';
import { ImportPanel } from './ingest/ImportPanel';
import { isRunning, useImportStore } from './ingest/importStore';
import { RecentImports } from './ingest/RecentImports';
import './ingest/ingest.css';

/** Takes files handed over by a drop or a chooser, and starts their import. */
function useDropOffers(store: string | null): void {
  const client = useEngineClient();
  const offer = useDropStore((s) => s.offer);
  useEffect(() => {
    if (!offer || !store) return;
    const taken = useDropStore.getState().take();
    if (!taken) return;
    void taken.files.then(
      (picked) => {
        const ui = useUiStore.getState();
        if (picked.files.length === 0 && picked.left.length === 0) {
          ui.toast({
            message: 'Nothing to import: what was dropped holds no files (an empty folder?).',
            tone: 'error',
          });
          return;
        }
        if (!useImportStore.getState().start(client, store, picked))
          ui.toast({
            message: 'An import is running: wait for it to finish, or cancel it, then drop again.',
            tone: 'error',
          });
      },
      () =>
        useUiStore.getState().toast({
          message: 'The browser could not read what was dropped. Try “Choose files…” instead.',
          tone: 'error',
        }),
    );
  }, [offer, store, client]);
}

export default function IngestView() {
  const store = useUiStore((s) => s.store);
  const run = useImportStore((s) => s.run);
  useDropOffers(store);
  const running = isRunning(run);

  return (
    <div className="view ingest-view">
      <header className="view-header">
        <div>
          <h1 className="view-title">Ingest</h1>
          <p className="view-subtitle">
            Files and folders become memories tagged{' '}
            <code className="mono">source:&lt;file&gt;</code>
            {store ? (
              <>
                {' '}
                in the store <strong>{store}</strong>
              </>
            ) : null}
          </p>
        </div>
      </header>
      <div className="ig-stack">
        <DropZone busy={running} compact={run !== null} />
        {run ? <ImportPanel run={run} /> : null}
        {store ? (
          <RecentImports store={store} />
        ) : (
          <LoadingState label="Loading the stores…" fill={false} />
        )}
      </div>
    </div>
  );
}
