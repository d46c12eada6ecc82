// `loci <command>`: every command is a call through the in-process client, so the
// CLI validates and behaves exactly like the other transports. Errors are one line on
// stderr with a non-zero exit code that says what kind of failure it was.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { LociClient, MethodArgs, MethodName, MethodResult } from '../../shared/api';
import { LociError, toErrorData, type ErrorCode } from '../../shared/errors';
import { LINK_TYPES, MEMORY_KINDS, SETUP_CLIENTS } from '../../shared/schemas';
import { createHandlers, createInProcessClient } from '../api';
import { homedir } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import type { EventMap, EventName } from '../../shared/events';
import { rendererDir, startDaemon } from '../daemon';
import { Engine } from '../engine/engine';
import { resolveDataDir } from '../engine/store/paths';
import { createHttpClient, findOwner, followEvents, type Owner } from '../http/client';
import { DEFAULT_PORT } from '../http/server';
import { rotateToken, loadOrCreateToken } from '../engine/store/token';
import { runStdio } from '../mcp/stdio';
import type { SynchronousMode } from '../engine/store/database';
import { registerAuditCommands } from './audit';
import { registerBackupCommands } from './backup';
import { registerEvalCommands } from './eval';
import * as fmt from './format';
import { registerIngestCommands } from './ingest';
import { registerDreamCommands } from './dream';
import { colorsFor, confirm, progressBar, readStdin, type CliIo } from './io';

type ClientId = (typeof SETUP_CLIENTS)[number];

/** Exit codes by error code (documented in the README). */
export const EXIT_CODES: Record<ErrorCode | 'usage', number> = {
  internal: 1,
  usage: 2,
  'invalid-args': 2,
  'unknown-method': 2,
  'not-found': 3,
  'store-not-found': 3,
  conflict: 4,
  'store-exists': 4,
  forbidden: 4,
  'store-locked': 5,
  unavailable: 5,
  'store-corrupt': 6,
  environment: 7,
  integrity: 8,
};

/** A check (`loci setup check`) ran and found something to fix. */
export const EXIT_FINDINGS = 9;

interface GlobalOptions {
  store?: string;
  json?: boolean;
  home?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function intArg(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return n;
  };
}

function floatArg(name: string) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number`);
    return n;
  };
}

/** Accepts ISO 8601 and plain dates (`2026-03-01` → midnight UTC). */
function timeArg(value: string): string {
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(t))
    throw new InvalidArgumentError(
      `"${value}" is not a date or time (use ISO 8601, e.g. 2026-03-01 or 2026-03-01T09:30:00Z)`,
    );
  return new Date(t).toISOString();
}

/** A time, or "none" to clear one. */
function timeOrNone(value: string): string | null {
  return value === 'none' ? null : timeArg(value);
}

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
    engine = await Engine.open({
      dataDir,
      owner: 'cli',
      synchronous: synchronousFrom(io.env),
      // Nothing runs after a command returns: a write waits for its vectors.
      embedWrites: 'await',
      env: io.env,
      // `loci setup` edits the editors' files in the home folder of this environment.
      setupHome: homeOf(io.env),
    });
    client = createInProcessClient(createHandlers(engine), {
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

  /** The conversation filters recall and list share, from their options. */
  function conversationArgs(o: {
    session?: string;
    speaker?: string;
    after?: string;
    before?: string;
  }) {
    return {
      ...(o.session !== undefined ? { session: o.session } : {}),
      ...(o.speaker !== undefined ? { speaker: o.speaker } : {}),
      ...(o.after ? { occurred_after: o.after } : {}),
      ...(o.before ? { occurred_before: o.before } : {}),
    };
  }

  /** Installs a catalogue model with a progress bar (`loci models install`, `loci setup`). */
  async function installModel(cmd: Command, id: string): Promise<void> {
    await connect(cmd);
    const bar = progressBar(io, `${id} {file} [{bar}] {percentage}% {value}/{total} bytes`);
    const off = follow('models.progressed', (p) =>
      bar.update(p.received, p.total ?? p.received, { file: `${p.index}/${p.files} ${p.file}` }),
    );
    try {
      const r = await call(cmd, 'models.install', { id });
      bar.stop();
      print(
        cmd,
        r,
        (m) =>
          `${c.green('Installed')} ${m.id} in ${m.dir ?? '?'}${m.pinned ? '' : c.yellow(' (its hashes were recorded at download: the catalogue pins none yet)')}\nRun \`loci embed\` to embed your memories with it now, or let the daemon do it in the background.\n`,
      );
    } finally {
      off();
      bar.stop();
    }
  }

  /**
   * While no model is installed, `loci setup` offers the catalogue's default: asked on a
   * terminal (nothing downloads without a yes), a hint line otherwise.
   */
  async function offerModel(cmd: Command): Promise<void> {
    const { offer } = await call(cmd, 'models.list', {});
    if (!offer) return;
    const size =
      offer.size_bytes === null
        ? null
        : `${offer.approximate ? 'about ' : ''}${Math.round(offer.size_bytes / 1_000_000)} MB`;
    const facts = [size, `licence ${offer.license}`].filter(Boolean).join(', ');
    io.stdout.write(`\n${offer.reason}\n`);
    if (!io.interactive || !io.stdin.isTTY) {
      io.stdout.write(
        `Recall by meaning: \`loci models install ${offer.id}\` (${offer.name}, ${facts}).\n`,
      );
      return;
    }
    if (
      await confirm(io, `Install ${offer.name} now (${facts}) so recall finds memories by meaning?`)
    ) {
      await installModel(cmd, offer.id);
    } else {
      io.stdout.write(
        `Not now. Later: \`loci models install ${offer.id}\`, or Settings in the observatory.\n`,
      );
    }
  }

  /** Adds `store` from the global option when the method takes one. */
  function withStore<T extends object>(cmd: Command, args: T): T & { store?: string } {
    const store = globals(cmd).store;
    return store ? { ...args, store } : args;
  }

  function print<T>(cmd: Command, result: T, human: (r: T) => string): void {
    io.stdout.write(globals(cmd).json ? `${JSON.stringify(result, null, 2)}\n` : human(result));
  }

  program
    .command('remember')
    .description('remember something (the text as arguments, or from standard input)')
    .argument('[content...]', 'the text; omit it or give "-" to read standard input')
    .option('--title <title>', 'a one-line title (default: the first line)')
    .addOption(
      new Option('--kind <kind>', 'the kind of memory (default: inferred)').choices(MEMORY_KINDS),
    )
    .option('-t, --tag <tag>', 'a tag (repeat for more)', collect)
    .option('--private', 'visible to you only, never to agents')
    .option('--pinned', 'pin it: never faded or pruned')
    .option('--valid-from <time>', 'when the fact starts to hold', timeArg)
    .option('--valid-to <time>', 'when the fact stops holding', timeArg)
    .option('--occurred-at <time>', 'when it happened or was said (default: not recorded)', timeArg)
    .option('--session <id>', 'the conversation or thread it belongs to')
    .option('--speaker <name>', 'who said it')
    .action(async (words: string[], o, cmd: Command) => {
      const text =
        words.length === 0 || (words.length === 1 && words[0] === '-')
          ? await readStdin(io)
          : words.join(' ');
      const result = await call(
        cmd,
        'memory.remember',
        withStore(cmd, {
          content: text,
          ...(o.title !== undefined ? { title: o.title } : {}),
          ...(o.kind ? { kind: o.kind } : {}),
          ...(o.tag ? { tags: o.tag } : {}),
          ...(o.private ? { visibility: 'private' as const } : {}),
          ...(o.pinned ? { pinned: true } : {}),
          ...(o.validFrom ? { valid_from: o.validFrom } : {}),
          ...(o.validTo ? { valid_to: o.validTo } : {}),
          ...(o.occurredAt ? { occurred_at: o.occurredAt } : {}),
          ...(o.session !== undefined ? { session: o.session } : {}),
          ...(o.speaker !== undefined ? { speaker: o.speaker } : {}),
        }),
      );
      print(cmd, result, (r) => fmt.formatRemember(c, r));
    });

  program
    .command('recall')
    .description('find memories relevant to a question')
    .argument('<query...>', 'what to look for')
    .option('-n, --limit <n>', 'at most this many results (1–100)', intArg('--limit'), 10)
    .addOption(
      new Option('--kind <kind>', 'only this kind (repeat for more)')
        .choices(MEMORY_KINDS)
        .argParser(collect),
    )
    .option('-t, --tag <tag>', 'only memories with this tag (repeat: all of them)', collect)
    .option('--as-of <time>', 'only facts valid at this time', timeArg)
    .option('--session <id>', 'only memories of this session')
    .option('--speaker <name>', 'only memories said by this speaker')
    .option('--after <time>', 'only memories that happened at or after this time', timeArg)
    .option('--before <time>', 'only memories that happened before this time', timeArg)
    .option('--max-tokens <n>', 'fit the answer in this many tokens', intArg('--max-tokens'))
    .option('-v, --verbose', 'whole memories and the score breakdown')
    .option('--include-quarantined', 'also search quarantined memories')
    .option('--no-rehearse', 'do not count this recall as a use of the memories returned')
    .option('--explain', 'print how each stage of the pipeline ranked the candidates')
    .option('--history', 'include memories that another memory supersedes')
    .action(async (words: string[], o, cmd: Command) => {
      const result = await call(
        cmd,
        'memory.recall',
        withStore(cmd, {
          query: words.join(' '),
          limit: o.limit,
          ...(o.kind ? { kinds: o.kind } : {}),
          ...(o.tag ? { tags: o.tag } : {}),
          ...(o.asOf ? { as_of: o.asOf } : {}),
          ...conversationArgs(o),
          ...(o.maxTokens !== undefined ? { max_tokens: o.maxTokens } : {}),
          format: o.verbose ? ('verbose' as const) : ('compact' as const),
          include_quarantined: Boolean(o.includeQuarantined),
          rehearse: o.rehearse !== false,
          explain: Boolean(o.explain),
          history: Boolean(o.history),
        }),
      );
      print(cmd, result, (r) => fmt.formatRecall(c, r));
    });

  program
    .command('get')
    .description('show one memory in full')
    .argument('<id>', 'the memory id')
    .option('--include-deleted', 'show it even if it was forgotten')
    .action(async (id: string, o, cmd: Command) => {
      const result = await call(
        cmd,
        'memory.get',
        withStore(cmd, { id, include_deleted: Boolean(o.includeDeleted) }),
      );
      print(cmd, result, (r) => fmt.formatMemory(c, r));
    });

  program
    .command('list')
    .description('list memories, newest first')
    .addOption(
      new Option('--kind <kind>', 'only this kind (repeat for more)')
        .choices(MEMORY_KINDS)
        .argParser(collect),
    )
    .option('-t, --tag <tag>', 'only memories with this tag (repeat: all of them)', collect)
    .option(
      '--source <source>',
      'only this source (user, agent:cursor, file:notes.md; "agent:" for any agent)',
    )
    .addOption(
      new Option('--trust <trust>', 'trusted, quarantined or any')
        .choices(['trusted', 'quarantined', 'any'])
        .default('trusted'),
    )
    .option('--pinned', 'only pinned memories')
    .addOption(
      new Option('--deleted <mode>', 'forgotten memories: exclude, include or only')
        .choices(['exclude', 'include', 'only'])
        .default('exclude'),
    )
    .addOption(
      new Option('--order <field>', 'created, updated or occurred (when it happened)')
        .choices(['created', 'updated', 'occurred'])
        .default('created'),
    )
    .option('--asc', 'oldest first')
    .option('--session <id>', 'only memories of this session')
    .option('--speaker <name>', 'only memories said by this speaker')
    .option('--after <time>', 'only memories that happened at or after this time', timeArg)
    .option('--before <time>', 'only memories that happened before this time', timeArg)
    .option('-n, --limit <n>', 'page size (1–500)', intArg('--limit'), 50)
    .option('--cursor <cursor>', 'the next page, as printed by the previous one')
    .action(async (o, cmd: Command) => {
      const result = await call(
        cmd,
        'memory.list',
        withStore(cmd, {
          ...(o.kind ? { kinds: o.kind } : {}),
          ...(o.tag ? { tags: o.tag } : {}),
          ...(o.source ? { source: o.source } : {}),
          ...conversationArgs(o),
          trust: o.trust,
          ...(o.pinned ? { pinned: true } : {}),
          deleted: o.deleted,
          order: o.order,
          direction: o.asc ? ('asc' as const) : ('desc' as const),
          limit: o.limit,
          ...(o.cursor ? { cursor: o.cursor } : {}),
        }),
      );
      print(cmd, result, (r) => fmt.formatList(c, r));
    });

  program
    .command('update')
    .description('change a memory (the previous text is kept as a version)')
    .argument('<id>', 'the memory id')
    .option('--content <text>', 'new content ("-" reads standard input)')
    .option('--title <title>', 'new title')
    .addOption(new Option('--kind <kind>', 'new kind').choices(MEMORY_KINDS))
    .option('-t, --tag <tag>', 'replace the tags (repeat for more)', collect)
    .option('--pin', 'pin it')
    .option('--unpin', 'unpin it')
    .addOption(new Option('--visibility <v>', 'shared or private').choices(['shared', 'private']))
    .option('--occurred-at <time>', 'when it happened ("none" clears it)', timeOrNone)
    .option('--session <id>', 'its session ("none" clears it)')
    .option('--speaker <name>', 'who said it ("none" clears it)')
    .option(
      '--expected-version <n>',
      'fail if the memory is no longer at this version',
      intArg('--expected-version'),
    )
    .action(async (id: string, o, cmd: Command) => {
      if (o.pin && o.unpin) throw new LociError('invalid-args', 'give --pin or --unpin, not both');
      const content = o.content === '-' ? await readStdin(io) : o.content;
      const result = await call(
        cmd,
        'memory.update',
        withStore(cmd, {
          id,
          ...(content !== undefined ? { content } : {}),
          ...(o.title !== undefined ? { title: o.title } : {}),
          ...(o.kind ? { kind: o.kind } : {}),
          ...(o.tag ? { tags: o.tag } : {}),
          ...(o.pin ? { pinned: true } : o.unpin ? { pinned: false } : {}),
          ...(o.visibility ? { visibility: o.visibility } : {}),
          ...(o.occurredAt !== undefined ? { occurred_at: o.occurredAt } : {}),
          ...(o.session !== undefined ? { session: o.session === 'none' ? null : o.session } : {}),
          ...(o.speaker !== undefined ? { speaker: o.speaker === 'none' ? null : o.speaker } : {}),
          ...(o.expectedVersion !== undefined ? { expected_version: o.expectedVersion } : {}),
        }),
      );
      print(cmd, result, (r) => fmt.formatMutation(c, r));
    });

  program
    .command('tag')
    .description('add or remove tags')
    .argument('<id>', 'the memory id')
    .option('-a, --add <tag>', 'a tag to add (repeat for more)', collect)
    .option('-r, --remove <tag>', 'a tag to remove (repeat for more)', collect)
    .action(async (id: string, o, cmd: Command) => {
      const result = await call(
        cmd,
        'memory.tag',
        withStore(cmd, {
          id,
          ...(o.add ? { add: o.add } : {}),
          ...(o.remove ? { remove: o.remove } : {}),
        }),
      );
      print(cmd, result, (r) => fmt.formatMutation(c, r));
    });

  program
    .command('history')
    .description("show a memory's earlier versions")
    .argument('<id>', 'the memory id')
    .action(async (id: string, _o, cmd: Command) => {
      print(cmd, await call(cmd, 'memory.history', withStore(cmd, { id })), (r) =>
        fmt.formatHistory(c, r),
      );
    });

  for (const [name, method, description] of [
    ['forget', 'memory.forget', 'forget a memory (soft: `loci restore` brings it back)'],
    ['restore', 'memory.restore', 'bring back a forgotten memory'],
    [
      'promote',
      'memory.promote',
      'release a quarantined memory to agents (you checked it holds no secret)',
    ],
  ] as const) {
    program
      .command(name)
      .description(description)
      .argument('<id>', 'the memory id')
      .action(async (id: string, _o, cmd: Command) => {
        print(cmd, await call(cmd, method, withStore(cmd, { id })), (r) =>
          fmt.formatMutation(c, r),
        );
      });
  }

  program
    .command('erase')
    .description('erase a memory for good: from every table and index (an audit tombstone stays)')
    .argument('<id>', 'the memory id')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (id: string, o, cmd: Command) => {
      if (!o.yes) {
        const ok = await confirm(io, `Erase ${id} permanently? This cannot be undone.`);
        if (!ok) {
          throw new LociError(
            'invalid-args',
            `not erased: erasing is permanent, so confirm it on a terminal or pass --yes`,
          );
        }
      }
      print(cmd, await call(cmd, 'memory.erase', withStore(cmd, { id })), (r) =>
        fmt.formatMutation(c, r),
      );
    });

  program
    .command('link')
    .description('link two memories (a typed, weighted edge from the first to the second)')
    .argument('<from>', 'the source memory id')
    .argument('<to>', 'the target memory id')
    .addOption(new Option('--type <type>', 'the link type').choices(LINK_TYPES).default('related'))
    .option('-w, --weight <w>', 'strength, 0–1', floatArg('--weight'), 0.5)
    .action(async (from: string, to: string, o, cmd: Command) => {
      print(
        cmd,
        await call(
          cmd,
          'link.create',
          withStore(cmd, { from, to, type: o.type, weight: o.weight }),
        ),
        (r) => fmt.formatLink(c, r),
      );
    });

  program
    .command('unlink')
    .description('remove the link(s) from one memory to another')
    .argument('<from>', 'the source memory id')
    .argument('<to>', 'the target memory id')
    .addOption(new Option('--type <type>', 'only this type of link').choices(LINK_TYPES))
    .action(async (from: string, to: string, o, cmd: Command) => {
      print(
        cmd,
        await call(
          cmd,
          'link.remove',
          withStore(cmd, { from, to, ...(o.type ? { type: o.type } : {}) }),
        ),
        (r) => fmt.formatLink(c, r),
      );
    });

  program
    .command('neighbors')
    .alias('neighbours')
    .description('memories linked to a memory, up to a few hops away')
    .argument('<id>', 'the memory id')
    .option('-d, --depth <n>', 'hops (1–3)', intArg('--depth'), 1)
    .addOption(
      new Option('--type <type>', 'follow only this link type (repeat for more)')
        .choices(LINK_TYPES)
        .argParser(collect),
    )
    .option('-n, --limit <n>', 'at most this many memories', intArg('--limit'), 100)
    .action(async (id: string, o, cmd: Command) => {
      const result = await call(
        cmd,
        'graph.neighbors',
        withStore(cmd, {
          id,
          depth: o.depth,
          limit: o.limit,
          ...(o.type ? { types: o.type } : {}),
        }),
      );
      print(cmd, result, (r) => fmt.formatNeighbors(c, r));
    });

  const stores = program.command('stores').description('list, create and reset stores');
  stores
    .command('list', { isDefault: true })
    .description('list the stores in the data directory')
    .action(async (_o, cmd: Command) => {
      print(cmd, await call(cmd, 'store.list', {}), (r) => fmt.formatStores(c, r));
    });
  stores
    .command('create')
    .description('create a store')
    .argument('<name>', 'lowercase letters, digits, "-" and "_"')
    .action(async (name: string, _o, cmd: Command) => {
      const r = await call(cmd, 'store.create', { name });
      print(cmd, r, (s) => `${c.green('Created')} store "${s.name}" at ${s.path}\n`);
    });
  stores
    .command('reset')
    .description(
      'after a damaged database was moved aside: start the store empty (the damaged file is kept)',
    )
    .argument('<name>', 'the store')
    .action(async (name: string, _o, cmd: Command) => {
      print(cmd, await call(cmd, 'store.reset', { name }), (r) =>
        r.moved_to
          ? `${c.green('Reset')} store "${name}": it starts empty. The damaged database stays at ${r.moved_to}.\n`
          : `Store "${name}" was not marked as damaged; nothing to do.\n`,
      );
    });
  stores
    .command('rename')
    .description('rename a store (its memories, history and audit keys move with it)')
    .argument('<name>', 'the store')
    .argument('<to>', 'its new name')
    .action(async (name: string, to: string, _o, cmd: Command) => {
      print(
        cmd,
        await call(cmd, 'store.rename', { name, to }),
        (r) => `${c.green('Renamed')} store "${name}" to "${r.name}" (${r.path}).\n`,
      );
    });

  const models = program
    .command('models')
    .description('embedding models: list, install, remove, use');
  models
    .command('list', { isDefault: true })
    .description('the models Loci can install and the ones it found')
    .action(async (_o, cmd: Command) => {
      print(cmd, await call(cmd, 'models.list', {}), (r) => fmt.formatModels(c, r));
    });
  models
    .command('install')
    .description(
      'download a model from the catalogue (with a sha256 check), then use it if it is the best installed',
    )
    .argument('<id>', 'a model id from `loci models list`')
    .action(async (id: string, _o, cmd: Command) => {
      await installModel(cmd, id);
    });
  models
    .command('remove')
    .description('delete an installed model')
    .argument('<id>', 'the model id')
    .action(async (id: string, _o, cmd: Command) => {
      print(cmd, await call(cmd, 'models.remove', { id }), () => `${c.green('Removed')} ${id}\n`);
    });
  models
    .command('use')
    .description(
      'choose the model recall uses: an id, "auto" (the best installed) or "none" (the hashing fallback)',
    )
    .argument('<id>', 'a model id, auto or none')
    .action(async (id: string, _o, cmd: Command) => {
      print(
        cmd,
        await call(cmd, 'models.use', { id }),
        (r) =>
          `${fmt.formatModels(c, r)}Memories are re-embedded with the new model by \`loci embed\` (or in the background by the daemon).\n`,
      );
    });

  program
    .command('embed')
    .description(
      'embed every memory that has no vector of the active model yet (after installing or switching models)',
    )
    .action(async (_o, cmd: Command) => {
      await connect(cmd);
      const bar = progressBar(io, 'embedding [{bar}] {value}/{total} memories  {model}');
      const off = follow('embedding.progressed', (p) =>
        bar.update(p.done, p.total, { model: p.model }),
      );
      try {
        const r = await call(cmd, 'embedding.backfill', withStore(cmd, {}));
        bar.stop();
        print(
          cmd,
          r,
          (v) =>
            `${v.embedded} memories embedded with ${v.model} (semantic ${v.semantic})${v.pending ? `, ${v.pending} still waiting` : ''}\n`,
        );
      } finally {
        off();
        bar.stop();
      }
    });

  program
    .command('calibrate')
    .description(
      "set the store's abstention bar from its own memories (runs again by itself as the store grows)",
    )
    .option('--sample <n>', 'memories to build answerable questions from', intArg('--sample'), 200)
    .action(async (o, cmd: Command) => {
      const r = await call(cmd, 'recall.calibrate', withStore(cmd, { sample: o.sample }));
      print(
        cmd,
        r,
        (v) =>
          `${c.green('Calibrated')} ${v.store} for ${v.model}: abstain below similarity ${v.threshold} (balanced accuracy ${v.balanced_accuracy} on ${v.answerable} answerable and ${v.unanswerable} unanswerable questions)\n`,
      );
    });

  program
    .command('serve')
    .description(
      `run the daemon: MCP at /mcp, the API and the observatory (default port ${DEFAULT_PORT})`,
    )
    .option(
      '-p, --port <n>',
      `port (default ${DEFAULT_PORT}; a free one if it is taken; 0 for any)`,
      intArg('--port'),
    )
    .option('--host <host>', 'address to bind (default 127.0.0.1)', '127.0.0.1')
    .option('--no-auth', 'serve without a token (loopback addresses only)')
    .action(async (o, cmd: Command) => {
      const dataDir = dataDirOf(cmd);
      const daemon = await startDaemon({
        dataDir,
        host: o.host,
        ...(o.port !== undefined ? { port: o.port } : {}),
        ...(globals(cmd).store ? { store: globals(cmd).store as string } : {}),
        noAuth: o.auth === false,
        env: io.env,
      });
      const lines = [
        `Loci is serving ${dataDir}`,
        `  MCP endpoint:  ${daemon.url}/mcp${daemon.token ? '  (header  Authorization: Bearer <token>, see `loci token show`)' : ''}`,
        rendererDir()
          ? `  Observatory:   ${daemon.observatoryUrl}`
          : '  Observatory:   not built in this installation',
        `  Connect an editor: loci setup`,
        ...daemon.storeProblems.map((p) => `  Store "${p.store}" is closed: ${p.message}`),
        'Press Ctrl+C to stop.',
      ];
      io.stdout.write(`${lines.join('\n')}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      io.stdout.write('Stopping…\n');
      await daemon.close();
    });

  program
    .command('mcp')
    .description(
      'MCP over stdio, for editors that start their MCP servers (forwards to the daemon when one runs)',
    )
    .option(
      '--init-timeout <seconds>',
      'exit if no initialize arrives in time',
      intArg('--init-timeout'),
      60,
    )
    .action(async (o, cmd: Command) => {
      const code = await runStdio({
        dataDir: dataDirOf(cmd),
        env: io.env,
        initTimeoutMs: o.initTimeout * 1000,
        ...(globals(cmd).store ? { store: globals(cmd).store as string } : {}),
      });
      if (code !== 0) throw new LociError('unavailable', 'no MCP client connected');
    });

  const token = program.command('token').description('the bearer token that guards the daemon');
  token
    .command('show', { isDefault: true })
    .description('print the token and where it is kept')
    .action((_o, cmd: Command) => {
      const t = loadOrCreateToken(dataDirOf(cmd));
      print(
        cmd,
        { token: t.token, path: t.path },
        (r) => `${r.token}\n${c.dim(`(kept in ${r.path}, readable by you only)`)}\n`,
      );
    });
  token
    .command('rotate')
    .description(
      'replace the token (a running daemon uses the new one at once; update your editors with `loci setup`)',
    )
    .action((_o, cmd: Command) => {
      const t = rotateToken(dataDirOf(cmd));
      print(
        cmd,
        { token: t.token, path: t.path },
        (r) =>
          `${c.green('New token')} ${r.token}\n${c.dim('Editors configured with the old one need `loci setup` again.')}\n`,
      );
    });

  const setup = program
    .command('setup')
    .description(
      'connect your editors: show and write the Loci entry in each MCP client found (originals backed up)',
    )
    .addOption(new Option('--client <id>', 'only this client').choices(SETUP_CLIENTS))
    .addOption(
      new Option(
        '--transport <t>',
        "http (the daemon's URL and token) or stdio (`loci mcp`)",
      ).choices(['http', 'stdio']),
    )
    .option('--dry-run', 'show the changes, write nothing')
    .option('-y, --yes', 'write without asking')
    .action(async (o, cmd: Command) => {
      await connectEditors(o, cmd);
      if (!globals(cmd).json && !o.dryRun) await offerModel(cmd);
    });
  async function connectEditors(
    o: { client?: ClientId; transport?: 'http' | 'stdio'; dryRun?: boolean; yes?: boolean },
    cmd: Command,
  ): Promise<void> {
    const plans = (
      await call(cmd, 'setup.plan', {
        ...(o.client ? { client: o.client } : {}),
        ...(o.transport ? { transport: o.transport } : {}),
      })
    ).clients;
    const relevant = plans.filter((p) => o.client || p.installed);
    const json = Boolean(globals(cmd).json);
    const pending = relevant.filter((p) => p.action === 'add' || p.action === 'update');
    const blocked = relevant.filter((p) => p.problem);
    // A file Loci refused to edit fails the command, after the others are written.
    const refuse = () => {
      if (blocked.length > 0)
        throw new LociError('invalid-args', blocked.map((p) => p.problem).join(' '));
    };
    if (json && (o.dryRun || !o.yes)) {
      print(cmd, { clients: relevant }, () => '');
      return;
    }
    if (json) {
      const written = [];
      for (const p of pending) {
        written.push(
          await call(cmd, 'setup.write', {
            client: p.client as ClientId,
            transport: p.transport,
          }),
        );
      }
      print(cmd, { clients: relevant, written }, () => '');
      refuse();
      return;
    }
    if (relevant.length === 0) {
      io.stdout.write(
        'No MCP client found on this machine (looked for Claude Code, Claude Desktop, Cursor, VS Code, Windsurf and Zed). Use --client to write one anyway.\n',
      );
      return;
    }
    for (const p of relevant) {
      io.stdout.write(
        `${c.bold(p.name)}  ${c.dim(p.file)}\n  ${
          p.problem
            ? c.red(p.problem)
            : p.action === 'unchanged'
              ? c.green('already set up')
              : `${p.action} (${p.transport})\n${p.diff
                  .split('\n')
                  .map((l) => `    ${l}`)
                  .join('\n')}`
        }\n`,
      );
    }
    if (o.dryRun) return;
    if (pending.length > 0) {
      if (
        !o.yes &&
        !(await confirm(
          io,
          `Write ${pending.length} configuration${pending.length === 1 ? '' : 's'}? (originals are backed up)`,
        ))
      ) {
        io.stdout.write('Nothing written. Run `loci setup --yes` to write.\n');
        return;
      }
      for (const p of pending) {
        // The transport shown in the plan (a client that takes only stdio keeps stdio).
        const r = await call(cmd, 'setup.write', {
          client: p.client as ClientId,
          transport: p.transport,
        });
        io.stdout.write(
          `${c.green('Wrote')} ${r.file}${r.backup ? c.dim(` (backup: ${r.backup})`) : ''}\n`,
        );
      }
      io.stdout.write('Restart the editors (or reload their MCP servers) to connect.\n');
    }
    refuse();
  }
  setup
    .command('check')
    .description('audit every client: missing, stale port or token, duplicate entries')
    .action(async (_o, cmd: Command) => {
      const report = await call(cmd, 'setup.check', {});
      if (report.clients.some((x) => ['stale', 'duplicate', 'invalid'].includes(x.status))) {
        findings = true;
      }
      print(cmd, report, (r) => {
        const rows = r.clients.map((x) => [x.name, x.status, x.problems.join('; ') || '—']);
        return `${fmt.table(c, ['client', 'status', 'problems'], rows)}${c.dim(`Loci endpoint: ${r.endpoint}`)}\n`;
      });
    });

  program
    .command('activity')
    .description('recent calls by MCP clients (of the running daemon, or of this process)')
    .option('-n, --limit <n>', 'how many', intArg('--limit'), 30)
    .option('--client <name>', 'only this client')
    .action(async (o, cmd: Command) => {
      const r = await call(cmd, 'activity.list', {
        limit: o.limit,
        ...(o.client ? { client: o.client } : {}),
      });
      print(cmd, r, (v) =>
        v.items.length
          ? fmt.table(
              c,
              ['time', 'client', 'tool', 'ms', 'outcome'],
              v.items.map((i) => [
                i.at.slice(11, 19),
                i.actor,
                i.tool,
                String(i.duration_ms),
                i.ok ? 'ok' : (i.error_code ?? 'error'),
              ]),
            )
          : 'No calls yet (the activity feed lives in the daemon: is `loci serve` running?).\n',
      );
    });

  registerIngestCommands(program, { io, c, connect, call, follow, withStore, print });
  registerDreamCommands(program, { io, c, connect, call, follow, withStore, print });
  registerBackupCommands(program, { io, c, connect, call, withStore, print, dataDirOf });
  registerEvalCommands(program, { io, c, connect, call, follow, withStore, print });
  registerAuditCommands(program, {
    io,
    c,
    connect,
    call,
    follow,
    withStore,
    print,
    exitWith: (code) => {
      exitCode = code;
    },
  });

  program
    .command('stats')
    .description('counts and sizes for a store')
    .action(async (_o, cmd: Command) => {
      print(cmd, await call(cmd, 'stats.get', withStore(cmd, {})), (r) => fmt.formatStats(c, r));
    });

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
