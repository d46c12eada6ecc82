// Handlers of the `setup.*` methods: which editors are on this machine, what Loci would
// write into their configuration, writing it (with a backup), and checking it.
import type { Engine } from '../engine/engine';
import { check, plan, write } from '../engine/setup/setup';
import type { HandlerRegistry } from './registry';

export function registerSetupHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('setup.plan', (args) => ({
    clients: plan(engine.setupEnv(), args.client, args.transport),
  }));
  registry.register('setup.write', (args) => write(engine.setupEnv(), args.client, args.transport));
  registry.register('setup.check', () => {
    const env = engine.setupEnv();
    return { clients: check(env), endpoint: env.endpoint.url };
  });
}
