// `loci mcp` as editors run it: a spawned process speaking MCP over stdio, through a real
// SDK client — on its own, and forwarding to a running daemon (two clients interleaving
// writes, none lost). stdout must carry JSON-RPC only.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { StatsResult } from '../src/shared/api';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../src/main/daemon';
import { tempDir } from './helpers/engine';

const ROOT = new URL('..', import.meta.url).pathname;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stdioClient(
  home: string,
  name: string,
): { client: Client; transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/main/cli.ts', 'mcp'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), LOCI_HOME: home, LOCI_MODEL_PATH: '' },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
    if (process.env.DEBUG_STDIO) console.log(name, d.toString());
  });
  return { client: new Client({ name, version: '1.0.0' }), transport, stderr: () => err };
}

describe('loci mcp (stdio)', () => {
  it('opens the store itself when no daemon runs, and logs only to stderr', async () => {
    const home = tempDir('loci-stdio-');
    dirs.push(home);
    const { client, transport, stderr } = stdioClient(home, 'Claude Desktop');
    await client.connect(transport);
    const r = await client.callTool({
      name: 'remember',
      arguments: { content: 'Written by a stdio client on its own.' },
    });
    expect(r.isError).toBeFalsy();
    const stats = await client.callTool({ name: 'stats', arguments: {} });
    expect((stats.content as { text: string }[])[0]!.text).toMatch(/^1 memories/);
    await client.close();
    expect(stderr()).not.toMatch(/forwarding/);
  });

  it(
    'forwards to the running daemon, and two clients interleaving writes lose nothing',
    { timeout: 60_000 },
    async () => {
      const home = tempDir('loci-stdio-');
      dirs.push(home);
      const daemon = await startDaemon({ dataDir: home, port: 0, env: {} });
      try {
        const a = stdioClient(home, 'Cursor');
        const b = stdioClient(home, 'Zed');
        await Promise.all([a.client.connect(a.transport), b.client.connect(b.transport)]);
        const writes = Array.from({ length: 25 }, (_, i) => [
          a.client.callTool({
            name: 'remember',
            arguments: { content: `Cursor note number ${i} about the build.` },
          }),
          b.client.callTool({
            name: 'remember',
            arguments: { content: `Zed note number ${i} about the tests.` },
          }),
        ]).flat();
        const results = await Promise.all(writes);
        expect(results.filter((r) => r.isError)).toEqual([]);
        expect(
          (
            (await daemon.handlers.dispatch(
              'stats.get',
              {},
              { actor: { kind: 'cli' } },
            )) as StatsResult
          ).memories.live,
        ).toBe(50);
        // The daemon saw each stdio client by name, through the forwarding transport.
        const actors = new Set(
          (
            (await daemon.handlers.dispatch(
              'activity.list',
              { limit: 100 },
              { actor: { kind: 'cli' } },
            )) as { items: { actor: string; transport: string }[] }
          ).items.map((i) => `${i.actor}/${i.transport}`),
        );
        expect(actors).toEqual(new Set(['mcp:cursor/stdio-proxy', 'mcp:zed/stdio-proxy']));
        expect(a.stderr()).toMatch(/forwarding to the Loci daemon/);
        await a.client.close();
        await b.client.close();
      } finally {
        await daemon.close();
      }
    },
  );

  it(
    "forwards the daemon's notifications: a subscription, a call's progress and its log",
    { timeout: 60_000 },
    async () => {
      const home = tempDir('loci-stdio-');
      dirs.push(home);
      const daemon = await startDaemon({ dataDir: home, port: 0, env: {} });
      try {
        const a = stdioClient(home, 'Cursor');
        await a.client.connect(a.transport);
        const updated: string[] = [];
        a.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
          updated.push(n.params.uri);
        });
        const logs: string[] = [];
        a.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          logs.push(`${n.params.level}: ${String(n.params.data)}`);
        });
        await a.client.subscribeResource({ uri: 'memory://changes' });
        // Another client — the person, in the daemon — writes.
        await daemon.handlers.dispatch(
          'memory.remember',
          { content: 'Written by the person while Cursor listens.' },
          { actor: { kind: 'cli' } },
        );
        const end = Date.now() + 5000;
        while (!updated.includes('memory://changes') && Date.now() < end)
          await new Promise((r) => setTimeout(r, 10));
        expect(updated).toContain('memory://changes');

        const progress: number[] = [];
        const doctor = await a.client.callTool({ name: 'doctor', arguments: {} }, undefined, {
          onprogress: (p) => {
            progress.push(p.progress);
          },
        });
        expect(doctor.isError).toBeFalsy();
        expect(progress.length).toBeGreaterThan(0);

        await a.client.setLoggingLevel('warning');
        await a.client.callTool({ name: 'recall', arguments: { query: 'who listens' } });
        expect(logs.some((l) => l.startsWith('warning: recall:'))).toBe(true);
        await a.client.close();
      } finally {
        await daemon.close();
      }
    },
  );

  it(
    'opens the session again when the daemon restarts, and says so when it is gone',
    { timeout: 60_000 },
    async () => {
      const home = tempDir('loci-stdio-');
      dirs.push(home);
      let daemon = await startDaemon({ dataDir: home, port: 0, env: {} });
      const port = new URL(daemon.url).port;
      const a = stdioClient(home, 'Cursor');
      try {
        await a.client.connect(a.transport);
        const first = await a.client.callTool({
          name: 'remember',
          arguments: { content: 'Written before the daemon restarted.' },
        });
        expect(first.isError).toBeFalsy();
        // Restarted on the same port (as `loci serve` does): the old session is unknown.
        await daemon.close();
        daemon = await startDaemon({ dataDir: home, port: Number(port), env: {} });
        const after = await a.client.callTool({
          name: 'recall',
          arguments: { query: 'before the daemon restarted' },
        });
        expect(after.isError).toBeFalsy();
        expect((after.content as { text: string }[])[0]!.text).toMatch(/restarted/);
        expect(a.stderr()).toMatch(/opening it again/);
        // Gone for good: a call is answered with an error that says so, not left hanging.
        await daemon.close();
        await expect(a.client.callTool({ name: 'stats', arguments: {} })).rejects.toThrow(
          /daemon did not answer/,
        );
      } finally {
        await a.client.close();
        await daemon.close();
      }
    },
  );

  it('exits when no initialize arrives in time, printing nothing on stdout', async () => {
    const home = tempDir('loci-stdio-');
    dirs.push(home);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main/cli.ts', 'mcp', '--init-timeout', '1'],
      {
        cwd: ROOT,
        env: { ...process.env, LOCI_HOME: home },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).not.toBe(0);
    expect(out).toBe('');
    expect(err).toMatch(/no initialize request within 1 s/);
  });

  it('exits cleanly when stdin closes', async () => {
    const home = tempDir('loci-stdio-');
    dirs.push(home);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'mcp'], {
      cwd: ROOT,
      env: { ...process.env, LOCI_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    await new Promise((r) => setTimeout(r, 1500));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    // Every line on stdout is a JSON-RPC message.
    for (const line of out.trim().split('\n'))
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });
});
