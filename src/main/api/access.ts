// Handlers of the client-token methods (`clients.add|tokens|revoke|rotate`): a person
// decides which client may do what; engine/access keeps the tokens and enforces them.
import type { Actor, ClientPolicy } from '../../shared/api';
import { LociError } from '../../shared/errors';
import type { Engine } from '../engine/engine';
import { isPerson } from '../engine/memory/model';
import type { HandlerRegistry } from './registry';

function personOnly(actor: Actor, what: string): void {
  if (!isPerson(actor)) throw new LociError('forbidden', `Only a person can ${what}.`);
}

export function registerAccessHandlers(registry: HandlerRegistry, engine: Engine): void {
  const grants = engine.access.grants;
  registry.register('clients.add', (args, { actor }) => {
    personOnly(actor, 'give a client a token');
    for (const store of args.stores ?? []) engine.registry.resolve(store);
    const policy: ClientPolicy = {
      read_only: args.read_only ?? false,
      stores: args.stores ? [...new Set(args.stores)] : null,
      ingest: !(args.no_ingest ?? false),
      forget: !(args.no_forget ?? false),
      shared_only: args.shared_only ?? false,
    };
    return grants.add(args.name, policy);
  });
  registry.register('clients.tokens', () => ({ clients: grants.list() }));
  registry.register('clients.revoke', (args, { actor }) => {
    personOnly(actor, "revoke a client's token");
    return grants.revoke(args.name);
  });
  registry.register('clients.rotate', (args, { actor }) => {
    personOnly(actor, "rotate a client's token");
    return grants.rotate(args.name);
  });
}
