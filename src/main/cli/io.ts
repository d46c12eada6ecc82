// What a CLI run reads and writes, injected so that tests run the real commands
// in-process and compare their exact output.
import type { Readable } from 'node:stream';
import { Presets, SingleBar } from 'cli-progress';
import { read } from 'read';
import pc from 'picocolors';

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** True when stdout is a terminal: colours, prompts and progress bars are on. */
  interactive: boolean;
}

export function nodeIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    interactive: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  };
}

export type Colors = ReturnType<typeof pc.createColors>;

export function colorsFor(io: CliIo): Colors {
  return pc.createColors(io.interactive);
}

/** Reads all of stdin (up to `limit` bytes; more is an error rather than a cut). */
export async function readStdin(io: CliIo, limit = 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) throw new Error(`standard input is larger than ${limit} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Asks a yes/no question on the terminal; false when there is no terminal. */
export async function confirm(io: CliIo, question: string): Promise<boolean> {
  if (!io.interactive || !io.stdin.isTTY) return false;
  io.stdout.write(`${question} [y/N] `);
  for await (const chunk of io.stdin) {
    const answer = String(chunk).trim().toLowerCase();
    return answer === 'y' || answer === 'yes';
  }
  return false;
}

/**
 * Asks for a secret on the terminal without echoing it (npm's `read`); null when there
 * is no terminal to ask on.
 */
export async function askSecret(io: CliIo, prompt: string): Promise<string | null> {
  if (!io.interactive || !io.stdin.isTTY) return null;
  try {
    const answer = await read({
      prompt,
      silent: true,
      replace: '',
      input: io.stdin,
      output: process.stderr,
    });
    return String(answer);
  } catch {
    // Ctrl+C or the terminal went away: nothing was typed.
    return null;
  }
}

/** A progress bar on a terminal; silent when output is piped or captured. */
export function progressBar(
  io: CliIo,
  format: string,
): { update(value: number, total: number, payload?: Record<string, string>): void; stop(): void } {
  if (!io.interactive) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar(
    { format, hideCursor: true, stream: process.stderr },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(value, total, payload = {}) {
      if (!started) {
        bar.start(total, value, payload);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(value, payload);
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
