// The in-process client: calls the handlers directly, in this process, as one caller.
// Apart from createHandlers so that a transport can hold it without loading the engine
// (`loci mcp` answers its first requests before the engine is open).
import type {
  CallContext,
  LociClient,
  MethodArgs,
  MethodName,
  MethodResult,
} from '../../shared/api';
import type { HandlerRegistry } from './registry';

/** A client that calls the handlers directly, in this process, as `ctx`. */
export function createInProcessClient(handlers: HandlerRegistry, ctx: CallContext): LociClient {
  return {
    call<M extends MethodName>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
      return handlers.dispatch(method, args, ctx) as Promise<MethodResult<M>>;
    },
  };
}
