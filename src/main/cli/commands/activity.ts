// `loci activity`: the recent calls of MCP clients.
import { type Command } from 'commander';
import { intArg } from '../args';
import type { CommandContext } from '../context';
import * as fmt from '../format';

export function registerActivityCommands(program: Command, ctx: CommandContext): void {
  const { c, call, print } = ctx;
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
}
