// `loci stores`: list, create, rename and reset stores.
import { type Command } from 'commander';
import type { CommandContext } from '../context';
import * as fmt from '../format';

export function registerStoreCommands(program: Command, ctx: CommandContext): void {
  const { c, call, print } = ctx;
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
}
