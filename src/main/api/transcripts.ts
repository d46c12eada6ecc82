// Handlers of the `transcript.*` and `journal.*` methods: agent sessions read from their
// logs (engine/transcripts/service.ts), and the journals read back by a person.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerTranscriptHandlers(registry: HandlerRegistry, engine: Engine): void {
  const { transcripts } = engine;
  registry.register('transcript.import', (args, ctx) => transcripts.import(args, ctx.actor, ctx));
  registry.register('journal.list', (args, ctx) => transcripts.list(args, ctx.actor));
  registry.register('journal.get', (args, ctx) => transcripts.get(args, ctx.actor));
  registry.register('journal.propose', (args, ctx) => transcripts.propose(args, ctx.actor));
  registry.register('journal.window', (args, ctx) => transcripts.window(args, ctx.actor));
  registry.register('journal.distill', (args, ctx) => transcripts.distill(args, ctx.actor));
}
