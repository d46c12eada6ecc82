// Handlers of the `dream.*` and `review.*` methods: consolidation cycles and the review
// inbox (engine/dream/service.ts plans, applies, reports and decides).
import type { Engine } from '../engine/engine';
import { watchCall } from './progress';
import type { HandlerRegistry } from './registry';

export function registerDreamHandlers(registry: HandlerRegistry, engine: Engine): void {
  const { dreams } = engine;
  registry.register('dream.run', async (args, ctx) => {
    // The cycle is named here, so that its progress and its cancel are this call's.
    const id = args.id ?? engine.newId();
    return watchCall(
      ctx,
      engine.events,
      'dream.progressed',
      (p) => {
        if (p.cycle !== id) return null;
        const within = p.total ? Math.min(1, (p.done ?? 0) / p.total) : 0;
        const done = p.step === 'phase-done' ? p.phase_index + 1 : p.phase_index + within;
        return {
          done,
          total: p.phases,
          message: p.phase ? `${p.phase} (phase ${p.phase_index + 1} of ${p.phases})` : 'starting',
        };
      },
      () => dreams.cancel({ id }),
      () => dreams.run({ ...args, id }, ctx.actor),
    );
  });
  registry.register('dream.cancel', (args) => dreams.cancel(args));
  registry.register('dream.list', (args) => dreams.list(args));
  registry.register('dream.get', (args) => dreams.get(args));
  registry.register('review.list', (args) => dreams.reviewList(args));
  registry.register('review.accept', (args, ctx) => dreams.reviewAccept(args, ctx.actor));
  registry.register('review.reject', (args, ctx) => dreams.reviewReject(args, ctx.actor));
}
