// Handlers of the `ingest.*` methods: files and folders become memories (see
// engine/ingest). Thin: the engine does the walking, parsing, writing and undoing.
import type { Engine } from '../engine/engine';
import type { HandlerRegistry } from './registry';

export function registerIngestHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('ingest.files', (args, ctx) => engine.ingestFiles(args, ctx.actor));
  registry.register('ingest.upload', (args) => engine.ingestUpload(args));
  registry.register('ingest.cancel', (args) => engine.ingestCancel(args));
  registry.register('ingest.undo', (args, ctx) => engine.ingestUndo(args, ctx.actor));
  registry.register('ingest.redo', (args, ctx) => engine.ingestRedo(args, ctx.actor));
  registry.register('ingest.list', (args) => engine.ingestList(args));
  registry.register('ingest.folders', () => engine.ingestFolders());
  registry.register('ingest.setFolders', (args, ctx) => engine.ingestSetFolders(args, ctx.actor));
}
