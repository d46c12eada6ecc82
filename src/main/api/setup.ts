// Handlers of the `setup.*` methods: which editors are on this machine, what Loci would
// write into their configuration, writing it (with a backup), and checking it.
import type { Engine } from '../engine/engine';
import { checkHooks, installHooks } from '../engine/setup/hooks';
import { check, plan, write } from '../engine/setup/setup';
import type { HandlerRegistry } from './registry';

export function registerSetupHandlers(registry: HandlerRegistry, engine: Engine): void {
  registry.register('setup.plan', (args) => ({
    clients: plan(engine.setupEnv(), args.client, args.transport),
  }));
  registry.register('setup.write', (args) => write(engine.setupEnv(), args.client, args.transport));
  // Claude Code's hooks (engine/setup/hooks.ts): the dry run shows the change.
  registry.register('setup.hooks', (args) =>
    installHooks(engine.setupEnv(), { dryRun: args.dry_run }),
  );
  registry.register('setup.check', () => {
    const env = engine.setupEnv();
    const clients = check(env);
    const claude = clients.find((c) => c.client === 'claude-code');
    return {
      clients,
      endpoint: env.endpoint.url,
      ...(claude && claude.status !== 'not-installed' ? { hooks: checkHooks(env) } : {}),
    };
  });
}
