// The live call feed: the daemon's recent calls (`activity.list`), then every
// `activity.recorded` event put on top without a reload. While held (paused, or the
// person scrolled down the list) new calls wait in `pending` so rows do not move under
// the pointer; releasing the hold puts them in. After a dropped connection only the gap
// is fetched (`after` the newest call seen). At most FEED_CAP calls are kept.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ActivitySummary } from '../../../../shared/api';
import type { LociError } from '../../../../shared/errors';
import { useEngineClient } from '../../lib/engineContext';
import { useEngineEvent } from '../../lib/useEngineEvent';
import { toLociError } from '../../lib/useEngineQuery';
import { useConnectionStore } from '../../stores/connectionStore';
import { FEED_CAP, mergeNewest } from './activityModel';

/** Calls asked for on the first load. */
export const FIRST_PAGE = 500;

export interface ActivityFeed {
  items: ActivitySummary[];
  /** Calls that arrived while held, newest first. */
  pending: ActivitySummary[];
  loading: boolean;
  error: LociError | null;
  /** Calls with an id above this arrived live (the first load had the rest). */
  liveAfter: number;
  /** Puts the pending calls in now. */
  flush(): void;
  reload(): void;
}

export function useActivityFeed({ hold }: { hold: boolean }): ActivityFeed {
  const client = useEngineClient();
  const generation = useConnectionStore((s) => s.generation);
  const [items, setItems] = useState<ActivitySummary[]>([]);
  const [pending, setPending] = useState<ActivitySummary[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<LociError | null>(null);
  const [liveAfter, setLiveAfter] = useState(Number.MAX_SAFE_INTEGER);
  const newest = useRef(0);
  const loaded = useRef(false);
  const holdRef = useRef(hold);
  holdRef.current = hold;

  const add = useCallback((incoming: readonly ActivitySummary[]) => {
    if (!incoming.length) return;
    for (const i of incoming) newest.current = Math.max(newest.current, i.id);
    if (holdRef.current) setPending((p) => mergeNewest(incoming, p, FEED_CAP));
    else setItems((list) => mergeNewest(incoming, list, FEED_CAP));
  }, []);

  const load = useCallback(
    async (fresh: boolean) => {
      const after = fresh ? 0 : newest.current;
      try {
        const { items: page } = await client.call(
          'activity.list',
          after > 0 ? { limit: FEED_CAP, after } : { limit: FIRST_PAGE },
        );
        setError(null);
        if (!loaded.current || fresh) {
          loaded.current = true;
          const top = page.reduce((m, i) => Math.max(m, i.id), newest.current);
          newest.current = top;
          setLiveAfter(top);
          setItems((list) => mergeNewest(page, fresh ? [] : list, FEED_CAP));
          if (fresh) setPending([]);
        } else {
          add(page);
        }
      } catch (err) {
        setError(toLociError(err));
      } finally {
        setLoading(false);
      }
    },
    [client, add],
  );

  // The first load, and the gap after the connection comes back.
  useEffect(() => {
    void load(false);
  }, [load, generation]);

  useEngineEvent('activity.recorded', (item) => add([item]));

  // Released (resumed, or scrolled back to the top): the waiting calls go in.
  useEffect(() => {
    if (hold || pending.length === 0) return;
    setItems((list) => mergeNewest(pending, list, FEED_CAP));
    setPending([]);
  }, [hold, pending]);

  return {
    items,
    pending,
    loading,
    error,
    liveAfter,
    flush: () => {
      setItems((list) => mergeNewest(pending, list, FEED_CAP));
      setPending([]);
    },
    reload: () => {
      setLoading(true);
      void load(true);
    },
  };
}
