// `loci <command>`: every command is a call through the in-process client, so the
// CLI validates and behaves exactly like the other transports. Errors are one line on
// stderr with a non-zero exit code that says what kind of failure it was. This file
// only assembles: the commands live in commands/ (and audit, backup, dream, eval,
// ingest), each registering against the CommandContext built here.
import { homedir } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { Command, CommanderError } from 'commander';
import type { LociClient, MethodArgs, MethodName, MethodResult } from '../../shared/api';
import { LociError, toErrorData } from '../../shared/errors';
import type { EventMap, EventName } from '../../shared/events';
import { createInProcessClient } from '../api';
import type { SynchronousMode } from '../engine/store/database';
import { openEngine, resolveDataDir } from '../api/host';
import type { Engine } from '../engine/engine';
import { createHttpClient, findOwner, followEvents, type Owner } from '../http/client';
import { registerAuditCommands } from './audit';
import { registerBackupCommands } from './backup';
import { registerActivityCommands } from './commands/activity';
import { registerMemoryCommands } from './commands/memory';
import { registerModelCommands } from './commands/models';
import { registerServeCommands } from './commands/serve';
import { registerSetupCommands } from './commands/setup';
import { registerStoreCommands } from './commands/stores';
import type { CommandContext, GlobalOptions } from './context';
import { registerDreamCommands } from './dream';
import { registerEvalCommands } from './eval';
import { EXIT_CODES, EXIT_FINDINGS } from './exitCodes';
import { registerIngestCommands } from './ingest';
import { registerConflictCommands } from './commands/conflicts';
import { registerTranscriptCommands } from './commands/transcripts';
import { askSecret, colorsFor, type CliIo } from './io';
import { registerEncryptionCommands } from './commands/encryption';
import { registerClientCommands } from './commands/clients';
import { registerSyncCommands } from './commands/sync';

export { EXIT_CODES, EXIT_FINDINGS } from './exitCodes';

/** `LOCI_SYNCHRONOUS=normal` trades the last transactions before a power cut for speed. */
function synchronousFrom(env: Record<string, string | undefined>): SynchronousMode {
  const value = (env.LOCI_SYNCHRONOUS ?? 'full').toLowerCase();
  if (value !== 'full' && value !== 'normal') {
    throw new LociError(
      'invalid-args',
      `LOCI_SYNCHRONOUS must be "full" or "normal", not "${value}"`,
    );
  }
  return value;
}

/** The user's home folder as the given environment names it (what os.homedir() reads). */
function homeOf(env: Record<string, string | undefined>): string {
  return (process.platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir();
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const c = colorsFor(io);
  let engine: Engine | null = null;
  let client: LociClient | null = null;
  /** Set by a check that found problems: the command then exits with EXIT_FINDINGS. */
  let findings = false;
  /** Set by a command that ran but found a problem (a broken chain: 8, doctor findings: 9). */
  let exitCode: number | null = null;

  const program = new Command('loci')
    .description('Loci — long-term memory for AI agents, on your machine.')
    .option('-s, --store <name>', 'the store to use (default: "default")')
    .option('--json', 'print results as JSON, exactly as the API returns them')
    .option(
      '--home <dir>',
      'the data directory (default: $LOCI_HOME or the platform app-data folder)',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // One line: the problem, then where to look.
      // (commander's "Did you mean …?" comes on a second line: joined into this one)
      outputError: (s, write) =>
        write(
          `loci: ${s
            .replace(/^error: /, '')
            .trim()
            .replace(/\s*\n\s*/g, ' ')} (see --help)\n`,
        ),
    });

  const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

  let owner: Owner | null = null;

  function dataDirOf(cmd: Command): string {
    const home = globals(cmd).home ?? io.env.LOCI_HOME;
    return home
      ? resolvePath(home)
      : resolveDataDir({ env: io.env, platform: process.platform, home: homedir() });
  }

  /**
   * Connects to the data directory: through the running daemon or app when there is one
   * (one writer), otherwise by opening the engine in this process.
   */
  async function connect(cmd: Command): Promise<LociClient> {
    if (client) return client;
    const dataDir = dataDirOf(cmd);
    owner = findOwner(dataDir);
    if (owner) {
      client = createHttpClient(owner, 'cli');
      return client;
    }
    const opened = await openEngine({
      dataDir,
      owner: 'cli',
      synchronous: synchronousFrom(io.env),
      // Nothing runs after a command returns: a write waits for its vectors.
      embedWrites: 'await',
      env: io.env,
      // `loci setup` edits the editors' files in the home folder of this environment.
      setupHome: homeOf(io.env),
      // A passphrase-encrypted store asks for its passphrase on the terminal.
      keys: { askPassphrase: (store) => askSecret(io, `Passphrase for store "${store}": `) },
    });
    engine = opened.engine;
    client = createInProcessClient(opened.handlers, {
      actor: { kind: 'cli', transport: 'in-process' },
    });
    return client;
  }

  /** Follows an engine event, in this process or from the daemon's event stream. */
  function follow<E extends EventName>(
    event: E,
    listener: (payload: EventMap[E]) => void,
  ): () => void {
    if (engine) return engine.events.on(event, listener);
    if (owner) {
      return followEvents(owner, (name: EventName, payload: unknown) => {
        if (name === (event as EventName)) listener(payload as EventMap[E]);
      });
    }
    return () => undefined;
  }

  async function call<M extends MethodName>(
    cmd: Command,
    method: M,
    args: MethodArgs<M>,
  ): Promise<MethodResult<M>> {
    return (await connect(cmd)).call(method, args);
  }

  /** Adds `store` from the global option when the method takes one. */
  function withStore<T extends object>(cmd: Command, args: T): T & { store?: string } {
    const store = globals(cmd).store;
    return store ? { ...args, store } : args;
  }

  function print<T>(cmd: Command, result: T, human: (r: T) => string): void {
    io.stdout.write(globals(cmd).json ? `${JSON.stringify(result, null, 2)}\n` : human(result));
  }

  const ctx: CommandContext = {
    io,
    c,
    connect,
    call,
    follow,
    withStore,
    print,
    dataDirOf,
    globals,
    exitWith: (code) => {
      exitCode = code;
    },
    foundProblems: () => {
      findings = true;
    },
  };
  registerMemoryCommands(program, ctx);
  registerStoreCommands(program, ctx);
  registerEncryptionCommands(program, ctx);
  registerClientCommands(program, ctx);
  registerSyncCommands(program, ctx);
  registerModelCommands(program, ctx);
  registerServeCommands(program, ctx);
  registerSetupCommands(program, ctx);
  registerActivityCommands(program, ctx);
  registerIngestCommands(program, ctx);
  registerTranscriptCommands(program, ctx);
  registerConflictCommands(program, ctx);
  registerDreamCommands(program, ctx);
  registerBackupCommands(program, ctx);
  registerEvalCommands(program, ctx);
  registerAuditCommands(program, ctx);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode ?? (findings ? EXIT_FINDINGS : 0);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit with 0 and have already printed.
      return err.exitCode === 0 ? 0 : EXIT_CODES.usage;
    }
    const data = toErrorData(err);
    if (data.code === 'internal' && !(err instanceof LociError)) {
      io.stderr.write(`loci: ${(err as Error)?.message ?? String(err)}\n`);
    } else {
      io.stderr.write(`loci: ${data.message}\n`);
    }
    return EXIT_CODES[data.code] ?? 1;
  } finally {
    if (engine) await (engine as Engine).close();
  }
}
