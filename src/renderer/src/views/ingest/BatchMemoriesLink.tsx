// "Show them in Memories": the Memories view filtered by the tag every memory of the
// batch carries. The tag is read from a document memory of the batch (the one tag that
// names the batch id), so this view does not hard-code how the engine spells it.
import { useEngineQuery } from '../../lib/useEngineQuery';
import { navigate } from '../../lib/router';
import { useMemoriesStore } from '../memories/memoriesStore';
import { DEFAULT_FILTERS } from '../memories/model';
import type { ImportRun } from './importModel';

export function batchTag(tags: readonly string[], batch: string): string | null {
  return tags.find((t) => t.includes(batch)) ?? null;
}

export function showBatchInMemories(tag: string, undone: boolean): void {
  const memories = useMemoriesStore.getState();
  memories.setQuery('');
  memories.setFilters({
    ...DEFAULT_FILTERS,
    tags: [tag],
    // Undone: the batch's memories are forgotten; show them anyway.
    deleted: undone ? 'include' : 'exclude',
  });
  navigate('/memories');
}

export function BatchMemoriesLink({ run }: { run: ImportRun }) {
  const doc = run.rows.find((r) => r.documentId !== null)?.documentId ?? null;
  const memory = useEngineQuery(
    'memory.get',
    { store: run.store, id: doc ?? '', include_deleted: true },
    { enabled: doc !== null },
  );
  const tag = memory.data ? batchTag(memory.data.tags, run.batch) : null;
  if (!tag) return null;
  return (
    <span className="ig-batch">
      <a
        href="#/memories"
        className="ig-batch-link"
        data-testid="ingest-batch-link"
        onClick={(event) => {
          event.preventDefault();
          showBatchInMemories(tag, run.undone);
        }}
      >
        Show them all in Memories
      </a>{' '}
      (tag <code className="mono">{tag}</code>)
    </span>
  );
}
