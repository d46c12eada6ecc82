// The memory commands: remember, recall, get, list, update, tag, history, forget,
// restore, promote, erase, links and neighbours, and the store's stats.
import { type Command, Option } from 'commander';
import { LociError } from '../../../shared/errors';
import { LINK_TYPES, MEMORY_KINDS } from '../../../shared/schemas';
import { collect, floatArg, intArg, timeArg, timeOrNone } from '../args';
import type { CommandContext } from '../context';
import * as fmt from '../format';
import { confirm, readStdin } from '../io';

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

export function registerMemoryCommands(program: Command, ctx: CommandContext): void {
  const { io, c, call, withStore, print } = ctx;
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
    .option(
      '--reveal',
      "show a quarantined memory's credential in clear (written to the audit chain)",
    )
    .action(async (id: string, o, cmd: Command) => {
      const result = await call(
        cmd,
        'memory.get',
        withStore(cmd, {
          id,
          include_deleted: Boolean(o.includeDeleted),
          reveal: Boolean(o.reveal),
        }),
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
    .option(
      '--as-of <now|time>',
      'only what holds now (not superseded, within its validity), or what held at a time',
      (v: string) => (v === 'now' ? v : timeArg(v)),
    )
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
          ...(o.asOf ? { as_of: o.asOf as string } : {}),
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
    .description(
      "a memory's history: versions, validity, what replaced it or what it replaced, its conflicts",
    )
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
    [
      'redact',
      'memory.redact',
      'replace the credential in a quarantined memory (every version) with a fingerprinted placeholder, and release the rest to agents',
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

  program
    .command('stats')
    .description('counts and sizes for a store')
    .action(async (_o, cmd: Command) => {
      print(cmd, await call(cmd, 'stats.get', withStore(cmd, {})), (r) => fmt.formatStats(c, r));
    });
}
