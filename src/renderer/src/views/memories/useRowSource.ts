// Where the list's rows come from: memory.list through a page cache (browsing, any
// length), or memory.recall (searching, at most a hundred ranked hits). Both keep up with
// engine events for the store shown and with a reconnect, and both keep the previous rows
// on screen while the next filter set or query loads.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { LociError } from '../../../../shared/errors';
import { useEngineClient } from '../../lib/engineContext';
import { useEngineEvent } from '../../lib/useEngineEvent';
import { toLociError } from '../../lib/useEngineQuery';
import { useConnectionStore } from '../../stores/connectionStore';
import {
  keepHit,
  LIST_LIMIT_MAX,
  listArgs,
  recallArgs,
  rowFromHit,
  rowFromSummary,
  type Filters,
  type MemoryRow,
} from './model';
import { PageCache } from './pageCache';

export const BLOCK_SIZE = 100;
/** Blocks kept: a few screens around the view, whatever the list's length. */
export const MAX_BLOCKS = 24;
export const RANGE_THROTTLE_MS = 60;
/** Bursts of engine events (an agent writing many memories) refresh once. */
export const EVENT_THROTTLE_MS = 300;
export const SEARCH_DEBOUNCE_MS = 200;

export interface RowSource {
  mode: 'list' | 'search';
  /** Changes whenever a new filter set or query is shown (the list scrolls to the top). */
  identity: string;
  /** Rows in all; 0 until known. */
  count: number;
  row(index: number): MemoryRow | undefined;
  /** The rows on screen now (inclusive). */
  setRange(start: number, end: number): void;
  /** Every row from start to end, fetching what is missing (shift-click ranges). */
  rows(start: number, end: number): Promise<MemoryRow[]>;
  /** No answer yet for anything. */
  loading: boolean;
  /** A newer answer is on its way while older rows are shown. */
  refreshing: boolean;
  error: LociError | null;
  retry(): void;
  /** Search only: what recall said about the answer. */
  note: string | null;
}

function useThrottled(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  latest.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useMemo(
    () => () => {
      timer.current ??= setTimeout(() => {
        timer.current = null;
        latest.current();
      }, ms);
    },
    [ms],
  );
}

interface Entry {
  cache: PageCache<MemoryRow>;
  key: string;
}

const NO_CACHE = {
  subscribe: () => () => undefined,
  getVersion: () => 0,
};

export function useListSource(filters: Filters, store: string | null, enabled: boolean): RowSource {
  const client = useEngineClient();
  const generation = useConnectionStore((s) => s.generation);
  const args = useMemo(() => listArgs(filters, store), [filters, store]);
  const key = JSON.stringify(args);
  const [caches, setCaches] = useState<{ current: Entry | null; next: Entry | null }>({
    current: null,
    next: null,
  });

  useEffect(() => {
    if (!enabled) return;
    const parsed = JSON.parse(key) as typeof args;
    const cache = new PageCache<MemoryRow>({
      blockSize: BLOCK_SIZE,
      maxRequestRows: LIST_LIMIT_MAX,
      maxBlocks: MAX_BLOCKS,
      throttleMs: RANGE_THROTTLE_MS,
      fetch: (offset, limit, signal) =>
        client
          .call('memory.list', { ...parsed, offset, limit }, { signal })
          .then((r) => ({ items: r.items.map(rowFromSummary), total: r.total })),
    });
    const entry: Entry = { cache, key };
    setCaches((c) => ({ current: c.current, next: entry }));
    const off = cache.subscribe(() => {
      if (cache.total === null && !cache.error) return;
      off();
      // The new filter set has its first answer: show it in place of the previous one.
      setCaches((c) => (c.next === entry ? { current: entry, next: null } : c));
    });
    cache.setRange(0, BLOCK_SIZE - 1);
    return () => {
      off();
      cache.dispose();
    };
  }, [client, key, enabled]);

  const shown = caches.current?.cache ?? null;
  useSyncExternalStore(
    shown?.subscribe ?? NO_CACHE.subscribe,
    shown?.getVersion ?? NO_CACHE.getVersion,
  );

  const invalidate = useThrottled(() => {
    caches.current?.cache.invalidate();
  }, EVENT_THROTTLE_MS);
  useEngineEvent(
    'memory.changed',
    (payload) => {
      if (!store || payload.store === store) invalidate();
    },
    enabled,
  );

  // A reconnect: whatever happened meanwhile was not announced to this page.
  const seenGeneration = useRef(generation);
  useEffect(() => {
    if (seenGeneration.current === generation) return;
    seenGeneration.current = generation;
    caches.current?.cache.invalidate();
  }, [generation, caches]);

  const cache = shown;
  return {
    mode: 'list',
    identity: `list ${caches.current?.key ?? ''}`,
    count: cache?.total ?? 0,
    row: (i) => cache?.item(i),
    setRange: (start, end) => cache?.setRange(start, end),
    rows: (start, end) => (cache ? cache.rows(start, end) : Promise.resolve([])),
    loading: !cache || (cache.total === null && !cache.error),
    refreshing: caches.next !== null || (cache?.busy ?? false),
    error: cache?.error ?? null,
    retry: () => cache?.retry(),
    note: null,
  };
}

interface SearchState {
  key: string;
  rows: MemoryRow[] | null;
  error: LociError | null;
  running: boolean;
  note: string | null;
}

export function useSearchSource(
  query: string,
  filters: Filters,
  store: string | null,
  enabled: boolean,
): RowSource {
  const client = useEngineClient();
  const generation = useConnectionStore((s) => s.generation);
  const q = query.trim();
  const key = JSON.stringify(recallArgs(q, filters, store));
  const [state, setState] = useState<SearchState>({
    key: '',
    rows: null,
    error: null,
    running: false,
    note: null,
  });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);

  useEffect(() => {
    if (!enabled || !q) return;
    const id = ++seq.current;
    const controller = new AbortController();
    setState((s) => ({ ...s, running: true }));
    const timer = setTimeout(() => {
      client.call('memory.recall', JSON.parse(key), { signal: controller.signal }).then(
        (result) => {
          if (id !== seq.current) return;
          // The engine explains a weaker answer in its own words; say it once.
          const notes = result.degraded.length
            ? [...result.degraded]
            : result.semantic === 'off'
              ? ['matching words only (no embedding model)']
              : [];
          const hidden = result.hidden_versions ?? 0;
          if (hidden)
            notes.push(
              `${hidden} older version${hidden === 1 ? '' : 's'} hidden (superseded; “All memories” shows ${hidden === 1 ? 'it' : 'them'})`,
            );
          setState({
            key,
            rows: result.results.map(rowFromHit).filter((row) => keepHit(row, filters)),
            error: null,
            running: false,
            note: notes.length ? notes.join('; ') : null,
          });
        },
        (err: unknown) => {
          if ((err as { name?: unknown })?.name === 'AbortError' || id !== seq.current) return;
          setState((s) => ({ ...s, key, error: toLociError(err), running: false }));
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `filters` is in `key` (what recall gets) and in keepHit (what it filters after).
  }, [client, key, enabled, q, tick, generation, filters]);

  const again = useThrottled(() => setTick((t) => t + 1), EVENT_THROTTLE_MS);
  useEngineEvent(
    'memory.changed',
    (payload) => {
      if (!store || payload.store === store) again();
    },
    enabled && q !== '',
  );

  const rows = state.rows;
  return {
    mode: 'search',
    identity: `search ${state.key}`,
    count: rows?.length ?? 0,
    row: (i) => rows?.[i],
    setRange: () => undefined,
    rows: async (start, end) => (rows ?? []).slice(start, end + 1),
    loading: rows === null && !state.error,
    refreshing: state.running && rows !== null,
    error: state.error,
    retry: () => setTick((t) => t + 1),
    note: state.note,
  };
}
