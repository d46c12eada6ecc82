// `loci sync connect|status|now|devices|leave`: a store on a PostgreSQL team hub or a
// synced folder. Each device keeps a full replica; these commands say how it is doing.
import { type Command } from 'commander';
import type { SyncStoreStatus } from '../../../shared/api';
import type { CommandContext } from '../context';
import { readStdin } from '../io';

const ago = (iso: string | null) => {
  if (!iso) return 'never';
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  return s < 90
    ? `${s} s ago`
    : s < 5400
      ? `${Math.round(s / 60)} min ago`
      : `${Math.round(s / 3600)} h ago`;
};

const duration = (ms: number) =>
  ms < 1000
    ? `${Math.round(ms)} ms`
    : ms < 90_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${Math.round(ms / 60_000)} min`;

function describe(s: SyncStoreStatus, c: CommandContext['c']): string {
  const state =
    s.state === 'error'
      ? c.red('error')
      : s.state === 'syncing'
        ? c.yellow('syncing')
        : c.green('in step');
  const lines = [
    `${c.bold(s.store)}  ${s.transport === 'hub' ? 'hub' : 'folder'} ${s.target}  ${state}`,
    `  last push ${ago(s.last_push_at)} · last pull ${ago(s.last_pull_at)} · ${s.pending} to send · ${s.pushed} sent, ${s.pulled} received since start`,
  ];
  if (s.lag_ms) {
    lines.push(
      `  lag p50 ${duration(s.lag_ms.p50)}, p95 ${duration(s.lag_ms.p95)} (${s.lag_ms.samples} changes)`,
    );
  }
  if (s.clock_ahead_ms > 60_000) {
    lines.push(
      `  ${c.yellow('clock')}: this store's clock runs ${duration(s.clock_ahead_ms)} ahead of this machine's — a device's clock is fast; its concurrent changes win until real time catches up.`,
    );
  }
  if (s.error) {
    lines.push(`  ${c.red('error')} ${s.error.message}`, `  fix: ${s.error.fix}`);
    if (s.next_retry_at) lines.push(`  next try ${s.next_retry_at}`);
  }
  for (const p of s.problems.slice(0, 5)) {
    lines.push(`  ${c.yellow('skipped')} ${p.where}: ${p.message}`, `    fix: ${p.fix}`);
  }
  for (const m of s.merges.slice(0, 5)) {
    lines.push(
      `  merged ${m.id}: ${m.fields.join(', ')} changed on two devices; the later clock kept, the other is a version`,
    );
  }
  lines.push(`  password: ${s.secret === 'none' ? 'none kept' : `kept in the ${s.secret}`}`);
  return lines.join('\n');
}

export function registerSyncCommands(program: Command, ctx: CommandContext): void {
  const { c, call, print, withStore } = ctx;
  const sync = program
    .command('sync')
    .description('a store on a PostgreSQL team hub or a synced folder, each device a full replica');
  sync
    .command('connect')
    .description(
      'join the store to a hub (postgres://…) or a synced folder (Syncthing, Dropbox, iCloud Drive, git)',
    )
    .argument(
      '<target>',
      'postgres://user@host:5432/database[?sslmode=verify-full&sslrootcert=…] or a folder',
    )
    .option(
      '--password-stdin',
      'read the hub password from standard input (kept in the OS keychain or a private file)',
    )
    .action(async (target: string, o: { passwordStdin?: boolean }, cmd: Command) => {
      const hub = /^postgres(ql)?:\/\//i.test(target);
      const password = o.passwordStdin ? (await readStdin(ctx.io)).trim() : undefined;
      const r = await call(
        cmd,
        'sync.connect',
        withStore(cmd, {
          ...(hub ? { url: target } : { folder: target }),
          ...(password ? { password } : {}),
        }),
      );
      print(
        cmd,
        r,
        (v) =>
          `${c.green('Connected')} store "${v.store}" to ${v.target}. Its shared memories sync from now on; private and quarantined ones stay here.\n`,
      );
    });
  sync
    .command('status', { isDefault: true })
    .description('how each synced store is doing: last push and pull, lag, errors with their fix')
    .action(async (_o, cmd: Command) => {
      const store = ctx.globals(cmd).store;
      const r = await call(cmd, 'sync.status', store ? { store } : {});
      print(cmd, r, (v) =>
        v.stores.length === 0
          ? `No store syncs. \`loci sync connect postgres://… --store <name>\` or \`loci sync connect <folder>\`.\nThis device: ${v.device.name} (${v.device.id}).\n`
          : `This device: ${v.device.name} (${v.device.id})\n${v.stores.map((s) => describe(s, c)).join('\n\n')}\n`,
      );
    });
  sync
    .command('now')
    .description('push and pull now, and wait for it')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'sync.now', withStore(cmd, {}));
      print(
        cmd,
        r,
        (v) =>
          `Store "${v.store}": sent ${v.pushed}, received ${v.pulled} (${v.applied} new) in ${duration(v.duration_ms)}.${v.problems.length > 0 ? `\n${v.problems.map((p) => `${c.yellow('skipped')} ${p.where}: ${p.message}\n  fix: ${p.fix}`).join('\n')}` : ''}\n`,
      );
    });
  sync
    .command('devices')
    .description('the devices of the store: last seen, operations sent, clock skew')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'sync.devices', withStore(cmd, {}));
      print(
        cmd,
        r,
        (v) =>
          `${v.devices
            .map(
              (d) =>
                `${d.this_device ? '*' : ' '} ${d.name.padEnd(20)} ${d.id}  seen ${ago(d.last_seen)}, pushed ${ago(d.last_push)}, ${d.ops} operations${d.clock_skew_ms !== null && Math.abs(d.clock_skew_ms) > 60_000 ? c.yellow(`, clock ${d.clock_skew_ms > 0 ? 'ahead' : 'behind'} by ${duration(Math.abs(d.clock_skew_ms))}`) : ''}${d.version ? `, Loci ${d.version}` : ''}`,
            )
            .join('\n')}\n`,
      );
    });
  sync
    .command('leave')
    .description(
      'stop syncing the store here (its memories stay on this device; the others keep theirs)',
    )
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'sync.leave', withStore(cmd, {}));
      print(cmd, r, (v) =>
        v.left
          ? `${c.green('Left')}: store "${v.store}" no longer syncs here.\n`
          : `Store "${v.store}" did not sync.\n`,
      );
    });
}
