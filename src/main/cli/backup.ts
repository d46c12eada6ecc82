// `loci backup [--to <file>]`, `loci backup list`, `loci backup restore <file>`, and
// `loci export [--out <file>]` / `loci import <file>` (a store as portable JSON)
// (`loci restore` is taken: it restores a forgotten memory). A backup goes
// through the running daemon when there is one (online, while writes go on); a restore
// never does — it refuses while any process owns the data directory, then swaps the
// file in place itself (api/host.ts restoreStoreOffline) and proves the store opens.
import type { Command } from 'commander';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LociError } from '../../shared/errors';
import { restoreStoreOffline } from '../api/host';
import type { CommandContext } from './context';

export type BackupCliContext = Pick<
  CommandContext,
  'io' | 'c' | 'call' | 'connect' | 'withStore' | 'print' | 'dataDirOf'
>;

const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

export function registerBackupCommands(program: Command, ctx: BackupCliContext): void {
  const { c, call, withStore, print, dataDirOf } = ctx;

  const backup = program
    .command('backup')
    .description("back up a store's database, list its backups, restore one");
  backup
    .command('create', { isDefault: true })
    .description("copy a store's database (online: consistent while agents keep writing)")
    .option('--to <file>', "where to write it (default: the store's backups folder)")
    .action(async (o: { to?: string }, cmd: Command) => {
      const r = await call(cmd, 'store.backup', withStore(cmd, o.to ? { to: resolve(o.to) } : {}));
      print(cmd, r, (b) => `${c.green('Backed up')} to ${b.path} (${kib(b.bytes)}).\n`);
    });

  backup
    .command('list')
    .description("list a store's backups (scheduled daily by the daemon, manual, pre-migration)")
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'store.backups', withStore(cmd, {}));
      print(cmd, r, (v) =>
        v.backups.length === 0
          ? `No backups of store "${v.store}" yet. Take one with \`loci backup\`.\n`
          : v.backups
              .map(
                (b) =>
                  `${b.created_at}  ${b.kind.padEnd(13)} ${kib(b.bytes).padStart(9)}  ${b.path}\n`,
              )
              .join(''),
      );
    });

  backup
    .command('restore')
    .description(
      "replace a store's database with a backup (stop Loci first; the current file is moved aside, not deleted)",
    )
    .argument('<file>', 'the backup (see `loci backup list`)')
    .action(async (file: string, _o, cmd: Command) => {
      const dataDir = dataDirOf(cmd);
      const store = cmd.optsWithGlobals<{ store?: string }>().store ?? 'default';
      // Refused while Loci runs; the restored store must open (integrity check, migrations).
      const result = await restoreStoreOffline(dataDir, store, file);
      print(
        cmd,
        result,
        (r) =>
          `${c.green('Restored')} store "${r.store}" from ${r.restored_from}.${r.previous_moved_to ? ` The database it replaced is at ${r.previous_moved_to}.` : ''}\n`,
      );
    });

  program
    .command('export')
    .description(
      'write a store as a portable JSON bundle (memories with tombstones, tags, versions, links)',
    )
    .option('--out <file>', 'write it to this file (default: standard output)')
    .option(
      '--plaintext',
      "an encrypted store's bundle in clear (it is sealed under the store's key otherwise)",
    )
    .action(async (o: { out?: string; plaintext?: boolean }, cmd: Command) => {
      const bundle = await call(
        cmd,
        'store.export',
        withStore(cmd, o.plaintext ? { plaintext: true } : {}),
      );
      const text = `${JSON.stringify(bundle, null, 1)}\n`;
      if (!o.out) {
        ctx.io.stdout.write(text);
        return;
      }
      writeFileSync(resolve(o.out), text, { mode: 0o600, flag: 'wx' });
      print(
        cmd,
        {
          path: resolve(o.out),
          memories: Array.isArray(bundle.memories) ? bundle.memories.length : bundle.memories,
          sealed: bundle.format === 'loci-sealed-bundle',
        },
        (r) =>
          `${c.green('Exported')} ${r.memories} memories to ${r.path}${r.sealed ? " (sealed under the store's key)" : ''}.\n`,
      );
    });

  program
    .command('import')
    .description('load a bundle written by `loci export` into a store that has no memories yet')
    .argument('<file>', 'the bundle (JSON)')
    .action(async (file: string, _o, cmd: Command) => {
      let bundle: unknown;
      try {
        bundle = JSON.parse(readFileSync(resolve(file), 'utf8'));
      } catch (err) {
        throw new LociError(
          'invalid-args',
          `Cannot read ${file} as JSON: ${(err as Error).message}`,
        );
      }
      const r = await call(
        cmd,
        'store.import',
        withStore(cmd, { bundle: bundle as Record<string, unknown> }),
      );
      print(
        cmd,
        r,
        (v) =>
          `${c.green('Imported')} into store "${v.store}": ${v.memories} memories, ${v.versions} versions, ${v.links} links.\n`,
      );
    });
}
