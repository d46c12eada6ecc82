// `loci encrypt|rekey|decrypt [store]`, `loci unlock [store]`, `loci encryption`: a
// store's encryption at rest (engine/store/encryption.ts does the work, in the daemon
// when one runs). A passphrase is never an argument (it would stay in the shell's
// history): it comes from LOCI_PASSPHRASE (LOCI_NEW_PASSPHRASE for a rekey's new one)
// or is typed, twice for a new one, on the terminal.
import { type Command } from 'commander';
import type { EncryptionChangeResult, EncryptionStatus, KeySourceName } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { KEY_SOURCE_NAMES } from '../../../shared/schemas';
import type { CommandContext } from '../context';
import { askSecret, progressBar } from '../io';

const SOURCE_HELP = `where the key is kept: ${KEY_SOURCE_NAMES.join(', ')} (default: the OS keychain in the app, else the OS keyring, else a key file only you can read)`;

function parseSource(value: string): KeySourceName {
  if (!(KEY_SOURCE_NAMES as readonly string[]).includes(value)) {
    throw new LociError(
      'invalid-args',
      `--key must be one of ${KEY_SOURCE_NAMES.join(', ')}, not "${value}".`,
    );
  }
  return value as KeySourceName;
}

const WHERE: Record<KeySourceName, string> = {
  keychain: 'in the OS keychain (the desktop app)',
  keyring: 'in the OS keyring',
  keyfile: 'in a key file only you can read (keys/)',
  passphrase: 'derived from your passphrase',
};

function describe(s: EncryptionStatus): string {
  if (!s.encrypted) return `${s.store}: not encrypted${s.pending ? ' (a change to finish)' : ''}`;
  const state = s.unlocked ? 'unlocked' : 'locked (key not reachable now)';
  const where = s.source ? `key ${WHERE[s.source]}` : 'key';
  return `${s.store}: encrypted (${s.cipher}), ${where}, ${state}${s.since ? `, since ${s.since}` : ''}`;
}

export function registerEncryptionCommands(program: Command, ctx: CommandContext): void {
  const { c, call, print, follow, io, globals } = ctx;
  const storeOf = (cmd: Command, store: string | undefined) => store ?? globals(cmd).store;

  /** A new passphrase: from the environment, or typed twice. */
  async function newPassphrase(variable: string): Promise<string> {
    const given = io.env[variable];
    if (given) return given;
    const first = await askSecret(io, 'New passphrase (at least 8 characters): ');
    if (first === null) {
      throw new LociError(
        'invalid-args',
        `A passphrase key needs the passphrase: set ${variable}, or run this on a terminal to type it.`,
      );
    }
    const again = await askSecret(io, 'The same passphrase again: ');
    if (again !== first) throw new LociError('invalid-args', 'The two passphrases differ.');
    return first;
  }

  async function change(
    cmd: Command,
    op: 'encrypt' | 'rekey' | 'decrypt',
    store: string | undefined,
    source: KeySourceName | undefined,
  ): Promise<void> {
    const name = storeOf(cmd, store);
    let passphrase: string | undefined;
    if (source === 'passphrase') {
      passphrase = await newPassphrase(op === 'rekey' ? 'LOCI_NEW_PASSPHRASE' : 'LOCI_PASSPHRASE');
    }
    const bar = progressBar(io, `${op} [{bar}] {value}/{total} {phase}`);
    const labels = { backup: 'backup', database: 'rows', backups: 'backups', done: 'done' };
    await ctx.connect(cmd);
    const off = follow('store.crypt.progressed', (p) => {
      if (name && p.store !== name) return;
      bar.update(p.done, Math.max(1, p.total), { phase: labels[p.phase] });
    });
    let r: EncryptionChangeResult;
    try {
      const store = name ? { store: name } : {};
      r =
        op === 'decrypt'
          ? await call(cmd, 'store.decrypt', store)
          : await call(cmd, `store.${op}`, {
              ...store,
              ...(source ? { source } : {}),
              ...(passphrase ? { passphrase } : {}),
            });
    } finally {
      off();
      bar.stop();
    }
    print(cmd, r, (v) => {
      const verb = { encrypt: 'Encrypted', rekey: 'Re-keyed', decrypt: 'Decrypted' }[op];
      const lines = [
        `${c.green(verb)} store "${v.store}" in ${(v.took_ms / 1000).toFixed(1)} s: ${v.rows} rows copied, ${v.copies.changed} backup${v.copies.changed === 1 ? '' : 's'} ${op === 'decrypt' ? 'decrypted' : 're-encrypted'}.`,
        v.encrypted && v.source
          ? `Its key is ${WHERE[v.source]}.${v.source === 'keyfile' ? ' Keep a copy of that folder somewhere safe: without the key the store cannot be read.' : ''}${v.source === 'passphrase' ? ' Without the passphrase the store cannot be read: nobody can recover it.' : ''}`
          : 'Its database and backups are plain files again; its keys are gone.',
        `The backup taken first: ${v.backup}`,
        ...v.copies.skipped.map((s) => c.yellow(`Not re-encrypted: ${s.path} (${s.reason})`)),
      ];
      return `${lines.join('\n')}\n`;
    });
  }

  for (const [op, description] of [
    ['encrypt', 'encrypt a store at rest, in place (a backup first; its backups too)'],
    [
      'rekey',
      'give an encrypted store a new key (or keep its key elsewhere); the old key stops working',
    ],
  ] as const) {
    program
      .command(op)
      .description(description)
      .argument('[store]', 'the store (default: --store or "default")')
      .option('--key <source>', SOURCE_HELP, parseSource)
      .action((store: string | undefined, o: { key?: KeySourceName }, cmd: Command) =>
        change(cmd, op, store, o.key),
      );
  }
  program
    .command('decrypt')
    .description('make an encrypted store, and its backups, plain files again')
    .argument('[store]', 'the store (default: --store or "default")')
    .action((store: string | undefined, _o, cmd: Command) =>
      change(cmd, 'decrypt', store, undefined),
    );
  program
    .command('unlock')
    .description("give the running daemon a passphrase-encrypted store's passphrase")
    .argument('[store]', 'the store (default: --store or "default")')
    .action(async (store: string | undefined, _o, cmd: Command) => {
      const name = storeOf(cmd, store) ?? 'default';
      const passphrase =
        io.env.LOCI_PASSPHRASE ?? (await askSecret(io, `Passphrase for store "${name}": `));
      if (!passphrase) {
        throw new LociError(
          'invalid-args',
          'No passphrase: set LOCI_PASSPHRASE, or run this on a terminal to type it.',
        );
      }
      const r = await call(cmd, 'store.unlock', { store: name, passphrase });
      print(cmd, r, (s) => `${c.green('Unlocked')} ${describe(s)}\n`);
    });
  program
    .command('encryption')
    .description(
      "each store's encryption at rest: encrypted or not, where its key is, reachable now",
    )
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'store.encryption', {});
      print(cmd, r, (v) => `${v.stores.map(describe).join('\n')}\n`);
    });
}
