// Handlers of the `system.*`, `activity.*` and `clients.*` methods: what this process
// is and serves, the calls it answered, and the clients connected to it.
import type { ActivitySummary } from '../../shared/api';
import { LOCI_VERSION } from '../../shared/version';
import type { Engine } from '../engine/engine';
import { maskDeep } from '../engine/memory/mask';
import type { HandlerRegistry } from './registry';

export function registerSystemHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('system.info', async () => {
    const store = await engine.store(undefined);
    const sqlite = (store.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    const serving = engine.servedAt;
    return {
      version: LOCI_VERSION,
      data_dir: engine.dataDir,
      url: serving?.url ?? null,
      port: serving?.port ?? null,
      token_path: serving?.tokenPath ?? null,
      owner: engine.owner,
      pid: process.pid,
      node: process.version,
      sqlite,
      platform: `${process.platform} ${process.arch}`,
    };
  });

  registry.register('activity.list', (args) => ({ items: engine.activity.list(args) }));
  // What an agent sent or was answered may hold a credential: masked on the way out.
  registry.register('activity.stats', (args) =>
    engine.activity.stats(args.window_minutes, args.buckets, engine.now()),
  );
  registry.register('activity.get', (args) => maskDeep(engine.activity.get(args.id)));

  registry.register('clients.list', () => {
    const last = new Map<string, ActivitySummary>();
    for (const item of engine.activity.list({ limit: 2000 }))
      if (!last.has(item.actor)) last.set(item.actor, item);
    return { sessions: engine.clients.list(), last_calls: [...last.values()] };
  });
}
