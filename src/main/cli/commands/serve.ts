// Running Loci: `loci serve` (the daemon), `loci mcp` (stdio) and the daemon's token.
import { type Command } from 'commander';
import { LociError } from '../../../shared/errors';
import { rendererDir, startDaemon } from '../../daemon';
import { DEFAULT_PORT } from '../../http/server';
import { loadOrCreateToken } from '../../api/host';
import { runStdio } from '../../mcp/stdio';
import { intArg } from '../args';
import type { CommandContext } from '../context';

export function registerServeCommands(program: Command, ctx: CommandContext): void {
  const { io, c, call, print, dataDirOf, globals } = ctx;
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
    .action(async (_o, cmd: Command) => {
      const t = await call(cmd, 'token.rotate', {});
      print(
        cmd,
        { token: t.token, path: t.path },
        (r) =>
          `${c.green('New token')} ${r.token}\n${c.dim('Editors configured with the old one need `loci setup` again.')}\n`,
      );
    });
}
