// Handlers of the `link.*` and `graph.*` methods.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerGraphHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('link.create', (args, ctx) => engine.linkCreate(args, ctx.actor));
  registry.register('link.remove', (args, ctx) => engine.linkRemove(args, ctx.actor));
  registry.register('link.createMany', (args, ctx) => engine.linkCreateMany(args, ctx.actor));
  registry.register('graph.neighbors', (args, ctx) => engine.neighbors(args, ctx.actor));
  registry.register('graph.atlas', (args, ctx) => engine.atlas(args, ctx.actor));
}
