// Runs the real CLI in-process with captured output, or as a real child process.
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { runCli } from '../../src/main/cli/program';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(home: string, args: string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Readable.from([stdin]),
    env: { LOCI_HOME: home },
    interactive: false,
  });
  return { code, stdout, stderr };
}

const ROOT = new URL('../..', import.meta.url).pathname;

/** `loci <args>` as a separate Node process, from the TypeScript sources. */
export function spawnCli(home: string, args: string[], stdin = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOCI_HOME: home, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
