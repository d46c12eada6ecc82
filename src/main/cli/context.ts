// What program.ts hands the command modules (ingest, dream, audit, backup, eval): one
// description of the CLI's shared helpers, each module taking the part it uses.
import type { Command } from 'commander';
import type { LociClient, MethodArgs, MethodName, MethodResult } from '../../shared/api';
import type { EventMap, EventName } from '../../shared/events';
import type { CliIo, Colors } from './io';

export interface CommandContext {
  io: CliIo;
  c: Colors;
  /** The engine: the running daemon when there is one, else opened in this process. */
  connect(cmd: Command): Promise<LociClient>;
  call<M extends MethodName>(
    cmd: Command,
    method: M,
    args: MethodArgs<M>,
  ): Promise<MethodResult<M>>;
  /** Listens to the engine's events while a command runs; returns the unsubscribe. */
  follow<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void;
  withStore<T extends object>(cmd: Command, args: T): T & { store?: string };
  /** `--json` prints the result as JSON, otherwise `human(result)`. */
  print<T>(cmd: Command, result: T, human: (r: T) => string): void;
  dataDirOf(cmd: Command): string;
  /** The global options (`--store`, `--json`, `--home`) as this command sees them. */
  globals(cmd: Command): GlobalOptions;
  /** Sets the exit code of a command that ran but found a problem. */
  exitWith(code: number): void;
  /** A check found something to fix: the command exits with EXIT_FINDINGS. */
  foundProblems(): void;
}

export interface GlobalOptions {
  store?: string;
  json?: boolean;
  home?: string;
}

/** The helpers a command module that follows engine events needs. */
export type EventedCommandContext = Pick<
  CommandContext,
  'io' | 'c' | 'connect' | 'call' | 'follow' | 'withStore' | 'print'
>;
