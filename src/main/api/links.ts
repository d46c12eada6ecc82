// Handlers of the `link.*` and `graph.*` methods: typed links between memories, a
// memory's neighbourhood, and the Atlas of a whole store.
import type { Actor, LinkResult } from '../../shared/api';
import { LociError } from '../../shared/errors';
import type { Engine } from '../engine/engine';
import { atlas } from '../engine/memory/atlas';
import { createLink, neighbors, removeLink } from '../engine/memory/links';
import { actorName } from '../engine/memory/model';
import type { OpenStore } from '../engine/store/registry';
import { maskQuarantined } from '../engine/memory/mask';
import type { HandlerRegistry } from './registry';

export function registerLinkHandlers(registry: HandlerRegistry, engine: Engine): void {
  const emit = (store: OpenStore, link: Pick<LinkResult, 'from' | 'to' | 'change'>, actor: Actor) =>
    engine.events.emit('link.changed', {
      store: store.name,
      from: link.from,
      to: link.to,
      change: link.change === 'created' || link.change === 'removed' ? link.change : 'updated',
      actor: actorName(actor),
    });

  registry.register('link.create', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = createLink(store, actor, args, engine.now());
    emit(store, { from: args.from, to: args.to, change: result.change }, actor);
    return result;
  });

  // Many links in one transaction (imports, bulk linking): all or none.
  registry.register('link.createMany', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const now = engine.now();
    const results = store.db.transaction(() =>
      args.links.map((link, i) => {
        try {
          return createLink(store, actor, link, now);
        } catch (err) {
          if (err instanceof LociError) {
            throw new LociError(
              err.code,
              `Link ${i + 1} (${link.from} → ${link.to}): ${err.message} No link was made.`,
            );
          }
          throw err;
        }
      }),
    )();
    for (const r of results) emit(store, r, actor);
    const created = results.filter((r) => r.change === 'created').length;
    return { results, created, updated: results.length - created };
  });

  registry.register('link.remove', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = removeLink(store, actor, args, engine.now());
    emit(store, { from: args.from, to: args.to, change: 'removed' }, actor);
    return result;
  });

  registry.register('graph.neighbors', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const result = neighbors(store, actor, args);
    engine.audit.noteRead(
      store,
      actor,
      'graph.neighbors',
      result.nodes.map((n) => n.id),
    );
    return result;
  });
  registry.register('graph.atlas', async (args, { actor }) => {
    const result = await atlas(await engine.store(args.store), actor, args.limit, engine.now());
    return { ...result, nodes: await maskQuarantined(result.nodes, ['title']) };
  });
}
