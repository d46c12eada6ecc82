// "Show them all in Memories": a link to the Memories view filtered by the tag every
// memory of the batch carries (`#/memories?tag=…`). The tag is read from a document memory
// of the batch (the one tag that names the batch id): the contract does not spell it.
import { useEngineQuery } from '../../lib/useEngineQuery';
import { routeHref } from '../../lib/router';
import type { ImportRun } from './importModel';

export function batchTag(tags: readonly string[], batch: string): string | null {
  return tags.find((t) => t.includes(batch)) ?? null;
}

/** The Memories view's address for a batch's memories (forgotten ones too once undone). */
export function batchMemoriesHref(tag: string, undone: boolean): string {
  return routeHref('/memories', { tag, ...(undone ? { deleted: 'include' } : {}) });
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
        href={batchMemoriesHref(tag, run.undone)}
        className="ig-batch-link"
        data-testid="ingest-batch-link"
      >
        Show them all in Memories
      </a>{' '}
      (tag <code className="mono">{tag}</code>)
    </span>
  );
}
