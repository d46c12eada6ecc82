// Handlers of the `store.*` and `stats.*` methods.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerStoreHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('store.list', () => engine.storeList());
  registry.register('store.create', (args) => engine.storeCreate(args));
  registry.register('store.reset', (args) => engine.storeReset(args.name));
  registry.register('store.backup', (args) => engine.storeBackup(args));
  registry.register('store.backups', (args) => engine.storeBackups(args));
  registry.register('store.export', (args) => engine.storeExport(args));
  registry.register('store.import', (args, ctx) => engine.storeImport(args, ctx.actor));
  registry.register('store.rename', (args, ctx) => engine.storeRename(args, ctx.actor));
  registry.register('stats.overview', (args, ctx) => engine.overview(args, ctx.actor));
  registry.register('system.info', () => engine.systemInfo());
  registry.register('token.rotate', () => engine.tokenRotate());
  registry.register('stats.get', (args, ctx) => engine.stats(args, ctx.actor));
  registry.register('recall.calibrate', (args) => engine.calibrate(args));
  registry.register('setup.plan', (args) => engine.setupPlan(args));
  registry.register('setup.write', (args) => engine.setupWrite(args));
  registry.register('setup.check', () => engine.setupCheck());
}
