// Handlers of the `eval.*` methods (the quality lab): mark recalls, list and remove the
// cases, run them under one or two ranking configurations, and list past runs.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerEvalHandlers(registry: HandlerRegistry, engine: Engine): void {
  const { lab } = engine;
  registry.register('eval.mark', (args, ctx) => lab.mark(args, ctx.actor));
  registry.register('eval.cases', (args) => lab.cases(args));
  registry.register('eval.remove', (args, ctx) => lab.remove(args, ctx.actor));
  registry.register('eval.run', (args, ctx) => lab.run(args, ctx.actor));
  registry.register('eval.runs', (args) => lab.runs(args));
}
