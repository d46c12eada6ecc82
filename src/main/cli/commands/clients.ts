// `loci clients add|list|revoke|rotate`: a token of its own for each editor or agent,
// with what it may do. The token is printed once (it is kept only as a hash); put it in
// the client's configuration (`loci setup` does that for the editors it knows).
import { type Command } from 'commander';
import type { ClientPolicy, RegisteredClient } from '../../../shared/api';
import { policyWords } from '../../../shared/policy';
import type { CommandContext } from '../context';

const describePolicy = (p: ClientPolicy) => policyWords(p).join(' · ');

const line = (c: RegisteredClient) =>
  `${c.name.padEnd(16)} ${describePolicy(c.policy)}\n${' '.repeat(17)}token ${c.token_hint}…, made ${c.created_at}${c.rotated_at ? `, rotated ${c.rotated_at}` : ''}, last used ${c.last_used_at ?? 'never'}`;

export function registerClientCommands(program: Command, ctx: CommandContext): void {
  const { c, call, print } = ctx;
  const clients = program
    .command('clients')
    .description('a token of its own for each client, and what it may do');
  clients
    .command('add')
    .description('make a token for a client (printed once; Loci keeps only its hash)')
    .argument('<name>', 'the client, as the audit trail will name it (mcp:<name>)')
    .option('--read-only', 'reads only: no write of any kind')
    .option('--stores <names>', 'only these stores, comma-separated (default: all)')
    .option('--no-ingest', 'may not ingest files or transcripts')
    .option('--no-forget', 'may not forget or erase memories')
    .option('--shared-only', 'sees and writes shared memories only')
    .action(
      async (
        name: string,
        o: {
          readOnly?: boolean;
          stores?: string;
          ingest: boolean;
          forget: boolean;
          sharedOnly?: boolean;
        },
        cmd: Command,
      ) => {
        const stores = o.stores
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const r = await call(cmd, 'clients.add', {
          name,
          ...(o.readOnly ? { read_only: true } : {}),
          ...(stores && stores.length > 0 ? { stores } : {}),
          ...(o.ingest === false ? { no_ingest: true } : {}),
          ...(o.forget === false ? { no_forget: true } : {}),
          ...(o.sharedOnly ? { shared_only: true } : {}),
        });
        print(
          cmd,
          r,
          (v) =>
            `${c.green('Added')} client "${v.client.name}": ${describePolicy(v.client.policy)}.\nIts token (shown this once): ${v.token}\nGive it to the client as its bearer token (HTTP) or as LOCI_TOKEN (\`loci mcp\`).\n`,
        );
      },
    );
  clients
    .command('list', { isDefault: true })
    .description('the clients with a token of their own (never the tokens)')
    .action(async (_o, cmd: Command) => {
      const r = await call(cmd, 'clients.tokens', {});
      print(cmd, r, (v) =>
        v.clients.length === 0
          ? 'No client has a token of its own; every client uses the owner token. `loci clients add <name>` makes one.\n'
          : `${v.clients.map(line).join('\n')}\n`,
      );
    });
  clients
    .command('revoke')
    .description("remove a client's token: it stops working at once")
    .argument('<name>', 'the client')
    .action(async (name: string, _o, cmd: Command) => {
      const r = await call(cmd, 'clients.revoke', { name });
      print(cmd, r, (v) => `${c.green('Revoked')} the token of client "${v.name}".\n`);
    });
  clients
    .command('rotate')
    .description('a new token for a client; the old one stops working at once')
    .argument('<name>', 'the client')
    .action(async (name: string, _o, cmd: Command) => {
      const r = await call(cmd, 'clients.rotate', { name });
      print(
        cmd,
        r,
        (v) =>
          `${c.green('Rotated')} the token of client "${v.client.name}". Its new token (shown this once): ${v.token}\n`,
      );
    });
}
