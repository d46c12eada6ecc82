// Subscribes a component to an engine event for as long as it is mounted. The handler
// may change on every render without resubscribing (it is read through a ref).
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { EventMap, EventName } from '../../../shared/events';
import { useEngineClient } from './engineContext';

export function useEngineEvent<E extends EventName>(
  event: E,
  handler: (payload: EventMap[E]) => void,
  enabled = true,
): void {
  const client = useEngineClient();
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!enabled) return;
    return client.on(event, (payload) => latest.current(payload));
  }, [client, event, enabled]);
}
