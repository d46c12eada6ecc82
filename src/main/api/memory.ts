// Handlers of the `memory.*` methods: argument objects in, engine calls out.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerMemoryHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('memory.remember', (args, ctx) => engine.remember(args, ctx.actor));
  registry.register('memory.rememberMany', (args, ctx) => engine.rememberMany(args, ctx.actor));
  registry.register('memory.recall', (args, ctx) => engine.recall(args, ctx.actor));
  registry.register('memory.get', (args, ctx) => engine.get(args, ctx.actor));
  registry.register('memory.list', (args, ctx) => engine.list(args, ctx.actor));
  registry.register('memory.history', (args, ctx) => engine.history(args, ctx.actor));
  registry.register('memory.update', (args, ctx) => engine.update(args, ctx.actor));
  registry.register('memory.tag', (args, ctx) => engine.tag(args, ctx.actor));
  registry.register('memory.forget', (args, ctx) => engine.forget(args, ctx.actor));
  registry.register('memory.restore', (args, ctx) => engine.restore(args, ctx.actor));
  registry.register('memory.erase', (args, ctx) => engine.erase(args, ctx.actor));
  registry.register('memory.promote', (args, ctx) => engine.promote(args, ctx.actor));
  registry.register('memory.timeline', (args, ctx) => engine.timeline(args, ctx.actor));
  registry.register('memory.map', (args, ctx) => engine.map(args, ctx.actor));
  registry.register('memory.bootstrap', (args, ctx) => engine.bootstrap(args, ctx.actor));
  registry.register('procedure.recordOutcome', (args, ctx) =>
    engine.recordOutcome(args, ctx.actor),
  );
  registry.register('procedure.find', (args, ctx) => engine.findProcedures(args, ctx.actor));
  registry.register('activity.list', (args) => engine.activityList(args));
  registry.register('activity.get', (args) => engine.activityGet(args));
  registry.register('memory.revert', (args, ctx) => engine.revert(args, ctx.actor));
  registry.register('clients.list', () => engine.clientList());
}
