// The handler registry: one entry per contract method, each validated with the shared
// schema before it runs. Transports call `dispatch` and nothing else, so validation and
// error shaping are identical on IPC, HTTP, MCP, the CLI and in-process.
import {
  isMethodName,
  methods,
  type CallContext,
  type MethodName,
  type MethodResult,
  type ParsedArgs,
} from '../../shared/api';
import { LociError, toErrorData } from '../../shared/errors';
import { describeIssues } from '../../shared/validation';
import { storageError } from '../engine/store/storageErrors';
import { withCallLog } from '../engine/warnings';
import { asWriter } from '../engine/sync/writer';
import { actorName } from '../engine/memory/model';

export type Handler<M extends MethodName> = (
  args: ParsedArgs<M>,
  ctx: CallContext,
) => Promise<MethodResult<M>> | MethodResult<M>;

/** Told when a call starts and when it ends (the engine's background work gives way). */
export interface CallObserver {
  began(): void;
  ended(): void;
}

/** Runs each call in a scope of its own (the engine counts which stores a call uses). */
export type CallScope = <T>(fn: () => Promise<T>) => Promise<T>;

export type Authorizer = (
  method: MethodName,
  args: unknown,
  ctx: CallContext,
) => Promise<void> | undefined;

export class HandlerRegistry {
  private readonly handlers = new Map<MethodName, Handler<MethodName>>();

  constructor(
    private readonly observer?: CallObserver,
    private readonly scope: CallScope = (fn) => fn(),
    /** Refuses a call its caller's policy does not allow (engine/access): before any handler. */
    private readonly authorize: Authorizer = () => undefined,
  ) {}

  register<M extends MethodName>(name: M, handler: Handler<M>): void {
    if (this.handlers.has(name)) throw new Error(`handler for ${name} registered twice`);
    this.handlers.set(name, handler as unknown as Handler<MethodName>);
  }

  names(): MethodName[] {
    return [...this.handlers.keys()];
  }

  /** Throws unless every method of the contract has a handler. */
  assertComplete(): void {
    const missing = (Object.keys(methods) as MethodName[]).filter((m) => !this.handlers.has(m));
    if (missing.length > 0) throw new Error(`no handler for ${missing.join(', ')}`);
  }

  /** Validates and runs one call. Throws LociError only. */
  async dispatch(method: string, rawArgs: unknown, ctx: CallContext): Promise<unknown> {
    if (!isMethodName(method)) {
      throw new LociError('unknown-method', `There is no method "${method}".`, { method });
    }
    const handler = this.handlers.get(method);
    if (!handler)
      throw new LociError('unknown-method', `The method "${method}" is not available here.`, {
        method,
      });
    const parsed = methods[method].schema.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      throw new LociError('invalid-args', `${method}: ${describeIssues(parsed.error.issues)}`, {
        method,
        issues: parsed.error.issues.map((i) => ({
          path: i.path.map(String),
          message: i.message,
          code: i.code,
        })),
      });
    }
    // Synchronous when allowed: the handler starts in this tick, as it always has.
    const refused = this.authorize(method, parsed.data, ctx);
    if (refused) await refused;
    this.observer?.began();
    try {
      return await this.scope(async () =>
        withCallLog(ctx.log, () =>
          asWriter(actorName(ctx.actor), () => handler(parsed.data as ParsedArgs<MethodName>, ctx)),
        ),
      );
    } catch (err) {
      if (err instanceof LociError) throw err;
      // A full, read-only or failing disk: a clear error, not `internal`.
      const storage = storageError(err);
      if (storage) throw storage;
      const data = toErrorData(err);
      // Unexpected failures: the stack once to the engine's log; the caller learns only that it failed.
      process.emitWarning(`${method} failed: ${(err as Error)?.stack ?? String(err)}`);
      ctx.log?.(
        'error',
        `${method} failed inside Loci (${data.message}); the daemon's log has the details.`,
      );
      throw new LociError(data.code, data.message);
    } finally {
      this.observer?.ended();
    }
  }
}
