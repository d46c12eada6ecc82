// Handlers of the `dream.*` and `review.*` methods: consolidation cycles and the review
// inbox (engine/dream/service.ts plans, applies, reports and decides).
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerDreamHandlers(registry: HandlerRegistry, engine: Engine): void {
  const { dreams } = engine;
  registry.register('dream.run', (args, ctx) => dreams.run(args, ctx.actor));
  registry.register('dream.cancel', (args) => dreams.cancel(args));
  registry.register('dream.list', (args) => dreams.list(args));
  registry.register('dream.get', (args) => dreams.get(args));
  registry.register('review.list', (args) => dreams.reviewList(args));
  registry.register('review.accept', (args, ctx) => dreams.reviewAccept(args, ctx.actor));
  registry.register('review.reject', (args, ctx) => dreams.reviewReject(args, ctx.actor));
}
