// The open memory: its full view (forgotten ones too), its history (versions, validity,
// conflicts) and the memories its links lead to, each reloaded when an engine event names
// this memory or one of its conflicts — not on every change in the store, which an agent
// writing busily would make constant.
import type { EventMap } from '../../../../shared/events';
import { useEngineEvent } from '../../lib/useEngineEvent';
import { useEngineQuery } from '../../lib/useEngineQuery';

export function useMemoryDetail(id: string, store: string | null) {
  const at = store ? { store } : {};
  const memory = useEngineQuery('memory.get', { ...at, id, include_deleted: true });
  const history = useEngineQuery('memory.history', { ...at, id });
  // The other ends of its links, with titles and kinds, in one call (both directions).
  const neighbors = useEngineQuery(
    'graph.neighbors',
    { ...at, id, depth: 1, limit: 500 },
    { enabled: memory.data !== undefined && memory.data.deleted_at === null },
  );

  const ours = (payload: { store: string }) => !store || payload.store === store;
  useEngineEvent('memory.changed', (payload: EventMap['memory.changed']) => {
    if (!ours(payload)) return;
    if (payload.ids.includes(id)) {
      memory.reload();
      history.reload();
      neighbors.reload();
    } else if (payload.change !== 'created' && memory.data) {
      // A linked memory changed (its title, or it was forgotten): the link list follows.
      const linked = [...memory.data.links.outgoing, ...memory.data.links.incoming].some(
        (l) => payload.ids.includes(l.from) || payload.ids.includes(l.to),
      );
      if (linked) {
        memory.reload();
        neighbors.reload();
      }
    }
  });
  // A conflict found, decided or reopened may be one of its own (a dismissal changes no
  // memory, so no memory.changed says it): its history follows. They are rare.
  useEngineEvent('conflict.changed', (payload) => {
    if (!ours(payload)) return;
    const known = history.data?.conflicts?.some((c) => payload.ids.includes(c.id)) ?? false;
    if (known || payload.change === 'detected') history.reload();
  });
  useEngineEvent('link.changed', (payload) => {
    if (!ours(payload) || (payload.from !== id && payload.to !== id)) return;
    memory.reload();
    neighbors.reload();
  });

  return { memory, history, neighbors };
}

export type MemoryDetailData = ReturnType<typeof useMemoryDetail>;
