// Handlers of the `sync.*` methods: a store joins a PostgreSQL hub or a synced folder,
// reports how it syncs, syncs now, lists its devices and leaves.
import { resolve } from 'node:path';
import type { SyncDeviceView } from '../../shared/api';
import { DEFAULT_STORE_NAME } from '../../shared/constants';
import type { Engine } from '../engine/engine';
import { actorName } from '../engine/memory/model';
import type { HandlerRegistry } from './registry';

export function registerSyncHandlers(registry: HandlerRegistry, engine: Engine): void {
  const name = (store: string | undefined) => store ?? DEFAULT_STORE_NAME;
  registry.register('sync.connect', (args, ctx) =>
    // The folder is kept as an absolute path.
    engine.sync.connect(
      name(args.store),
      {
        url: args.url,
        folder: args.folder === undefined ? undefined : resolve(args.folder),
        password: args.password,
      },
      actorName(ctx.actor),
    ),
  );
  registry.register('sync.status', async (args) => ({
    device: engine.sync.device(),
    stores: await engine.sync.status(args.store),
  }));
  registry.register('sync.now', (args) => engine.sync.now(name(args.store)));
  registry.register('sync.devices', async (args) => {
    const self = engine.sync.device().id;
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    const devices = await engine.sync.devices(name(args.store));
    return {
      store: name(args.store),
      devices: devices.map((d): SyncDeviceView => ({
        id: d.id,
        name: d.name,
        this_device: d.id === self,
        last_seen: iso(d.last_seen),
        last_push: iso(d.last_push),
        ops: d.ops,
        clock_skew_ms: d.clock_skew_ms,
        version: d.version,
      })),
    };
  });
  registry.register('sync.leave', async (args, ctx) => ({
    store: name(args.store),
    left: await engine.sync.leave(name(args.store), actorName(ctx.actor)),
  }));
}
