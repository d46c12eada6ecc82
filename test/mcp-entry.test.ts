// `loci mcp` as it is installed (bin/loci.js → out/main/mcp.js, the built bundle): it
// answers its first requests before it loads the engine. Forwarding to a daemon, the
// process never loads SQLite at all; on its own, it lists its tools even when the store
// cannot open, and each call then says why. Needs the build (`npm run build`).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../src/main/daemon';
import { DataDirLock } from '../src/main/engine/store/lock';
import { tempDir } from './helpers/engine';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/loci.js');
const built = existsSync(join(ROOT, 'out/main/mcp.js'));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function spawnMcp(home: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { ...(process.env as Record<string, string>), LOCI_HOME: home, LOCI_MODEL_PATH: '' },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return {
    client: new Client({ name: 'entry-test', version: '1.0.0' }),
    transport,
    stderr: () => err,
  };
}

/** The shared objects mapped into a live process (Linux). */
const mapped = (pid: number) => readFileSync(`/proc/${pid}/maps`, 'utf8');

describe.skipIf(!built)('loci mcp, built', () => {
  it.skipIf(process.platform !== 'linux')(
    'forwards to a running daemon without loading SQLite or the engine',
    async () => {
      const home = tempDir('loci-entry-');
      dirs.push(home);
      const daemon = await startDaemon({ dataDir: home, port: 0, env: {} });
      try {
        const { client, transport, stderr } = spawnMcp(home);
        await client.connect(transport);
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('remember');
        const r = await client.callTool({
          name: 'remember',
          arguments: { content: 'Written through the forwarder.' },
        });
        expect(r.isError).toBeFalsy();
        const maps = mapped(transport.pid as number);
        expect(maps).not.toMatch(/better_sqlite3|sqlite-vec|vec0|onnxruntime/);
        await client.close();
        expect(stderr()).toMatch(/forwarding to the Loci daemon/);
      } finally {
        await daemon.close();
      }
    },
  );

  it('lists its tools before the store opens, and says why a call cannot be served', async () => {
    const home = tempDir('loci-entry-');
    dirs.push(home);
    // Another process holds the data directory without serving it (a CLI command running).
    const lock = DataDirLock.acquire(home, 'cli');
    try {
      const { client, transport, stderr } = spawnMcp(home);
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(20);
      const r = await client.callTool({ name: 'recall', arguments: { query: 'anything' } });
      expect(r.isError).toBe(true);
      const text = (r.content as { text: string }[])[0]!.text;
      expect(text).toMatch(/store-locked/);
      expect(text).toMatch(new RegExp(`pid ${process.pid}`));
      await client.close();
      expect(stderr()).toMatch(/the store did not open/);
    } finally {
      lock.release();
    }
  });

  it('opens the store once tools are listed, and serves calls from it', async () => {
    const home = tempDir('loci-entry-');
    dirs.push(home);
    const { client, transport } = spawnMcp(home);
    await client.connect(transport);
    await client.listTools();
    const r = await client.callTool({
      name: 'remember',
      arguments: { content: 'The first call waits for the engine.' },
    });
    expect(r.isError).toBeFalsy();
    const got = await client.callTool({
      name: 'recall',
      arguments: { query: 'first call engine' },
    });
    expect(JSON.stringify(got.structuredContent)).toMatch(/waits for the engine/);
    await client.close();
    // The lock is released when the session ends.
    await expect.poll(() => existsSync(join(home, 'loci.lock')), { timeout: 10_000 }).toBe(false);
  });
});
