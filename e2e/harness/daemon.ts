// Starts the built daemon (`bin/loci.js serve --port 0`) on a data directory as a child
// process, as a user would, and reads the observatory URL it prints. Stops it with
// SIGTERM (SIGKILL if it hangs). It does not build anything or seed data.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface RunningDaemon {
  baseUrl: string;
  observatoryUrl: string;
  token: string;
  child: ChildProcess;
  /** Everything the daemon wrote, for a failure report. */
  output(): string;
  stop(): Promise<void>;
}

export async function startDaemon(
  root: string,
  dataDir: string,
  timeoutMs = 30_000,
): Promise<RunningDaemon> {
  const child = spawn(
    process.execPath,
    [join(root, 'bin/loci.js'), '--home', dataDir, 'serve', '--port', '0'],
    {
      cwd: root,
      env: {
        ...process.env,
        LOCI_HOME: dataDir,
        // The hashing fallback, whatever models the developer has: the counts stay stable.
        // (`LOCI_E2E_MODEL_PATH`: a folder of models, for `npm run bench:atlas-meaning`.)
        LOCI_MODEL_PATH: process.env.LOCI_E2E_MODEL_PATH ?? '',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (out += s));

  const observatoryUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`loci serve printed no observatory URL within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /Observatory:\s+(http:\/\/\S+#token=\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`loci serve exited with ${code} before it was ready:\n${out}`));
    });
  });
  const url = new URL(observatoryUrl);
  const token = /token=([^&]+)/.exec(url.hash)?.[1] ?? '';

  return {
    baseUrl: url.origin,
    observatoryUrl,
    token,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
