// Handlers of the `store.*` and `stats.*` methods: the stores of the data directory,
// their backups, bundles and lifecycles, and what is in one.
import type { Engine } from '../engine/engine';
import { overview } from '../engine/memory/overview';
import { stats } from '../engine/memory/read';
import { backupDatabase, listBackups } from '../engine/store/backup';
import { exportBundle, sealBundle } from '../engine/store/bundle';
import { importStore, renameStore } from '../engine/store/lifecycle';
import type { StoreBundle } from '../../shared/api';
import { attention } from '../engine/attention';
import type { HandlerRegistry } from './registry';
import type { Actor } from '../../shared/api';
import { LociError } from '../../shared/errors';
import { actorName, isPerson } from '../engine/memory/model';
import { changeEncryption, encryptionStatus } from '../engine/store/encryption';

/** A doctor's report younger than this is good enough for the Overview. */
const DOCTOR_FRESH_MS = 60 * 60_000;

export function registerStoreHandlers(registry: HandlerRegistry, engine: Engine): void {
  const stores = engine.registry;
  const personOnly = (actor: Actor, what: string) => {
    if (!isPerson(actor)) throw new LociError('forbidden', `Only a person can ${what} a store.`);
  };
  registry.register('store.list', () => {
    // The default store exists from the first time anyone asks.
    stores.resolve(undefined);
    return { stores: stores.list(), data_dir: engine.dataDir };
  });
  registry.register('store.create', (args) => {
    const info = stores.create(args.name);
    engine.events.emit('store.created', { store: info.name });
    return info;
  });
  registry.register('store.rename', (args, { actor }) =>
    renameStore(engine, args.name, args.to, actor),
  );
  // Clears a damaged store's marker so that it opens empty; see StoreRegistry.resetCorrupt.
  registry.register('store.reset', (args) => {
    engine.forgetStore(args.name);
    return { store: args.name, ...stores.resetCorrupt(args.name) };
  });

  // An online backup of a store (consistent while writes go on), checked before it counts.
  registry.register('store.backup', async (args) => {
    const store = await engine.store(args.store);
    return backupDatabase(store.db, {
      dataDir: engine.dataDir,
      store: store.name,
      ...(args.to !== undefined ? { to: args.to } : {}),
      now: engine.now(),
    });
  });
  registry.register('store.backups', (args) => {
    const name = stores.resolve(args.store);
    return { store: name, backups: listBackups(engine.dataDir, name) };
  });
  // The store as a portable JSON bundle (store/bundle.ts says what it holds).
  registry.register('store.export', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const bundle = exportBundle(store.db, store.name, engine.now()) as StoreBundle;
    if (!store.key) return bundle;
    if (args.plaintext) {
      personOnly(actor, 'export in clear');
      return bundle;
    }
    return sealBundle(bundle, store.key, stores.vault.descriptor(store.name));
  });
  registry.register('store.import', (args, { actor }) =>
    importStore(engine, args.store, args.bundle, actor),
  );

  // Encryption at rest (store/encryption.ts): a person's decision, never an agent's.
  registry.register('store.encryption', async () => {
    stores.resolve(undefined);
    const list = [];
    for (const info of stores.list()) list.push(await encryptionStatus(stores, info.name));
    return { stores: list };
  });
  for (const op of ['encrypt', 'rekey'] as const) {
    registry.register(`store.${op}`, (args, { actor }) => {
      personOnly(actor, op);
      return changeEncryption(engine, args.store, op, {
        ...(args.source ? { source: args.source } : {}),
        ...(args.passphrase ? { passphrase: args.passphrase } : {}),
        actor: actorName(actor),
      });
    });
  }
  registry.register('store.decrypt', (args, { actor }) => {
    personOnly(actor, 'decrypt');
    return changeEncryption(engine, args.store, 'decrypt', { actor: actorName(actor) });
  });
  registry.register('store.unlock', async (args, { actor }) => {
    personOnly(actor, 'unlock');
    const name = stores.resolve(args.store);
    await stores.vault.unlock(name, args.passphrase);
    engine.forgetStore(name);
    const store = await engine.store(name);
    store.db.transaction(() =>
      store.audit.append(
        { actor: actorName(actor), action: 'store.unlock', target: null, data: {} },
        engine.now(),
      ),
    )();
    return encryptionStatus(stores, name);
  });

  registry.register('stats.get', async (args, { actor }) => {
    const store = await engine.store(args.store);
    return { ...stats(store, actor), vectors: engine.semantic.statusFor(store) };
  });
  registry.register('stats.attention', async (args) => {
    const store = await engine.store(args.store);
    // The doctor's latest report, made again when it is older than an hour.
    const kept = engine.doctor.lastReport(store.name);
    const doctor =
      kept && engine.now() - Date.parse(kept.ran_at) < DOCTOR_FRESH_MS
        ? kept
        : await engine.doctor.run(store.name);
    return attention({
      store,
      doctor,
      anchor: await engine.audit.anchor({ store: store.name }),
      vectors: engine.semantic.statusFor(store),
      now: engine.now(),
    });
  });
  registry.register('stats.overview', async (args, { actor }) => {
    const store = await engine.store(args.store);
    return overview(store, actor, args.days, engine.now(), engine.recallLatencies);
  });
}
