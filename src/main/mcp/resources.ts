// The MCP resources: what a client may read, and subscribe to, by URI.
//
//   memory://map                     the memory map of the session's store
//   memory://changes                 its recent changes (memories by when they last changed)
//   memory://{id}                    one memory in full
//   memory://tags/{tag}              the memories with a tag
//   memory://kinds/{kind}            the memories of a kind
//   memory://stores/{store}/map      another store's map
//   memory://stores/{store}/changes  another store's recent changes
//
// Every read is a contract call made as the session's caller (its token's policy holds);
// which change makes which URI stale is decided here, from the engine's change events.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { LociClient, MemorySummary } from '../../shared/api';
import { toErrorData } from '../../shared/errors';
import type { EventMap } from '../../shared/events';
import { KindSchema, MemoryIdSchema, StoreNameSchema, TagSchema } from '../../shared/schemas';
import { ProtocolError } from './errors';

/** JSON-RPC's "resource not found" (MCP's resources spec). */
export const RESOURCE_NOT_FOUND = -32002;

/** How many memories the change and listing resources hold. */
const LISTING_LIMIT = 100;

export type MemoryUri =
  | { kind: 'map'; store: string | undefined }
  | { kind: 'changes'; store: string | undefined }
  | { kind: 'memory'; id: string }
  | { kind: 'tag'; tag: string }
  | { kind: 'kind'; memoryKind: string };

export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'memory://{id}',
    name: 'memory',
    title: 'A memory',
    description: 'One memory in full, by id.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'memory://tags/{tag}',
    name: 'tag',
    title: 'Memories with a tag',
    description: `The memories with this tag, the latest changed first (at most ${LISTING_LIMIT}).`,
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'memory://kinds/{kind}',
    name: 'kind',
    title: 'Memories of a kind',
    description: `The memories of this kind (episodic, semantic, procedural, …), the latest changed first (at most ${LISTING_LIMIT}).`,
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'memory://stores/{store}/map',
    name: 'store-map',
    title: "A store's memory map",
    description: 'One line per memory of that store, within 2,000 tokens.',
    mimeType: 'text/plain',
  },
  {
    uriTemplate: 'memory://stores/{store}/changes',
    name: 'store-changes',
    title: "A store's recent changes",
    description: `That store's memories by when they last changed (at most ${LISTING_LIMIT}).`,
    mimeType: 'application/json',
  },
];

/** Template variables, by the completion field that offers their values. */
export const TEMPLATE_FIELDS: Record<string, 'id' | 'tag' | 'kind' | 'store'> = {
  id: 'id',
  tag: 'tag',
  kind: 'kind',
  store: 'store',
};

const invalid = (message: string) => new ProtocolError(ErrorCode.InvalidParams, message);

const checked = <T>(
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
  v: string,
  what: string,
): T => {
  const r = schema.safeParse(v);
  if (!r.success) throw invalid(`"${v}" is not ${what}.`);
  return r.data as T;
};

/** The resource a URI names; a protocol error (invalid params) for anything else. */
export function parseMemoryUri(uri: string): MemoryUri {
  const m = /^memory:\/\/(.+)$/.exec(uri);
  if (!m) {
    throw invalid(
      `Unknown resource "${uri}": Loci's resources are memory://map, memory://changes, memory://<id>, memory://tags/<tag>, memory://kinds/<kind> and memory://stores/<store>/map|changes.`,
    );
  }
  const path = (m[1] as string).split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      throw invalid(`"${uri}" is not a valid URI (a broken %-escape).`);
    }
  });
  const [head, a, b] = path;
  if (path.length === 1 && head === 'map') return { kind: 'map', store: undefined };
  if (path.length === 1 && head === 'changes') return { kind: 'changes', store: undefined };
  if (path.length === 2 && head === 'tags')
    return { kind: 'tag', tag: checked(TagSchema, a as string, 'a tag') };
  if (path.length === 2 && head === 'kinds')
    return { kind: 'kind', memoryKind: checked(KindSchema, a as string, 'a memory kind') };
  if (path.length === 3 && head === 'stores' && (b === 'map' || b === 'changes')) {
    return { kind: b, store: checked(StoreNameSchema, a as string, 'a store name') };
  }
  if (path.length === 1) {
    return { kind: 'memory', id: checked(MemoryIdSchema, head as string, 'a memory id') };
  }
  throw invalid(`Unknown resource "${uri}".`);
}

const summary = (m: MemorySummary) => ({
  id: m.id,
  uri: `memory://${m.id}`,
  title: m.title,
  kind: m.kind,
  tags: m.tags,
  pinned: m.pinned,
  version: m.version,
  created_at: m.created_at,
  updated_at: m.updated_at,
  deleted_at: m.deleted_at,
});

const json = (uri: string, value: unknown) => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

/** Reads one resource as the caller `client`; `store` is the session's default store. */
export async function readMemoryResource(
  client: LociClient,
  uri: string,
  defaultStore: string | undefined,
) {
  const r = parseMemoryUri(uri);
  const at = (store: string | undefined) => {
    const s = store ?? defaultStore;
    return s ? { store: s } : {};
  };
  try {
    switch (r.kind) {
      case 'map': {
        const map = await client.call('memory.map', at(r.store));
        return { contents: [{ uri, mimeType: 'text/plain', text: map.text }] };
      }
      case 'changes': {
        // Forgotten memories too: a forget is a change.
        const list = await client.call('memory.list', {
          ...at(r.store),
          order: 'updated',
          deleted: 'include',
          limit: LISTING_LIMIT,
        });
        return json(uri, { changes: list.items.map(summary), total: list.total });
      }
      case 'tag':
      case 'kind': {
        const list = await client.call('memory.list', {
          ...at(undefined),
          ...(r.kind === 'tag' ? { tags: [r.tag] } : { kinds: [r.memoryKind as never] }),
          order: 'updated',
          limit: LISTING_LIMIT,
        });
        return json(uri, { memories: list.items.map(summary), total: list.total });
      }
      case 'memory': {
        const memory = await client.call('memory.get', { ...at(undefined), id: r.id });
        return json(uri, memory);
      }
    }
  } catch (err) {
    const data = toErrorData(err);
    if (data.code === 'not-found' || data.code === 'store-not-found') {
      throw new ProtocolError(RESOURCE_NOT_FOUND, data.message);
    }
    throw new ProtocolError(
      data.code === 'forbidden' || data.code === 'invalid-args'
        ? ErrorCode.InvalidParams
        : ErrorCode.InternalError,
      data.message,
    );
  }
}

/** The resources listed (not templated): the session store's map and changes, then each other store's. */
export function listedResources(stores: readonly string[], sessionStore: string | undefined) {
  const mine = [
    {
      uri: 'memory://map',
      name: 'map',
      title: 'Memory map',
      description: 'One line per memory (pinned first, then newest), within 2,000 tokens.',
      mimeType: 'text/plain',
    },
    {
      uri: 'memory://changes',
      name: 'changes',
      title: 'Recent changes',
      description: `Memories by when they last changed, forgotten ones included (at most ${LISTING_LIMIT}); subscribe to be told of each change.`,
      mimeType: 'application/json',
    },
  ];
  const others = stores
    .filter((s) => s !== (sessionStore ?? 'default'))
    .flatMap((s) => [
      {
        uri: `memory://stores/${encodeURIComponent(s)}/map`,
        name: `${s}-map`,
        title: `Memory map of store ${s}`,
        mimeType: 'text/plain',
      },
      {
        uri: `memory://stores/${encodeURIComponent(s)}/changes`,
        name: `${s}-changes`,
        title: `Recent changes in store ${s}`,
        mimeType: 'application/json',
      },
    ]);
  return [...mine, ...others];
}

/**
 * Which of the subscribed URIs a change makes stale. `store` is the session's store (by
 * name); `visible` says whether the caller may see any of the memories changed.
 */
export function staleUris(
  subscribed: Iterable<string>,
  sessionStore: string,
  change:
    | { event: 'memory.changed'; payload: EventMap['memory.changed'] }
    | { event: 'link.changed'; payload: EventMap['link.changed'] },
): string[] {
  const ids =
    change.event === 'memory.changed'
      ? new Set(change.payload.ids)
      : new Set([change.payload.from, change.payload.to]);
  const store = change.payload.store;
  const out: string[] = [];
  for (const uri of subscribed) {
    let r: MemoryUri;
    try {
      r = parseMemoryUri(uri);
    } catch {
      continue;
    }
    const ofStore = (s: string | undefined) => (s ?? sessionStore) === store;
    switch (r.kind) {
      case 'memory':
        if (store === sessionStore && ids.has(r.id)) out.push(uri);
        break;
      case 'map':
      case 'changes':
        // A link changes neither the map nor what changed.
        if (change.event === 'memory.changed' && ofStore(r.store)) out.push(uri);
        break;
      case 'tag':
      case 'kind':
        if (change.event === 'memory.changed' && store === sessionStore) out.push(uri);
        break;
    }
  }
  return out;
}
