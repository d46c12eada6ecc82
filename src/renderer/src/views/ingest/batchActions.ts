// Undo and Redo of an import batch (ingest.undo / ingest.redo), each confirmed by a toast
// that offers the other one. The engine forgets (soft-deletes) or restores the batch's
// memories in one transaction and announces ingest.changed; lists refresh from that.
import type { EngineClient } from '../../lib/engineClient';
import { toLociError } from '../../lib/useEngineQuery';
import { useUiStore } from '../../stores/uiStore';
import { useImportStore } from './importStore';
import { plural } from './importModel';

export type BatchAction = 'undo' | 'redo';

export async function runBatchAction(
  client: EngineClient,
  store: string,
  batch: string,
  action: BatchAction,
): Promise<boolean> {
  const ui = useUiStore.getState();
  try {
    const result =
      action === 'undo'
        ? await client.call('ingest.undo', { store, batch })
        : await client.call('ingest.redo', { store, batch });
    useImportStore.getState().markUndone(batch, action === 'undo');
    const count = plural(result.memories, 'memory', 'memories');
    ui.toast({
      message:
        action === 'undo'
          ? `Undid the import: ${count} forgotten.`
          : `Redid the import: ${count} back.`,
      tone: 'success',
      action: {
        label: action === 'undo' ? 'Redo' : 'Undo',
        run: () => void runBatchAction(client, store, batch, action === 'undo' ? 'redo' : 'undo'),
      },
    });
    return true;
  } catch (err) {
    ui.toast({
      message: `Could not ${action} the import: ${toLociError(err).message}`,
      tone: 'error',
    });
    return false;
  }
}
