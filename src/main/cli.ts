// The plain-Node composition root: `loci <command>`. No Electron here; the desktop
// app composes the same engine and handlers in src/main/index.ts.
import { runCli } from './cli/program';
import { nodeIo } from './cli/io';

process.exitCode = await runCli(process.argv.slice(2), nodeIo());
