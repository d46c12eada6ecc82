// Checks of semantic recall: the embedding model present and intact (sha256), stored
// vectors of the right model and dimensions, and memories still waiting for a vector.
import { readModelDir, verifyModelDir } from '../embed/manifest';
import { finding, ok, type CheckDefinition, type DoctorContext } from './types';

function activeModel(ctx: DoctorContext) {
  const list = ctx.engine.semantic.models.listModels();
  return { list, model: list.models.find((m) => m.id === list.active && m.installed) ?? null };
}

export const embeddingChecks: CheckDefinition[] = [
  {
    id: 'embed.model',
    group: 'Embeddings',
    title: 'Embedding model',
    run(ctx) {
      const { list, model } = activeModel(ctx);
      if (list.semantic === 'on' && model) {
        return ok(`${model.name} (${model.dims} dimensions) is in use.`);
      }
      return finding(
        'warn',
        `No embedding model in use: recall is lexical only${list.note ? ` (${list.note})` : ''}.`,
        'Install one: `loci models install all-minilm-l6-v2` or Settings → Models.',
      );
    },
  },
  {
    id: 'embed.sha256',
    group: 'Embeddings',
    title: 'Model files intact',
    async run(ctx) {
      const { model } = activeModel(ctx);
      if (!model?.dir) return ok('No model files to check.');
      let problems: string[];
      try {
        const checks = await verifyModelDir(model.dir, readModelDir(model.dir));
        problems = checks.filter((c) => !c.ok).map((c) => `${c.file}: ${c.problem ?? 'bad'}`);
      } catch (err) {
        problems = [(err as Error).message];
      }
      if (problems.length > 0) {
        return finding(
          'fail',
          `${model.name} in ${model.dir} does not match its manifest: ${problems.slice(0, 2).join('; ')}.`,
          `Reinstall it: \`loci models remove ${model.id}\` then \`loci models install ${model.id}\`.`,
        );
      }
      return ok(`${model.name}: every file matches its sha256.`);
    },
  },
  {
    id: 'embed.dims',
    group: 'Embeddings',
    title: 'Stored vectors match the model',
    run(ctx) {
      const { list } = activeModel(ctx);
      const rows = ctx.store.db
        .prepare(
          'SELECT model, dims, COUNT(*) AS n FROM memory_embedding GROUP BY model, dims ORDER BY n DESC',
        )
        .all() as { model: string; dims: number; n: number }[];
      const active = rows.filter((r) => r.model === list.active);
      const expected = ctx.engine.semantic.embedding.dims;
      const wrong = active.filter((r) => r.dims !== expected).reduce((a, r) => a + r.n, 0);
      const other = rows.filter((r) => r.model !== list.active).reduce((a, r) => a + r.n, 0);
      if (wrong > 0) {
        return finding(
          'fail',
          `${wrong} vectors of ${list.active} have other dimensions than ${expected}: vector search cannot use them.`,
          'Rebuild those vectors (safe: they are derived and embedded again).',
          true,
        );
      }
      if (other > 0) {
        return finding(
          'warn',
          `${other} vectors were made by another model than ${list.active} and are unused.`,
          'Remove them (safe: the active model’s vectors are kept, missing ones are embedded again).',
          true,
        );
      }
      const n = active.reduce((a, r) => a + r.n, 0);
      return ok(`${n} vectors, all ${list.active} × ${expected}.`);
    },
    async fix(ctx) {
      const { list } = activeModel(ctx);
      const dims = ctx.engine.semantic.embedding.dims;
      const db = ctx.store.db;
      const removed = db.transaction(
        () =>
          db
            .prepare('DELETE FROM memory_embedding WHERE model <> ? OR dims <> ?')
            .run(list.active, dims).changes,
      )();
      ctx.engine.semantic.vectorsChanged(ctx.store);
      await ctx.engine.semantic.scheduleBackfill(ctx.store);
      const status = ctx.engine.semantic.statusFor(ctx.store);
      return `Removed ${removed} mismatched vectors; ${status.embedded} embedded, ${status.pending} waiting.`;
    },
  },
  {
    id: 'embed.coverage',
    group: 'Embeddings',
    title: 'Memories with a vector',
    run(ctx) {
      const s = ctx.engine.semantic.statusFor(ctx.store);
      const total = s.embedded + s.pending;
      if (s.pending > 0) {
        return finding(
          'warn',
          `${s.pending} of ${total} memories have no ${s.model} vector yet (the backfill queue): recall finds them by words only.`,
          'Embed them now (safe; runs in the background).',
          true,
        );
      }
      return ok(`All ${total} memories have a ${s.model} vector; the backfill queue is empty.`);
    },
    async fix(ctx) {
      // What is missing is counted again: the runtime's list may predate the damage.
      ctx.engine.semantic.vectorsChanged(ctx.store);
      await ctx.engine.semantic.scheduleBackfill(ctx.store);
      const s = ctx.engine.semantic.statusFor(ctx.store);
      return `Backfill done: ${s.embedded} embedded, ${s.pending} waiting.`;
    },
  },
];
