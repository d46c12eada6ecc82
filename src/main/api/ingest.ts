// Handlers of the `ingest.*` methods: files and folders become memories (see
// engine/ingest/service.ts, which walks, parses, writes and undoes).
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerIngestHandlers(registry: HandlerRegistry, engine: Engine): void {
  const { ingest } = engine;
  registry.register('ingest.files', (args, ctx) =>
    ingest.files(args, ctx.actor, engine.confirmHook(ctx, 'ingest.files', args)),
  );
  registry.register('ingest.upload', (args) => ingest.upload(args));
  registry.register('ingest.cancel', (args) => ingest.cancel(args));
  registry.register('ingest.undo', (args, ctx) => ingest.undo(args, ctx.actor));
  registry.register('ingest.redo', (args, ctx) => ingest.redo(args, ctx.actor));
  registry.register('ingest.list', (args) => ingest.list(args));
  registry.register('ingest.folders', () => ingest.folders());
  registry.register('ingest.setFolders', (args, ctx) => ingest.setFolders(args, ctx.actor));
}
