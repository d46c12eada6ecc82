// `loci <command>`: every command is a call through the in-process client, so the
// CLI validates and behaves exactly like the other transports. Errors are one line on
// stderr with a non-zero exit code that says what kind of failure it was.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { LociClient, MethodArgs, MethodName, MethodResult } from '../../shared/api';
import { LociError, toErrorData, type ErrorCode } from '../../shared/errors';
import { LINK_TYPES, MEMORY_KINDS } from '../../shared/schemas';
import { createHandlers, createInProcessClient } from '../api';
import { Engine } from '../engine/engine';
import type { SynchronousMode } from '../engine/store/database';
import * as fmt from './format';
import { colorsFor, confirm, progressBar, readStdin, type CliIo } from './io';

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

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const c = colorsFor(io);
  let engine: Engine | null = null;
  let client: LociClient | null = null;

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
      outputError: (s, write) => write(`loci: ${s.replace(/^error: /, '').trim()} (see --help)\n`),
    });

  const globals = (cmd: Command) => cmd.optsWithGlobals<GlobalOptions>();

  async function ensureEngine(cmd: Command): Promise<Engine> {
    await call(cmd, 'store.list', {});
    return engine as unknown as Engine;
  }

  async function call<M extends MethodName>(
    cmd: Command,
    method: M,
    args: MethodArgs<M>,
  ): Promise<MethodResult<M>> {
    if (!client) {
      const home = globals(cmd).home ?? io.env.LOCI_HOME;
      engine = await Engine.open({
        ...(home ? { dataDir: home } : {}),
        owner: 'cli',
        synchronous: synchronousFrom(io.env),
        // Nothing runs after a command returns: a write waits for its vectors.
        embedWrites: 'await',
        env: io.env,
      });
      client = createInProcessClient(createHandlers(engine), {
        actor: { kind: 'cli', transport: 'in-process' },
      });
    }
    return client.call(method, args);
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
      new Option('--order <field>', 'created or updated')
        .choices(['created', 'updated'])
        .default('created'),
    )
    .option('--asc', 'oldest first')
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
      const e = await ensureEngine(cmd);
      const bar = progressBar(io, `${id} {file} [{bar}] {percentage}% {value}/{total} bytes`);
      const off = e.events.on('models.progressed', (p) =>
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
      const e = await ensureEngine(cmd);
      const bar = progressBar(io, 'embedding [{bar}] {value}/{total} memories  {model}');
      const off = e.events.on('embedding.progressed', (p) =>
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
    .command('stats')
    .description('counts and sizes for a store')
    .action(async (_o, cmd: Command) => {
      print(cmd, await call(cmd, 'stats.get', withStore(cmd, {})), (r) => fmt.formatStats(c, r));
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
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
