// Loci under test: `loci mcp` over stdio on its own data directory (no daemon), without a
// model and with the real one, and `loci serve --port 0` over Streamable HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { findOwner } from '../../../src/main/http/client';
import { isolatedFetch } from '../../../src/main/http/isolatedFetch';
import { baseEnv, check, opts, root, type Launch, type SystemUnderTest } from './common';
import { requireMiniLm } from './localModel';
import { requireMeaning } from './probe';
import { stdioSession } from './stdio';

export const lociBin = join(root, 'bin/loci.js');

export async function startDaemon(home: string): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, [lociBin, 'serve', '--port', '0'], {
    env: { ...baseEnv, LOCI_HOME: home },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /MCP endpoint:\s+(\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    proc.once('exit', (code) => reject(new Error(`loci serve exited (${code}) before serving`)));
  });
  return { proc, url };
}

async function httpClient(home: string, url: string): Promise<Client> {
  const owner = findOwner(home);
  if (!owner) throw new Error('the daemon is serving but left no lock file');
  const client = new Client({ name: 'bench-peers', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${owner.token}` } },
      fetch: isolatedFetch(),
    }),
  );
  return client;
}

const write: SystemUnderTest['write'] = async (client, _i, content) => {
  const r = check(await client.callTool({ name: 'remember', arguments: { content } }), 'remember');
  return (r.structuredContent as { id: string }).id;
};
const search: SystemUnderTest['search'] = async (client, query) => {
  const r = check(
    await client.callTool({ name: 'recall', arguments: { query, limit: 10 } }),
    'recall',
  );
  return ((r.structuredContent as { results?: { id: string }[] }).results ?? []).map((h) => h.id);
};

const prepare = async () => {
  if (!existsSync(lociBin)) throw new Error(`${lociBin} is missing: run npm run build`);
};

function stdio(
  name: string,
  about: string,
  model: boolean,
  env: () => Record<string, string>,
): SystemUnderTest {
  const launch = (dir: string): Launch => ({
    command: process.execPath,
    args: [lociBin, 'mcp'],
    env: { ...baseEnv, ...env(), LOCI_HOME: dir },
  });
  return {
    name,
    about,
    model,
    prepare,
    launch,
    start: (dir) => stdioSession(launch(dir)),
    write,
    search,
  };
}

/** The model row: the model must be there and in use (./probe.ts). */
function withMeaning(s: SystemUnderTest): SystemUnderTest {
  s.prepare = async () => {
    await prepare();
    requireMiniLm();
    await requireMeaning(s);
  };
  return s;
}

export const lociSystems: SystemUnderTest[] = [
  stdio(
    'Loci (stdio)',
    '`loci mcp` from this tree, no model (lexical + hashing vectors); `remember` / `recall` (limit 10)',
    false,
    () => ({}),
  ),
  withMeaning(
    stdio(
      'Loci (stdio, model)',
      '`loci mcp` with `LOCI_MODEL_PATH` set to the folder of models (all-MiniLM-L6-v2 int8)',
      true,
      () => ({ LOCI_MODEL_PATH: opts.models }),
    ),
  ),
  {
    name: 'Loci (HTTP daemon)',
    about: '`loci serve --port 0`, no model, over Streamable HTTP with its bearer token',
    model: false,
    prepare,
    /** Spawn to the endpoint's first tools/list answer (its address is read off stdout). */
    async coldToolsList(dir) {
      const t0 = performance.now();
      const { proc, url } = await startDaemon(dir);
      try {
        const client = await httpClient(dir, url);
        await client.listTools();
        const ms = performance.now() - t0;
        await client.close();
        return ms;
      } finally {
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
      }
    },
    async start(dir) {
      const { proc, url } = await startDaemon(dir);
      const client = await httpClient(dir, url);
      return {
        client,
        pid: proc.pid ?? null,
        stderrTail: () => '',
        async stop() {
          await client.close();
          proc.kill('SIGTERM');
          await new Promise((r) => proc.once('exit', r));
        },
      };
    },
    write,
    search,
  },
];
