// Handlers of the `memory.*` and `procedure.*` methods: a memory's life (remember, read,
// change, forget, erase, revert), the views an agent starts from (timeline, map,
// bootstrap) and procedures with their outcomes. Each opens the store, runs the domain
// function of engine/memory, and tells the core what changed or was read.
import type { Actor } from '../../shared/api';
import type { Engine } from '../engine/engine';
import {
  eraseMemory,
  forgetMemory,
  promoteMemory,
  restoreMemory,
  revertMemory,
  tagMemory,
  updateMemory,
} from '../engine/memory/mutate';
import { rankProcedures, recordOutcome } from '../engine/memory/procedures';
import { fullHistory } from '../engine/conflicts/history';
import { completeFrom, completeIds, completeKinds, completeTags } from '../engine/memory/complete';
import { maskQuarantined, noteReveal } from '../engine/memory/mask';
import { getMemory, listMemories, loadRow, memoryTitles } from '../engine/memory/read';
import { redactMemory } from '../engine/memory/redact';
import { insertMemories, prepareBatch, type RememberItem } from '../engine/memory/remember';
import { bootstrapContext, memoryMap, timeline } from '../engine/memory/views';
import { tokenCounter } from '../engine/recall/tokenCounter';
import { recallAs } from './recall';
import type { HandlerRegistry } from './registry';

async function rememberItems(
  engine: Engine,
  name: string | undefined,
  items: RememberItem[],
  actor: Actor,
) {
  const store = await engine.store(name);
  // A large write holds the background embedding back while it runs (semantic.ts).
  const written = engine.semantic.writing(items.length);
  try {
    const batch = await prepareBatch(items);
    let inserted;
    try {
      inserted = insertMemories(store, batch, actor, {
        newId: () => engine.newId(),
        now: engine.now(),
      });
    } finally {
      batch.close();
    }
    const { results, created } = inserted;
    if (created.length === 0) return { results };
    const marks = await engine.created(store, created, actor);
    return {
      results: results.map((r) => {
        const conflicts = marks.get(r.id);
        return conflicts && !r.duplicate ? { ...r, conflicts } : r;
      }),
    };
  } finally {
    written();
  }
}

export function registerMemoryHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('memory.remember', async ({ store, ...item }, { actor }) => {
    const { results } = await rememberItems(engine, store, [item], actor);
    return results[0] as (typeof results)[number];
  });
  registry.register('memory.rememberMany', (args, { actor }) =>
    rememberItems(engine, args.store, args.items, actor),
  );

  registry.register('memory.get', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const view = getMemory(store, actor, args.id, args.include_deleted, engine.now());
    engine.audit.noteRead(store, actor, 'memory.get', [view.id]);
    if (view.trust !== 'quarantined') return view;
    if (!args.reveal) {
      const [masked] = await maskQuarantined([view], ['title', 'content']);
      return masked as typeof view;
    }
    noteReveal(store, actor, view, engine.now());
    return view;
  });
  registry.register('memory.list', async (args, { actor }) => {
    const result = listMemories(await engine.store(args.store), actor, args, engine.now());
    return { ...result, items: await maskQuarantined(result.items, ['title', 'preview']) };
  });
  registry.register('memory.history', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = fullHistory(store, actor, args.id, engine.now());
    if (loadRow(store, args.id)?.trust !== 'quarantined') return result;
    const versions = await maskQuarantined(
      result.versions.map((v) => ({ ...v, trust: 'quarantined' as const })),
      ['title', 'content'],
    );
    return {
      ...result,
      versions: versions.map(({ trust: _t, secrets_hidden: _s, ...v }) => v),
    };
  });
  registry.register('memory.titles', async (args, { actor }) => {
    const store = await engine.store(args.store);
    return { titles: await maskQuarantined(memoryTitles(store, actor, args.ids), ['title']) };
  });
  registry.register('memory.complete', async (args, { actor }) => {
    if (args.field === 'kind') return completeKinds(args.prefix, args.limit);
    if (args.field === 'store') {
      // A token scoped to some stores is offered only those.
      const allowed = actor.kind === 'mcp' ? actor.grant?.policy.stores : null;
      const names = engine.registry
        .list()
        .map((s) => s.name)
        .filter((n) => !allowed || allowed.includes(n));
      return completeFrom(names, args.prefix, args.limit);
    }
    const store = await engine.store(args.store);
    return args.field === 'tag'
      ? completeTags(store, actor, args.prefix, args.limit)
      : completeIds(store, actor, args.prefix, args.limit);
  });
  registry.register('memory.redact', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = await redactMemory(store, actor, args.id, engine.now);
    engine.changed(store, [args.id], 'updated', actor);
    await engine.semantic.afterWrite(store);
    return result;
  });

  registry.register('memory.update', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = await updateMemory(store, actor, args, engine.now);
    if (result.change !== 'unchanged') {
      engine.changed(store, [args.id], 'updated', actor);
      await engine.semantic.afterWrite(store);
    }
    return result;
  });
  registry.register('memory.revert', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = await revertMemory(store, actor, args, engine.now);
    if (result.change !== 'unchanged') {
      engine.changed(store, [args.id], 'updated', actor);
      await engine.semantic.afterWrite(store);
    }
    return result;
  });
  registry.register('memory.tag', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = tagMemory(store, actor, args, engine.now());
    if (result.change !== 'unchanged') engine.changed(store, [args.id], 'updated', actor);
    return result;
  });
  registry.register('memory.promote', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = promoteMemory(store, actor, args.id, engine.now());
    engine.changed(store, [args.id], 'promoted', actor);
    return result;
  });

  registry.register('memory.forget', async (args, ctx) => {
    const { actor } = ctx;
    const store = await engine.store(args.store);
    engine.bulkDeletes.check(actor, store.name, engine.confirmHook(ctx, 'memory.forget', args));
    const result = forgetMemory(store, actor, args.id, engine.now());
    engine.changed(store, [args.id], 'forgotten', actor);
    return result;
  });
  registry.register('memory.restore', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = restoreMemory(store, actor, args.id, engine.now());
    engine.changed(store, [args.id], 'restored', actor);
    await engine.semantic.afterWrite(store);
    return result;
  });
  registry.register('memory.erase', async (args, ctx) => {
    const { actor } = ctx;
    const store = await engine.store(args.store);
    engine.bulkDeletes.check(actor, store.name, engine.confirmHook(ctx, 'memory.erase', args));
    // A pending rehearsal of this memory is skipped at flush: its state row is gone.
    const rid = loadRow(store, args.id)?.rid;
    const result = eraseMemory(store, actor, args.id, engine.now());
    if (rid !== undefined) engine.semantic.forgetRid(store, rid);
    engine.changed(store, [args.id], 'erased', actor);
    return result;
  });

  registry.register('memory.timeline', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = timeline(store, actor, args);
    engine.audit.noteRead(
      store,
      actor,
      'memory.timeline',
      result.items.map((m) => m.id),
    );
    return result;
  });
  registry.register('memory.map', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = await memoryMap(store, actor, args.max_tokens, tokenCounter());
    // The map is an index of titles: logged as one read of the index, not of each memory.
    engine.audit.noteRead(store, actor, 'memory.map', []);
    return result;
  });
  registry.register('memory.bootstrap', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = await bootstrapContext(store, actor, args.max_tokens, tokenCounter());
    // The pinned memories are read whole; the map is one read of the index.
    engine.audit.noteRead(store, actor, 'memory.bootstrap', result.pinned);
    return result;
  });

  registry.register('procedure.recordOutcome', async (args, { actor }) =>
    recordOutcome(await engine.store(args.store), actor, args, engine.now()),
  );
  registry.register('procedure.find', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const found = await recallAs(
      engine,
      {
        ...(args.store ? { store: args.store } : {}),
        query: args.query,
        limit: Math.min(100, args.limit * 3),
        kinds: ['procedural'],
        include_quarantined: false,
        format: 'compact',
        rehearse: true,
        explain: false,
        history: false,
      },
      actor,
    );
    return rankProcedures(store, found, args.niche ?? null, args.limit);
  });
}
