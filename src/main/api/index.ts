// createHandlers(engine): every method of the contract, validated with the shared
// schemas, ready for any transport. Also the in-process client the CLI and tests use.
import type {
  CallContext,
  LociClient,
  MethodArgs,
  MethodName,
  MethodResult,
} from '../../shared/api';
import type { Engine } from '../engine/engine';
import { registerAuditHandlers } from './audit';
import { registerDoctorHandlers } from './doctor';
import { registerDreamHandlers } from './dream';
import { registerEvalHandlers } from './eval';
import { registerGraphHandlers } from './graph';
import { registerIngestHandlers } from './ingest';
import { registerMemoryHandlers } from './memory';
import { registerModelHandlers } from './models';
import { HandlerRegistry } from './registry';
import { registerStoreHandlers } from './store';

export { HandlerRegistry } from './registry';

export function createHandlers(engine: Engine): HandlerRegistry {
  const registry = new HandlerRegistry();
  registerMemoryHandlers(registry, engine);
  registerGraphHandlers(registry, engine);
  registerStoreHandlers(registry, engine);
  registerModelHandlers(registry, engine);
  registerIngestHandlers(registry, engine);
  registerAuditHandlers(registry, engine);
  registerDoctorHandlers(registry, engine);
  registerDreamHandlers(registry, engine);
  registerEvalHandlers(registry, engine);
  registry.assertComplete();
  return registry;
}

/** A client that calls the handlers directly, in this process, as `ctx`. */
export function createInProcessClient(handlers: HandlerRegistry, ctx: CallContext): LociClient {
  return {
    call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
      return handlers.dispatch(method, args, ctx) as Promise<MethodResult<M>>;
    },
  };
}
