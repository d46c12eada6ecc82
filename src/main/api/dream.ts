// Handlers of the `dream.*` and `review.*` methods: consolidation cycles and the review
// inbox (see engine/dream). Thin: the engine plans, applies, reports and decides.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerDreamHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('dream.run', (args, ctx) => engine.dreamRun(args, ctx.actor));
  registry.register('dream.cancel', (args) => engine.dreamCancel(args));
  registry.register('dream.list', (args) => engine.dreamList(args));
  registry.register('dream.get', (args) => engine.dreamGet(args));
  registry.register('review.list', (args) => engine.reviewList(args));
  registry.register('review.accept', (args, ctx) => engine.reviewAccept(args, ctx.actor));
  registry.register('review.reject', (args, ctx) => engine.reviewReject(args, ctx.actor));
}
