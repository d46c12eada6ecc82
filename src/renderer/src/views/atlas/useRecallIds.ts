// The memories recall returns for the Atlas's search (by meaning, not only by the words
// in titles and tags): debounced, without rehearsal (looking is not using), and only
// while the person asked for it.
import { useEffect, useState } from 'react';
import type { LociError } from '../../../../shared/errors';
import { useEngineClient } from '../../lib/engineContext';
import { toLociError } from '../../lib/useEngineQuery';

export const RECALL_LIMIT = 20;
const DEBOUNCE_MS = 350;

export interface RecallIds {
  ids: readonly string[];
  /** A call is on its way. */
  pending: boolean;
  error: LociError | null;
  /** True when recall found nothing relevant. */
  abstained: boolean;
}

const NONE: RecallIds = { ids: [], pending: false, error: null, abstained: false };

export function useRecallIds(store: string | null, query: string, enabled: boolean): RecallIds {
  const client = useEngineClient();
  const [state, setState] = useState<RecallIds & { key: string }>({ ...NONE, key: '' });
  const q = query.trim();
  const key = enabled && q && store ? `${store}\n${q}` : '';

  useEffect(() => {
    if (!key || !store) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, key, pending: true }));
      client
        .call(
          'memory.recall',
          { store, query: q, limit: RECALL_LIMIT, rehearse: false },
          { signal: controller.signal },
        )
        .then((result) => {
          setState({
            key,
            ids: result.results.map((r) => r.id),
            pending: false,
            error: null,
            abstained: result.abstained,
          });
        })
        .catch((err: unknown) => {
          if ((err as { name?: unknown } | null)?.name === 'AbortError') return;
          setState({ key, ids: [], pending: false, error: toLociError(err), abstained: false });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, key, store, q]);

  if (!key) return NONE;
  // Until this query's answer arrives, an older query's ids are not shown as its own.
  return state.key === key ? state : { ...NONE, pending: true };
}
