// The MCP clients connected now and the last call of each (clients.list), for the
// Connect view and the Overview. Reloaded when a session opens or closes and on every
// recorded call (for the last call), and every so often anyway (for "last seen").
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { ActivitySummary, ClientListResult, ClientSession } from '../../../../shared/api';
import { useEngineQuery, type EngineQuery } from '../../lib/useEngineQuery';

export const CLIENTS_POLL_MS = 15_000;

export function useClients(pollMs = CLIENTS_POLL_MS): EngineQuery<ClientListResult> {
  const query = useEngineQuery(
    'clients.list',
    {},
    { refreshOn: ['clients.changed', 'activity.recorded'], throttleMs: 500 },
  );
  const reload = useRef(query.reload);
  useLayoutEffect(() => {
    reload.current = query.reload;
  });
  useEffect(() => {
    if (pollMs <= 0) return;
    const timer = setInterval(() => reload.current(), pollMs);
    return () => clearInterval(timer);
  }, [pollMs]);
  return query;
}

/** The activity feed names MCP clients `mcp:<client>`. */
export function lastCallOf(
  session: Pick<ClientSession, 'client'>,
  lastCalls: readonly ActivitySummary[],
): ActivitySummary | undefined {
  return lastCalls.find((c) => c.actor === `mcp:${session.client}` || c.actor === session.client);
}

/** `mcp:cursor` → `cursor`; other actors as they are. */
export function actorName(actor: string): string {
  return actor.startsWith('mcp:') ? actor.slice(4) : actor;
}
