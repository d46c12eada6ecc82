#!/usr/bin/env node
// The `loci` command: runs the built CLI bundle (out/main/cli.js). `npm install` builds
// it (the package's prepare step); after changing the sources, run `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// An editor's hook must answer fast: `loci hook` loads only its own small entry.
const entry = process.argv[2] === 'hook' ? 'hook.js' : 'cli.js';
const built = new URL(`../out/main/${entry}`, import.meta.url);
if (!existsSync(fileURLToPath(built))) {
  process.stderr.write(
    `loci: the CLI is not built yet. Run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`,
  );
  process.exit(1);
}
await import(built.href);
