// `loci setup`: connect the editors found on this machine, and check their entries.
import { type Command, Option } from 'commander';
import { LociError } from '../../../shared/errors';
import { SETUP_CLIENTS } from '../../../shared/schemas';
import type { CommandContext } from '../context';

type ClientId = (typeof SETUP_CLIENTS)[number];
import * as fmt from '../format';
import { confirm } from '../io';
import { offerModel } from './models';

export function registerSetupCommands(program: Command, ctx: CommandContext): void {
  const { io, c, call, print, globals } = ctx;
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
      if (!globals(cmd).json && !o.dryRun) await offerModel(ctx, cmd);
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
    .command('hooks')
    .description(
      "install Claude Code's hooks for Loci in ~/.claude/settings.json: the bootstrap at session start, relevant memories on each prompt, the transcript imported before a compaction and at the end (other hooks kept, a backup first)",
    )
    .option('--dry-run', 'show the changes, write nothing')
    .option('-y, --yes', 'write without asking')
    .action(async (o: { dryRun?: boolean; yes?: boolean }, cmd: Command) => {
      const show = (r: { file: string; changes: string[] }) =>
        r.changes.length
          ? `${r.file}:\n${r.changes.map((l) => `  ${l.startsWith('+') ? c.green(l) : c.yellow(l)}`).join('\n')}\n`
          : `${r.file}: Loci's hooks are installed and up to date.\n`;
      const planned = await call(cmd, 'setup.hooks', { dry_run: true });
      if (o.dryRun || planned.action === 'unchanged') {
        print(cmd, planned, show);
        return;
      }
      if (!o.yes && !globals(cmd).json) {
        io.stdout.write(show(planned));
        if (!(await confirm(io, 'Write these hooks?'))) {
          io.stdout.write('Nothing written.\n');
          return;
        }
      }
      const r = await call(cmd, 'setup.hooks', {});
      print(
        cmd,
        r,
        (v) =>
          `${c.green('Wrote')} ${v.changes.length} hooks to ${v.file}${v.backup ? ` (backup: ${v.backup})` : ''}. Restart Claude Code to load them.\n`,
      );
    });
  setup
    .command('check')
    .description('audit every client: missing, stale port or token, duplicate entries')
    .action(async (_o, cmd: Command) => {
      const report = await call(cmd, 'setup.check', {});
      if (
        report.clients.some((x) => ['stale', 'duplicate', 'invalid'].includes(x.status)) ||
        report.hooks?.status === 'stale'
      ) {
        ctx.foundProblems();
      }
      print(cmd, report, (r) => {
        const rows = r.clients.map((x) => [x.name, x.status, x.problems.join('; ') || '—']);
        if (r.hooks) {
          rows.push([
            'Claude Code hooks',
            r.hooks.status,
            r.hooks.status === 'missing'
              ? 'not installed: `loci setup hooks`'
              : r.hooks.problems.join('; ') || '—',
          ]);
        }
        return `${fmt.table(c, ['client', 'status', 'problems'], rows)}${c.dim(`Loci endpoint: ${r.endpoint}`)}\n`;
      });
    });
}
