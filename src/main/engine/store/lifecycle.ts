// Store lifecycles that close a store and open it again: a rename (the files move) and
// an import (the memories arrive below the indexes, which are rebuilt from disk). Each
// is recorded in the store's audit chain.
import type { Actor, StoreImportResult, StoreInfo } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { EngineEvents } from '../events';
import { actorName, isPerson } from '../memory/model';
import type { Semantic } from '../semantic';
import {
  bundleDigest,
  checkBundle,
  importBundle,
  isSealedBundle,
  openSealedBundle,
} from './bundle';
import type { OpenStore, StoreRegistry } from './registry';

/** What the lifecycles need of the engine core. */
export interface StoreHost {
  readonly registry: StoreRegistry;
  readonly events: EngineEvents;
  readonly semantic: Pick<Semantic, 'afterWrite'>;
  now(): number;
  store(name: string | undefined): Promise<OpenStore>;
  closeStore(name: string): Promise<void>;
}

/** A sealed export (an encrypted store's) opened with the key it names, if one is here. */
async function unsealIfSealed(registry: StoreRegistry, raw: unknown): Promise<unknown> {
  if (!isSealedBundle(raw)) return raw;
  const names = registry.list().map((s) => s.name);
  const key = await registry.vault.keyWithCheck(raw.key?.check ?? '', names, raw.key?.kdf);
  if (!key) {
    throw new LociError(
      'key-required',
      `This bundle was exported sealed from the encrypted store "${raw.store}", and no store here has its key${raw.key?.kdf ? ' (set LOCI_PASSPHRASE to its passphrase)' : ' (copy its key file into keys/, or export it again with --plaintext)'}.`,
      { from_store: raw.store },
    );
  }
  return openSealedBundle(raw, key);
}

/** Renames a store: closed, its files moved, opened under the new name. */
export async function renameStore(
  host: StoreHost,
  from: string,
  to: string,
  actor: Actor,
): Promise<StoreInfo> {
  const name = host.registry.resolve(from);
  await host.closeStore(name);
  const info = host.registry.rename(name, to);
  if (info.name !== name) {
    await host.registry.vault.rename(name, info.name);
    const store = await host.store(info.name);
    store.db.transaction(() =>
      store.audit.append(
        {
          actor: actorName(actor),
          action: 'store.rename',
          target: null,
          data: { from: name, to: info.name },
        },
        host.now(),
      ),
    )();
    host.events.emit('store.renamed', { store: name, to: info.name });
  }
  return info;
}

/**
 * Imports a bundle into a store without memories, in one transaction with its audit
 * entry; then reopens the store so the recogniser and vectors see the new memories.
 */
export async function importStore(
  host: StoreHost,
  storeName: string | undefined,
  rawBundle: unknown,
  actor: Actor,
): Promise<StoreImportResult> {
  if (!isPerson(actor)) throw new LociError('forbidden', 'Only a person can import a store.');
  const bundle = checkBundle(await unsealIfSealed(host.registry, rawBundle));
  const store = await host.store(storeName);
  const counts = store.db.transaction(() => {
    const c = importBundle(store.db, bundle);
    store.audit.append(
      {
        actor: actorName(actor),
        action: 'store.import',
        target: null,
        data: {
          from_store: bundle.store,
          exported_at: bundle.exported_at,
          digest: bundleDigest(bundle),
          ...c,
        },
      },
      host.now(),
    );
    return c;
  })();
  await host.closeStore(store.name);
  await host.semantic.afterWrite(await host.store(store.name));
  host.events.emit('memory.changed', {
    store: store.name,
    ids: [],
    change: 'created',
    actor: actorName(actor),
  });
  return { store: store.name, ...counts };
}
