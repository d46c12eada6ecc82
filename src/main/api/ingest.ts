// Handlers of the `ingest.*` methods: files and folders become memories (see
// engine/ingest/service.ts, which walks, parses, writes and undoes).
import type { Engine } from '../engine/engine';
import { watchCall } from './progress';
import type { HandlerRegistry } from './registry';

export function registerIngestHandlers(registry: HandlerRegistry, engine: Engine): void {
  const { ingest } = engine;
  registry.register('ingest.files', async (args, ctx) => {
    // The batch is named here, so that its progress and its cancel are this call's.
    const batch = args.batch ?? engine.newId();
    return watchCall(
      ctx,
      engine.events,
      'ingest.progressed',
      // One unit per file found while walking, then one per byte read: it only grows,
      // and it moves while a large folder is still being walked.
      (p) => {
        if (p.batch !== batch) return null;
        if (p.phase === 'scanning') {
          return { done: p.files, message: `looking for files: ${p.files} found` };
        }
        return {
          done: p.files + p.bytes_done,
          total: p.files + p.bytes_total,
          message:
            p.phase === 'finished'
              ? `${p.totals?.ingested ?? 0} of ${p.files} files ingested`
              : `${p.file ?? ''} (file ${p.file_index + 1} of ${p.files})`,
        };
      },
      () => ingest.cancel({ batch }),
      () =>
        ingest.files({ ...args, batch }, ctx.actor, engine.confirmHook(ctx, 'ingest.files', args)),
    );
  });
  registry.register('ingest.upload', (args) => ingest.upload(args));
  registry.register('ingest.cancel', (args) => ingest.cancel(args));
  registry.register('ingest.undo', (args, ctx) => ingest.undo(args, ctx.actor));
  registry.register('ingest.redo', (args, ctx) => ingest.redo(args, ctx.actor));
  registry.register('ingest.list', (args) => ingest.list(args));
  registry.register('ingest.folders', () => ingest.folders());
  registry.register('ingest.setFolders', (args, ctx) => ingest.setFolders(args, ctx.actor));
}
