// Resource subscriptions for one MCP session: a URI is taken once it reads (it exists,
// and this client may read it); each committed change that makes it stale is told as
// notifications/resources/updated, coalesced, and a new or renamed store as list_changed.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { LociClient } from '../../shared/api';
import type { EngineEvents } from '../engine/events';
import { ProtocolError } from './errors';
import { readMemoryResource, staleUris } from './resources';

/** Resources one session may watch at once. */
export const MAX_SUBSCRIPTIONS = 1000;

/** Changes that come together (a batch, an import) make one notification per resource. */
const UPDATE_COALESCE_MS = 20;

export interface ResourceWatch {
  /** A client calling as the session's caller. */
  client: () => LociClient;
  events: EngineEvents | undefined;
  /** The store the session's resources default to, as given (undefined: the default). */
  defaultStore: string | undefined;
  /** The name of that store, as change events carry it. */
  sessionStore: string;
}

/** Registers resources/subscribe and unsubscribe on `server`, and follows the engine's changes until it closes. */
export function watchResources(server: Server, watch: ResourceWatch): void {
  // Subscriptions: a URI is taken once it reads (it exists, and this client may read
  // it); each committed change that makes it stale is told as resources/updated.
  const subscribed = new Set<string>();
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    if (!subscribed.has(request.params.uri) && subscribed.size >= MAX_SUBSCRIPTIONS) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `This session has ${MAX_SUBSCRIPTIONS} subscriptions already, the most it may have: unsubscribe from some first (memory://changes tells of every change).`,
      );
    }
    await readMemoryResource(watch.client(), request.params.uri, watch.defaultStore);
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  const pending = new Set<string>();
  let flushTimer: NodeJS.Timeout | null = null;
  const flush = () => {
    flushTimer = null;
    for (const uri of pending) {
      // Unsubscribed meanwhile: nothing to tell.
      if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
    pending.clear();
  };
  const stale = (uris: string[]) => {
    for (const u of uris) pending.add(u);
    if (uris.length) flushTimer ??= setTimeout(flush, UPDATE_COALESCE_MS);
  };
  /** Whether this client may see any of the memories a change touched. */
  const seesAny = async (store: string, ids: string[]) => {
    try {
      return (
        (await watch.client().call('memory.titles', { store, ids: ids.slice(0, 500) })).titles
          .length > 0
      );
    } catch {
      return false;
    }
  };
  const offs: (() => void)[] = [];
  if (watch.events) {
    offs.push(
      watch.events.on('memory.changed', (payload) => {
        if (subscribed.size === 0) return;
        const uris = staleUris(subscribed, watch.sessionStore, {
          event: 'memory.changed',
          payload,
        });
        if (uris.length === 0) return;
        // An erased memory cannot be looked up any more: told to those who subscribed to it.
        if (payload.change === 'erased') {
          stale(uris.filter((u) => payload.ids.some((id) => u === `memory://${id}`)));
          return;
        }
        void seesAny(payload.store, payload.ids).then((yes) => {
          if (yes) stale(uris);
        });
      }),
      watch.events.on('link.changed', (payload) => {
        if (subscribed.size === 0) return;
        const uris = staleUris(subscribed, watch.sessionStore, { event: 'link.changed', payload });
        if (uris.length) stale(uris);
      }),
      // The listed resources are per store: a new or renamed store changes the list.
      watch.events.on('store.created', () => {
        server.sendResourceListChanged().catch(() => undefined);
      }),
      watch.events.on('store.renamed', () => {
        server.sendResourceListChanged().catch(() => undefined);
      }),
    );
  }
  server.onclose = () => {
    for (const off of offs.splice(0)) off();
    if (flushTimer) clearTimeout(flushTimer);
    subscribed.clear();
  };
}
