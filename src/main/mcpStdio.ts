// The composition root of `loci mcp` (bin/loci.js starts it without the rest of the CLI):
// MCP over stdio, forwarded to a running daemon or served here (mcp/stdio.ts). A command
// line it does not read exactly goes to the full CLI, which explains it.
import { EXIT_CODES } from './cli/exitCodes';
import { parseMcpArgs } from './cli/mcpArgs';
import { runStdio } from './mcp/stdio';

const args = parseMcpArgs(process.argv.slice(2), process.env);
if (!args) {
  await import('./cli');
} else {
  const code = await runStdio({
    dataDir: args.dataDir,
    env: process.env,
    initTimeoutMs: args.initTimeoutMs,
    ...(args.store ? { store: args.store } : {}),
  });
  if (code !== 0) {
    process.stderr.write('loci: no MCP client connected\n');
    process.exitCode = EXIT_CODES.unavailable;
  }
}
