// Handlers of the `conflict.*` methods and `memory.verify`: contradiction candidates
// listed, decided, undone and looked for in the backlog (engine/conflicts), and a claim
// judged against the store.
import type { Engine } from '../engine/engine';
import { listConflicts } from '../engine/conflicts/store';
import { verifyClaim } from '../engine/conflicts/verify';
import { parseTime } from '../engine/memory/model';
import type { HandlerRegistry } from './registry';

export function registerConflictHandlers(registry: HandlerRegistry, engine: Engine): void {
  const { conflicts } = engine;
  registry.register('conflict.list', async (args, { actor }) =>
    listConflicts(await engine.store(args.store), actor, args),
  );
  registry.register('conflict.resolve', async (args, { actor }) =>
    conflicts.resolve(await engine.store(args.store), actor, args),
  );
  registry.register('conflict.reopen', async (args, { actor }) =>
    conflicts.reopen(await engine.store(args.store), actor, args.id),
  );
  registry.register('conflict.scan', async (args, { actor }) =>
    conflicts.scan(
      await engine.store(args.store),
      actor,
      args.since !== undefined ? parseTime(args.since) : null,
    ),
  );
  registry.register('memory.verify', async (args, { actor }) => {
    const store = await engine.store(args.store);
    const ctx = await engine.semantic.recallContext(store, actor, engine.now(), () => {});
    const result = await verifyClaim(ctx, args);
    engine.audit.noteRead(
      store,
      actor,
      'memory.verify',
      result.evidence.map((e) => e.id),
    );
    return result;
  });
}
