// Talking to a stdio MCP server two ways: through the SDK's client (the workload), and
// straight over the pipe for the cold start (a client's own work on an answer, such as
// compiling output schemas, is not the server's).
import { spawn } from 'node:child_process';
import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { opts, type Launch, type Session } from './common';

const TAIL = 4000;

function keepTail(stream: Stream | null | undefined): () => string {
  let tail = '';
  stream?.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-TAIL);
  });
  return () => tail;
}

/** The last line of a stderr tail that says something (for one-line failure reasons). */
export function lastWords(tail: string): string {
  const lines = tail
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^[│╭╰─\s]*$/.test(l));
  return (lines.at(-1) ?? '').slice(0, 300);
}

function withTimeout<T>(p: Promise<T>, s: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${s} s`)), s * 1000);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function stdioSession(launch: Launch): Promise<Session> {
  const transport = new StdioClientTransport({ ...launch, stderr: 'pipe' });
  const stderrTail = keepTail(transport.stderr);
  const client = new Client({ name: 'bench-peers', version: '1.0.0' });
  try {
    await withTimeout(client.connect(transport), opts.startBudgetS, 'initialize');
  } catch (e) {
    await client.close().catch(() => undefined);
    const why = lastWords(stderrTail());
    throw new Error(`${(e as Error).message}${why ? ` (stderr: ${why})` : ''}`);
  }
  return { client, pid: transport.pid, stderrTail, stop: () => client.close() };
}

/**
 * Spawn to the answer of the first tools/list, read off the pipe: initialize, its answer,
 * then initialized and tools/list. Lines that are not JSON-RPC (a banner) are skipped.
 */
export function firstToolsList(launch: Launch): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(launch.command, launch.args, {
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stderrTail = keepTail(p.stderr);
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`no tools/list answer in ${opts.startBudgetS} s`));
    }, opts.startBudgetS * 1000);
    let buf = '';
    let answered = false;
    p.once('error', reject);
    p.once('exit', (code) => {
      clearTimeout(timer);
      if (!answered) {
        const why = lastWords(stderrTail());
        reject(new Error(`exited (${code}) before tools/list${why ? `: ${why}` : ''}`));
      }
    });
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let m: { id?: number };
        try {
          m = JSON.parse(line) as { id?: number };
        } catch {
          continue;
        }
        if (m.id === 1) {
          p.stdin.write(
            `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`,
          );
        } else if (m.id === 2) {
          const t = performance.now() - t0;
          answered = true;
          clearTimeout(timer);
          // Closing stdin ends a well-behaved server; a slow one is not waited on long.
          const kill = setTimeout(() => p.kill('SIGKILL'), 10_000);
          p.once('exit', () => {
            clearTimeout(kill);
            resolve(t);
          });
          p.stdin.end();
        }
      }
    });
    p.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-cold', version: '1' } } })}\n`,
    );
  });
}
