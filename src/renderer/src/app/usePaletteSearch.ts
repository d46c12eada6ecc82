// The command palette's memory search: `memory.recall` as the user types (debounced,
// compact, 8 results, without rehearsing what it shows), the previous answer kept on
// screen until the next arrives, and superseded calls aborted.
import { useEffect, useState } from 'react';
import type { RecallResult } from '../../../shared/api';
import type { LociError } from '../../../shared/errors';
import type { LIMITS } from '../../../shared/schemas';
import { useEngineClient } from '../lib/engineContext';
import { toLociError } from '../lib/useEngineQuery';

export const PALETTE_DEBOUNCE_MS = 150;
export const PALETTE_LIMIT = 8;
// The contract's limit, tied to it by type: importing the value would bundle zod.
const QUERY_MAX_CHARS: (typeof LIMITS)['queryMaxChars'] = 2000;

export interface PaletteSearch {
  status: 'idle' | 'loading' | 'done' | 'error';
  /** The query the shown answer is for. */
  query: string;
  result: RecallResult | null;
  error: LociError | null;
}

const IDLE: PaletteSearch = { status: 'idle', query: '', result: null, error: null };

export function usePaletteSearch(input: string, store: string | null): PaletteSearch {
  const client = useEngineClient();
  const [state, setState] = useState<PaletteSearch>(IDLE);
  const query = input.trim().slice(0, QUERY_MAX_CHARS);

  useEffect(() => {
    if (!query) {
      setState(IDLE);
      return;
    }
    setState((s) => ({ ...s, status: 'loading' }));
    const controller = new AbortController();
    const timer = setTimeout(() => {
      client
        .call(
          'memory.recall',
          {
            query,
            limit: PALETTE_LIMIT,
            format: 'compact',
            // Looking something up in the observatory is not the agent using it.
            rehearse: false,
            ...(store ? { store } : {}),
          },
          { signal: controller.signal },
        )
        .then(
          (result) => setState({ status: 'done', query, result, error: null }),
          (err: unknown) => {
            if ((err as { name?: unknown })?.name === 'AbortError') return;
            setState({ status: 'error', query, result: null, error: toLociError(err) });
          },
        );
    }, PALETTE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, query, store]);

  return state;
}
