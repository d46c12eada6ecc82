// Handlers of the `store.*` and `stats.*` methods: the stores of the data directory,
// their backups, bundles and lifecycles, and what is in one.
import type { Engine } from '../engine/engine';
import { overview } from '../engine/memory/overview';
import { stats } from '../engine/memory/read';
import { backupDatabase, listBackups } from '../engine/store/backup';
import { exportBundle } from '../engine/store/bundle';
import { importStore, renameStore } from '../engine/store/lifecycle';
import type { StoreBundle } from '../../shared/api';
import { attention } from '../engine/attention';
import type { HandlerRegistry } from './registry';

/** A doctor's report younger than this is good enough for the Overview. */
const DOCTOR_FRESH_MS = 60 * 60_000;

export function registerStoreHandlers(registry: HandlerRegistry, engine: Engine): void {
  const stores = engine.registry;
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
  registry.register('store.export', async (args) => {
    const store = await engine.store(args.store);
    return exportBundle(store.db, store.name, engine.now()) as StoreBundle;
  });
  registry.register('store.import', (args, { actor }) =>
    importStore(engine, args.store, args.bundle, actor),
  );

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
