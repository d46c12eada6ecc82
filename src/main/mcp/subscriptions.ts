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
  /** The engine's change events, or their coming (the engine may still be opening). */
  events: EngineEvents | undefined | Promise<EngineEvents | undefined>;
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
  /**
   * Stale URIs waiting to be told, each with the changes (store, ids) of which the client
   * must see one memory for it to be told — null: told whatever it may see.
   */
  type Change = { store: string; ids: string[] };
  let pending = new Map<string, Change[] | null>();
  let flushTimer: NodeJS.Timeout | null = null;
  /** The memories among `ids` of `store` this client may see, as `store\nid` keys. */
  const visible = async (store: string, ids: Set<string>, into: Set<string>) => {
    const all = [...ids];
    for (let i = 0; i < all.length; i += 500) {
      try {
        const r = await watch.client().call('memory.titles', { store, ids: all.slice(i, i + 500) });
        for (const t of r.titles) into.add(`${store}\n${t.id}`);
      } catch {
        // A store gone or no longer readable: nothing in it to tell of.
      }
    }
  };
  // What came together is checked together: one visibility query per store per flush,
  // whatever the number of changes (an import makes thousands).
  const flush = async () => {
    flushTimer = null;
    const batch = pending;
    pending = new Map();
    const wanted = new Map<string, Set<string>>();
    for (const changes of batch.values()) {
      for (const c of changes ?? []) {
        const ids = wanted.get(c.store) ?? new Set<string>();
        for (const id of c.ids) ids.add(id);
        wanted.set(c.store, ids);
      }
    }
    const seen = new Set<string>();
    for (const [store, ids] of wanted) await visible(store, ids, seen);
    for (const [uri, changes] of batch) {
      // Unsubscribed meanwhile, or about nothing this client may see: nothing to tell.
      if (!subscribed.has(uri)) continue;
      if (changes && !changes.some((c) => c.ids.some((id) => seen.has(`${c.store}\n${id}`))))
        continue;
      server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  };
  const stale = (uris: string[], change: Change | null) => {
    for (const u of uris) {
      const held = pending.get(u);
      if (held === null) continue;
      pending.set(u, change ? [...(held ?? []), change] : null);
    }
    if (uris.length) flushTimer ??= setTimeout(() => void flush(), UPDATE_COALESCE_MS);
  };
  const offs: (() => void)[] = [];
  let closed = false;
  const follow = (events: EngineEvents | undefined) => {
    if (!events || closed) return;
    offs.push(
      events.on('memory.changed', (payload) => {
        if (subscribed.size === 0) return;
        const uris = staleUris(subscribed, watch.sessionStore, {
          event: 'memory.changed',
          payload,
        });
        if (uris.length === 0) return;
        // An erased memory cannot be looked up any more: told to those who subscribed to it.
        if (payload.change === 'erased') {
          stale(
            uris.filter((u) => payload.ids.some((id) => u === `memory://${id}`)),
            null,
          );
          return;
        }
        stale(uris, { store: payload.store, ids: payload.ids });
      }),
      events.on('link.changed', (payload) => {
        if (subscribed.size === 0) return;
        const uris = staleUris(subscribed, watch.sessionStore, { event: 'link.changed', payload });
        stale(uris, null);
      }),
      // The listed resources are per store: a new or renamed store changes the list.
      events.on('store.created', () => {
        server.sendResourceListChanged().catch(() => undefined);
      }),
      events.on('store.renamed', () => {
        server.sendResourceListChanged().catch(() => undefined);
      }),
    );
  };
  void Promise.resolve(watch.events).then(follow, () => undefined);
  server.onclose = () => {
    closed = true;
    for (const off of offs.splice(0)) off();
    if (flushTimer) clearTimeout(flushTimer);
    subscribed.clear();
  };
}
