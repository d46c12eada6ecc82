// npm run bench:mcp — many agents at once through the daemon. `loci serve` runs as its
// own process (as it does for users); CLIENTS MCP clients connect over Streamable HTTP
// and each makes CALLS mixed calls one after another (remember, recall, read), all
// clients at the same time. Afterwards every write must be there: no errors, no lost
// writes. Prints p50/p95 per tool and writes bench-results/mcp.json.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Presets, SingleBar } from 'cli-progress';
import { findOwner } from '../../src/main/http/client';
import { isolatedFetch } from '../../src/main/http/isolatedFetch';
import { generator } from './corpus';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const PRELOAD = Number(process.env.BENCH_PRELOAD ?? 2000);
/** The whole run is bounded: past this, it stops and reports failure. */
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_MS ?? 10 * 60_000);

const home = mkdtempSync(join(tmpdir(), 'loci-bench-mcp-'));
const root = new URL('../..', import.meta.url).pathname;
const daemon = spawn(
  process.execPath,
  [
    // BENCH_PROFILE=<dir> writes a CPU profile of the daemon there.
    ...(process.env.BENCH_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
      : []),
    '--import',
    'tsx',
    'src/main/cli.ts',
    'serve',
    '--port',
    '0',
  ],
  {
    cwd: root,
    env: { ...process.env, LOCI_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const stopDaemon = async () => {
  if (daemon.exitCode !== null) return;
  daemon.kill('SIGTERM');
  await new Promise((r) => daemon.once('exit', r));
};
const deadline = setTimeout(() => {
  process.stderr.write(`bench:mcp: still running after ${DEADLINE_MS / 1000} s; stopping.\n`);
  void stopDaemon().then(() => process.exit(1));
}, DEADLINE_MS);
deadline.unref();

const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  daemon.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /MCP endpoint:\s+(\S+)/.exec(out);
    if (m) resolve(m[1] as string);
  });
  daemon.once('exit', (code) => reject(new Error(`the daemon exited (${code}) before serving`)));
});
const owner = findOwner(home);
if (!owner) throw new Error('the daemon is serving but left no lock file');
const headers = { authorization: `Bearer ${owner.token}` };

async function connect(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      // One signal per request: the SDK shares one per session (see isolatedFetch.ts).
      fetch: isolatedFetch(),
    }),
  );
  return client;
}

// A store with some history, so recall has something to search.
const next = generator(11);
const preload = await connect('bench-preload');
const queries: string[] = [];
for (let i = 0; i < PRELOAD; i++) {
  const g = next();
  if (queries.length < 2000) queries.push(g.query);
  await preload.callTool({
    name: 'remember',
    arguments: { content: `${g.content} (preload ${i})`, tags: g.tags },
  });
}
await preload.close();
const statsBefore = await fetch(`${owner.url}/api/stats.get`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json' },
  body: '{}',
}).then((r) => r.json() as Promise<{ result: { memories: { live: number } } }>);

type Tool = 'remember' | 'recall' | 'read';
const latencies: Record<Tool, number[]> = { remember: [], recall: [], read: [] };
const errors: string[] = [];
const written: string[] = [];
const bar = new SingleBar(
  { format: `${CLIENTS} clients × ${CALLS} calls [{bar}] {value}/{total}`, hideCursor: true },
  Presets.shades_classic,
);
bar.start(CLIENTS * CALLS, 0);

async function agent(c: number): Promise<void> {
  const client = await connect(`bench-agent-${c}`);
  const mine: string[] = [];
  for (let i = 0; i < CALLS; i++) {
    // 40% remember, 45% recall, 15% read of something this agent wrote.
    const roll = (i * 7 + c * 13) % 20;
    const tool: Tool = roll < 8 ? 'remember' : roll < 17 || mine.length === 0 ? 'recall' : 'read';
    const g = next();
    const args =
      tool === 'remember'
        ? { content: `Agent ${c} call ${i}: ${g.content}`, tags: g.tags }
        : tool === 'recall'
          ? { query: queries[(i * 31 + c) % queries.length] as string, limit: 10 }
          : { id: mine[(i * 17) % mine.length] as string };
    const start = performance.now();
    try {
      const result = await client.callTool({ name: tool, arguments: args });
      latencies[tool].push(performance.now() - start);
      if (result.isError) {
        errors.push(`${tool}: ${JSON.stringify(result.content).slice(0, 200)}`);
      } else if (tool === 'remember') {
        const id = (result.structuredContent as { id: string }).id;
        mine.push(id);
        written.push(id);
      }
    } catch (err) {
      errors.push(`${tool}: ${(err as Error).message}`);
    }
    bar.increment();
  }
  await client.close();
}

const started = performance.now();
await Promise.all(Array.from({ length: CLIENTS }, (_, c) => agent(c)));
const elapsed = performance.now() - started;
bar.stop();

// No lost writes: the count grew by exactly the writes acknowledged, and each is readable.
const check = await connect('bench-check');
const stats = (await check.callTool({ name: 'stats', arguments: {} })).structuredContent as {
  memories: { live: number };
};
let missing = 0;
for (const id of written) {
  const r = await check.callTool({ name: 'read', arguments: { id } });
  if (r.isError) missing++;
}
await check.close();
await stopDaemon();
rmSync(home, { recursive: true, force: true });

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const round = (x: number) => Math.round(x * 10) / 10;
const all = [...latencies.remember, ...latencies.recall, ...latencies.read];
const result = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  embedder: process.env.LOCI_MODEL_PATH ? `model at ${process.env.LOCI_MODEL_PATH}` : 'default',
  clients: CLIENTS,
  calls_per_client: CALLS,
  preloaded: statsBefore.result.memories.live,
  seconds: round(elapsed / 1000),
  calls_per_s: Math.round(all.length / (elapsed / 1000)),
  errors: errors.length,
  writes: written.length,
  lost_writes: statsBefore.result.memories.live + written.length - stats.memories.live + missing,
  p50_ms: Object.fromEntries(
    Object.entries({ all, ...latencies }).map(([k, v]) => [k, round(pct(v, 50))]),
  ),
  p95_ms: Object.fromEntries(
    Object.entries({ all, ...latencies }).map(([k, v]) => [k, round(pct(v, 95))]),
  ),
};
mkdirSync(join(root, 'bench-results'), { recursive: true });
writeFileSync(join(root, 'bench-results/mcp.json'), `${JSON.stringify(result, null, 2)}\n`);

console.log(`\n${result.machine}`);
console.log(
  `${CLIENTS} clients × ${CALLS} calls over Streamable HTTP, ${result.preloaded} memories preloaded: ` +
    `${result.seconds} s, ${result.calls_per_s} calls/s, ${result.errors} errors, ${result.lost_writes} lost writes of ${result.writes}\n`,
);
console.log('| tool | calls | p50 ms | p95 ms |');
console.log('|---|---:|---:|---:|');
for (const [k, v] of Object.entries({ all, ...latencies })) {
  console.log(`| ${k} | ${v.length} | ${round(pct(v, 50))} | ${round(pct(v, 95))} |`);
}
if (errors.length > 0) console.error(`\nfirst errors:\n${errors.slice(0, 5).join('\n')}`);
process.exit(errors.length === 0 && result.lost_writes === 0 ? 0 : 1);
