// The composition root of `loci hook <event>` (bin/loci.js starts it without the rest of
// the CLI, so that an editor's hook answers in tens of milliseconds): standard input in,
// the hook's answer out, exit code 0 whatever happens (cli/hook.ts).
import { runHook } from './cli/hook';

const MAX_INPUT = 1024 * 1024;

async function readInput(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_INPUT) return '';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const args = process.argv.slice(2);
const event = args[0] === 'hook' ? (args[1] ?? '') : (args[0] ?? '');
const { stdout } = await runHook(event, await readInput(), process.env);
if (stdout) process.stdout.write(`${stdout}\n`);
process.exitCode = 0;
