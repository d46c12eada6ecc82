#!/usr/bin/env node
// The `loci` command: runs the built CLI bundle (out/main/cli.js). `npm install` builds
// it (the package's prepare step); after changing the sources, run `npm run build`.
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// An editor's hook and its MCP server must answer fast: `loci hook` and `loci mcp` load
// their own entries, without the rest of the CLI.
const entry =
  new Map([
    ['hook', 'hook.js'],
    ['mcp', 'mcp.js'],
  ]).get(process.argv[2] ?? '') ?? 'cli.js';
// Node 22.1 and newer keep the compiled bundle on disk between starts (Node 20 has no
// compile cache; the call is then skipped).
module.enableCompileCache?.();
const built = new URL(`../out/main/${entry}`, import.meta.url);
if (!existsSync(fileURLToPath(built))) {
  process.stderr.write(
    `loci: the CLI is not built yet. Run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`,
  );
  process.exit(1);
}
await import(built.href);
