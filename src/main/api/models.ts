// Handlers of the `models.*` and `embedding.*` methods: the embedding models Loci can
// install and use (engine/embed/catalogueService.ts), and filling in missing vectors.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerModelHandlers(registry: HandlerRegistry, engine: Engine): void {
  const { models } = engine.semantic;
  registry.register('models.list', () => models.listModels());
  registry.register('models.install', async (args) =>
    models.installModel(args.id, await engine.openStores()),
  );
  registry.register('models.remove', async (args) => {
    await models.removeModel(args.id, await engine.openStores());
    return { id: args.id, removed: true as const };
  });
  registry.register('models.use', async (args) =>
    models.useModel(args.id, await engine.openStores()),
  );
  registry.register('models.decline', () => models.declineOffer());
  // Embeds every memory of a store that lacks a vector of the active model.
  registry.register('embedding.backfill', async (args) => {
    const store = await engine.store(args.store);
    await engine.semantic.scheduleBackfill(store);
    return engine.semantic.statusFor(store);
  });
}
