// Handlers of the `memory.recall` and `recall.*` methods. A recall runs the pipeline of
// engine/recall against the store's semantic context, queues the rehearsal of what it
// returned, keeps the latency for the overview and logs the read for the audit.
import type { Actor, ParsedArgs, RecallResult } from '../../shared/api';
import { LociError } from '../../shared/errors';
import type { Engine } from '../engine/engine';
import { maskDeep } from '../engine/memory/mask';
import { isPerson } from '../engine/memory/model';
import { recall } from '../engine/recall/recall';
import type { HandlerRegistry } from './registry';

/** One recall as `caller` (or, for a person, as the client named in `as_client`). */
export async function recallAs(
  engine: Engine,
  args: ParsedArgs<'memory.recall'>,
  caller: Actor,
): Promise<RecallResult> {
  let actor = caller;
  if (args.as_client !== undefined) {
    if (!isPerson(caller)) {
      throw new LociError('forbidden', 'Only a person can recall as another client.');
    }
    // A simulation: the client's view of the store, and no rehearsal.
    actor = { kind: 'mcp', client: args.as_client, transport: 'simulated' };
    args = { ...args, rehearse: false, include_quarantined: false };
  }
  const store = await engine.store(args.store);
  engine.dreams.noteActivity();
  const ctx = await engine.semantic.recallContext(store, actor, engine.now(), (rids, pairs) =>
    engine.rehearsals.add(store.name, rids, pairs),
  );
  const result = await recall(ctx, args);
  engine.recallLatencies.add(result.timings.total_ms ?? 0);
  engine.audit.noteRead(
    store,
    actor,
    'memory.recall',
    result.results.map((r) => r.id),
  );
  // Quarantined memories come back only to a person who asked: their credentials masked,
  // in the results and in the trace alike.
  return args.include_quarantined && result.results.some((r) => r.quarantined)
    ? maskDeep(result)
    : result;
}

export function registerRecallHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('memory.recall', (args, ctx) => recallAs(engine, args, ctx.actor));
  registry.register('recall.calibrate', async (args) =>
    engine.semantic.calibrate(await engine.store(args.store), args.sample),
  );
}
