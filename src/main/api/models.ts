// Handlers of the `models.*` methods: the embedding models Loci can install and use.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerModelHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('models.list', () => engine.listModels());
  registry.register('models.install', (args) => engine.installModel(args.id));
  registry.register('models.remove', (args) => engine.removeModel(args.id));
  registry.register('models.use', (args) => engine.useModel(args.id));
  registry.register('models.decline', () => engine.semantic.models.declineOffer());
  registry.register('embedding.backfill', (args) => engine.embedPending(args.store));
}
