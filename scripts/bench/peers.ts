// npm run bench:peers — the same workload through MCP against Loci (stdio: `loci mcp` on
// its own data directory, no daemon; HTTP: `loci serve --port 0`) and against other
// memory MCP servers that install from npm and run offline: the reference
// @modelcontextprotocol/server-memory (a knowledge graph in a JSONL file: each memory is
// an entity with one observation) and mcp-memory-keeper (SQLite; each memory a context
// item). Per system and size: load time (one memory per call, as an agent writes),
// search p50/p95, resident memory of the server process (VmRSS), and the hit rate (the
// memory a query was made from is in the top 10). Also the cold start to the first
// answered call. Every phase has a time budget; a capped phase says how far it got.
//
//   npm run bench:peers [-- --sizes 1000,10000 --queries 200 --load-budget 240]
//   npm run bench:idle   resident memory of `loci serve` and `loci mcp` after 60 s idle
//   npm run bench:cold   spawn to the first tools/list answer: Loci (standalone and
//                        forwarding to a daemon) against server-memory and memory-keeper
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { findOwner } from '../../src/main/http/client';
import { isolatedFetch } from '../../src/main/http/isolatedFetch';
import { mulberry32 } from '../../src/shared/random';
import { generator } from './corpus';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (arg('--sizes') ?? '1000,10000').split(',').map(Number);
const QUERIES = Number(arg('--queries') ?? 200);
/** Seconds one system may spend loading one size; past it the load stops and says so. */
const LOAD_BUDGET_S = Number(arg('--load-budget') ?? 240);
const SEARCH_BUDGET_S = Number(arg('--search-budget') ?? 60);
const IDLE_S = Number(arg('--idle-seconds') ?? 60);
const IDLE_ONLY = process.argv.includes('--idle');
const COLD_ONLY = process.argv.includes('--cold');
const COLD_RUNS = Number(arg('--runs') ?? 11);

const root = new URL('../..', import.meta.url).pathname;
const lociBin = join(root, 'bin/loci.js');
const serverMemory = join(root, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const memoryKeeper = join(root, 'node_modules/mcp-memory-keeper/dist/index.js');
const temps: string[] = [];
const tempDir = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), `loci-peers-${p}-`));
  temps.push(d);
  return d;
};
// No model: the comparison is of engines, not of an embedding model (Loci says so in
// every answer: semantic off, vectors from the hashing fallback).
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => k !== 'LOCI_MODEL_PATH'),
) as Record<string, string>;

function rssMiB(pid: number | null | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round((Number(m[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

interface Session {
  client: Client;
  pid: number | null;
  stop(): Promise<void>;
}

interface SystemUnderTest {
  name: string;
  start(dir: string): Promise<Session>;
  /** Writes one memory; returns the system's own key for it. */
  write(client: Client, i: number, content: string): Promise<string>;
  /** The keys of the top 10 for a query. */
  search(client: Client, query: string): Promise<string[]>;
}

const text = (r: Awaited<ReturnType<Client['callTool']>>) =>
  ((r.content as { type: string; text?: string }[])[0]?.text ?? '') as string;

function check(r: Awaited<ReturnType<Client['callTool']>>, what: string) {
  if (r.isError) throw new Error(`${what}: ${text(r).slice(0, 300)}`);
  return r;
}

async function stdioSession(command: string, args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({ command, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench-peers', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid, stop: () => client.close() };
}

async function startDaemon(home: string): Promise<{ proc: ChildProcess; url: string }> {
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

const lociWrite = async (client: Client, _i: number, content: string) => {
  const r = check(await client.callTool({ name: 'remember', arguments: { content } }), 'remember');
  return (r.structuredContent as { id: string }).id;
};
const lociSearch = async (client: Client, query: string) => {
  const r = check(
    await client.callTool({ name: 'recall', arguments: { query, limit: 10 } }),
    'recall',
  );
  return ((r.structuredContent as { results?: { id: string }[] }).results ?? []).map((h) => h.id);
};

const SYSTEMS: SystemUnderTest[] = [
  {
    name: 'Loci (stdio)',
    start: (dir) =>
      stdioSession(process.execPath, [lociBin, 'mcp'], { ...baseEnv, LOCI_HOME: dir }),
    write: lociWrite,
    search: lociSearch,
  },
  {
    name: 'Loci (HTTP daemon)',
    async start(dir) {
      const { proc, url } = await startDaemon(dir);
      const client = await httpClient(dir, url);
      return {
        client,
        pid: proc.pid ?? null,
        async stop() {
          await client.close();
          proc.kill('SIGTERM');
          await new Promise((r) => proc.once('exit', r));
        },
      };
    },
    write: lociWrite,
    search: lociSearch,
  },
  {
    name: 'server-memory',
    start: (dir) =>
      stdioSession(process.execPath, [serverMemory], {
        ...baseEnv,
        MEMORY_FILE_PATH: join(dir, 'memory.jsonl'),
      }),
    async write(client, i, content) {
      const name = `memory-${i}`;
      check(
        await client.callTool({
          name: 'create_entities',
          arguments: { entities: [{ name, entityType: 'memory', observations: [content] }] },
        }),
        'create_entities',
      );
      return name;
    },
    async search(client, query) {
      const r = check(
        await client.callTool({ name: 'search_nodes', arguments: { query } }),
        'search_nodes',
      );
      const graph = (r.structuredContent ?? JSON.parse(text(r))) as {
        entities: { name: string }[];
      };
      // It returns every match, unranked (file order); an agent reads the first ones.
      return graph.entities.slice(0, 10).map((e) => e.name);
    },
  },
  {
    name: 'mcp-memory-keeper',
    start: (dir) =>
      stdioSession(process.execPath, [memoryKeeper], { ...baseEnv, DATA_DIR: dir, HOME: dir }),
    async write(client, i, content) {
      const key = `memory-${i}`;
      check(
        await client.callTool({ name: 'context_save', arguments: { key, value: content } }),
        'context_save',
      );
      return key;
    },
    async search(client, query) {
      const r = check(
        await client.callTool({ name: 'context_search', arguments: { query, limit: 10 } }),
        'context_search',
      );
      // Plain text, one `• [priority] key (category)` line per item, newest first.
      return [...text(r).matchAll(/^• \[\w+\] (\S+) \(/gm)].slice(0, 10).map((m) => m[1] as string);
    },
  },
];

interface Query {
  text: string;
  target: number;
  kind: 'phrase' | 'keywords';
}

/**
 * Half the queries quote consecutive words of the target that occur in no other memory
 * (what a substring search can find); half give five of its words in another order (what
 * an agent asks, and what only a ranked search can answer).
 */
function makeQueries(contents: string[], n: number): Query[] {
  const r = mulberry32(7);
  const out: Query[] = [];
  const lower = contents.map((c) => c.toLowerCase());
  const unique = (phrase: string, target: number) => {
    const p = phrase.toLowerCase();
    return lower.every((c, i) => i === target || !c.includes(p));
  };
  while (out.length < n) {
    const q = out.length;
    const target = Math.floor(r() * contents.length);
    const words = (contents[target] as string).split(/\s+/).filter((w) => /^[A-Za-z]+$/.test(w));
    if (q % 2 === 0) {
      // The shortest window (4 to 8 words) from a random start that is unique; else another target.
      const start = Math.floor(r() * Math.max(1, words.length - 4));
      let phrase: string | null = null;
      for (let len = 4; len <= 8 && start + len <= words.length && !phrase; len++) {
        const candidate = words.slice(start, start + len).join(' ');
        if ((contents[target] as string).includes(candidate) && unique(candidate, target))
          phrase = candidate;
      }
      if (phrase) out.push({ text: phrase, target, kind: 'phrase' });
    } else {
      const picked = [...new Set(words.filter((w) => w.length > 3))]
        .map((w) => [r(), w] as const)
        .sort((a, b) => a[0] - b[0])
        .slice(0, 5)
        .map(([, w]) => w);
      out.push({ text: picked.join(' '), target, kind: 'keywords' });
    }
  }
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

interface Row {
  system: string;
  size: number;
  loaded: number;
  load_s: number;
  load_capped: boolean;
  writes_per_s: number;
  searches: number;
  search_capped: boolean;
  p50_ms: number;
  p95_ms: number;
  rss_mib: number | null;
  hit_phrase: number;
  hit_keywords: number;
}

async function runOne(system: SystemUnderTest, contents: string[], queries: Query[]) {
  const dir = tempDir(system.name.replace(/\W+/g, '-').toLowerCase());
  const session = await system.start(dir);
  try {
    const keys: string[] = [];
    const started = performance.now();
    let capped = false;
    for (let i = 0; i < contents.length; i++) {
      keys.push(await system.write(session.client, i, contents[i] as string));
      if ((performance.now() - started) / 1000 > LOAD_BUDGET_S) {
        capped = true;
        break;
      }
    }
    const loadS = (performance.now() - started) / 1000;
    // Only queries whose target was loaded count (a capped load loaded a prefix).
    const usable = queries.filter((q) => q.target < keys.length);
    const times: number[] = [];
    const hits = { phrase: [0, 0], keywords: [0, 0] };
    const searchStart = performance.now();
    let searchCapped = false;
    for (const q of usable) {
      const t = performance.now();
      const top = await system.search(session.client, q.text);
      times.push(performance.now() - t);
      const h = hits[q.kind];
      h[1]!++;
      if (top.includes(keys[q.target] as string)) h[0]!++;
      if ((performance.now() - searchStart) / 1000 > SEARCH_BUDGET_S) {
        searchCapped = true;
        break;
      }
    }
    const row: Row = {
      system: system.name,
      size: contents.length,
      loaded: keys.length,
      load_s: r1(loadS),
      load_capped: capped,
      writes_per_s: Math.round(keys.length / loadS),
      searches: times.length,
      search_capped: searchCapped,
      p50_ms: r1(pct(times, 50)),
      p95_ms: r1(pct(times, 95)),
      rss_mib: rssMiB(session.pid),
      hit_phrase: hits.phrase[1] ? hits.phrase[0]! / hits.phrase[1] : 0,
      hit_keywords: hits.keywords[1] ? hits.keywords[0]! / hits.keywords[1] : 0,
    };
    return row;
  } finally {
    await session.stop();
  }
}

/** Spawn to the first answered tool call, median of `runs`. */
async function coldStart(system: SystemUnderTest, runs = 3): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = tempDir('cold');
    const t = performance.now();
    const session = await system.start(dir);
    await system.search(session.client, 'first call after start');
    times.push(performance.now() - t);
    await session.stop();
  }
  return Math.round(pct(times, 50));
}

async function idle(): Promise<void> {
  const contents = Array.from({ length: 1000 }, generator(5)).map((g) => g.content);
  const out: { system: string; rss_loaded_mib: number | null; rss_idle_mib: number | null }[] = [];
  for (const system of SYSTEMS.slice(0, 2)) {
    const session = await system.start(tempDir('idle'));
    try {
      for (let i = 0; i < contents.length; i++)
        await system.write(session.client, i, contents[i] as string);
      for (let q = 0; q < 20; q++) await system.search(session.client, contents[q]!.slice(0, 40));
      const loaded = rssMiB(session.pid);
      process.stderr.write(`${system.name}: idle for ${IDLE_S} s…\n`);
      await new Promise((r) => setTimeout(r, IDLE_S * 1000));
      out.push({ system: system.name, rss_loaded_mib: loaded, rss_idle_mib: rssMiB(session.pid) });
    } finally {
      await session.stop();
    }
  }
  console.log(`\n${machine()}; no embedding model; 1,000 memories loaded, 20 recalls\n`);
  console.log(`| process | RSS after load (MiB) | RSS after ${IDLE_S} s idle (MiB) |`);
  console.log('|---|---:|---:|');
  for (const o of out) console.log(`| ${o.system} | ${o.rss_loaded_mib} | ${o.rss_idle_mib} |`);
  save('idle.json', { machine: machine(), idle_s: IDLE_S, results: out });
}

/**
 * Spawn to the answer of the first tools/list, read off the pipe with no MCP client in
 * between (a client's own work on the answer, such as compiling output schemas, is not
 * the server's): initialize, its answer, then initialized and tools/list.
 */
function firstToolsList(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let buf = '';
    p.once('error', reject);
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const m = JSON.parse(buf.slice(0, i)) as { id?: number };
        buf = buf.slice(i + 1);
        if (m.id === 1) {
          p.stdin.write(
            `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`,
          );
        } else if (m.id === 2) {
          const t = performance.now() - t0;
          p.once('exit', () => resolve(t));
          p.stdin.end();
        }
      }
    });
    p.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-cold', version: '1' } } })}\n`,
    );
  });
}

/** `npm run bench:cold`: the first tools/list of each server, runs interleaved, medians. */
async function cold(): Promise<void> {
  const daemonHome = tempDir('cold-daemon');
  const { proc } = await startDaemon(daemonHome);
  const cases: { system: string; run: () => Promise<number> }[] = [
    {
      system: 'server-memory',
      run: () =>
        firstToolsList([serverMemory], {
          ...baseEnv,
          MEMORY_FILE_PATH: join(tempDir('cold'), 'memory.jsonl'),
        }),
    },
    {
      system: 'mcp-memory-keeper',
      run: () => {
        const dir = tempDir('cold');
        return firstToolsList([memoryKeeper], { ...baseEnv, DATA_DIR: dir, HOME: dir });
      },
    },
    {
      system: '`loci mcp` standalone (new data directory)',
      run: () => firstToolsList([lociBin, 'mcp'], { ...baseEnv, LOCI_HOME: tempDir('cold') }),
    },
    {
      system: '`loci mcp` forwarding to a running daemon',
      run: () => firstToolsList([lociBin, 'mcp'], { ...baseEnv, LOCI_HOME: daemonHome }),
    },
  ];
  const times = new Map<string, number[]>(cases.map((c) => [c.system, []]));
  try {
    for (let i = 0; i < COLD_RUNS; i++) {
      process.stderr.write(`cold start: round ${i + 1} of ${COLD_RUNS}\n`);
      for (const c of cases) times.get(c.system)!.push(await c.run());
    }
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
  const base = pct(times.get('server-memory')!, 50);
  console.log(`\n${machine()}; spawn to the first tools/list answer, median of ${COLD_RUNS}\n`);
  console.log('| server | ms | ÷ server-memory |');
  console.log('|---|---:|---:|');
  const out = cases.map((c) => {
    const ms = Math.round(pct(times.get(c.system)!, 50));
    console.log(`| ${c.system} | ${ms} | ${(ms / base).toFixed(2)}× |`);
    return { system: c.system, ms, ratio: Number((ms / base).toFixed(2)) };
  });
  save('cold.json', { machine: machine(), runs: COLD_RUNS, results: out });
}

const machine = () =>
  `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

function save(name: string, value: unknown) {
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  writeFileSync(join(root, 'bench-results', name), `${JSON.stringify(value, null, 2)}\n`);
}

async function peers(): Promise<void> {
  for (const f of [lociBin, serverMemory, memoryKeeper]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: run npm install (and npm run build)`);
  }
  const rows: Row[] = [];
  for (const size of SIZES) {
    const contents = Array.from({ length: size }, generator(11)).map((g) => g.content);
    const queries = makeQueries(contents, QUERIES);
    for (const system of SYSTEMS) {
      process.stderr.write(`${system.name}: ${size.toLocaleString()} memories…\n`);
      const row = await runOne(system, contents, queries);
      process.stderr.write(`  ${JSON.stringify(row)}\n`);
      rows.push(row);
    }
  }
  const cold: { system: string; ms: number }[] = [];
  for (const system of SYSTEMS) cold.push({ system: system.name, ms: await coldStart(system) });

  console.log(`\n${machine()}; Loci without an embedding model (lexical + hashing vectors)`);
  console.log(
    `load budget ${LOAD_BUDGET_S} s and search budget ${SEARCH_BUDGET_S} s per system and size; ${QUERIES} queries (half quoted phrases, half reordered keywords)\n`,
  );
  console.log(
    '| system | memories | load (s) | writes/s | search p50 (ms) | search p95 (ms) | RSS (MiB) | hit@10 phrase | hit@10 keywords |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const pc = (x: number) => `${Math.round(x * 100)} %`;
  for (const r of rows) {
    const loaded =
      r.loaded < r.size
        ? `${r.loaded.toLocaleString()} of ${r.size.toLocaleString()} (budget)`
        : r.size.toLocaleString();
    console.log(
      `| ${r.system} | ${loaded} | ${r.load_s} | ${r.writes_per_s} | ${r.p50_ms} | ${r.p95_ms} | ${r.rss_mib ?? '—'} | ${pc(r.hit_phrase)} | ${pc(r.hit_keywords)} |`,
    );
  }
  console.log(
    '\nRatios against Loci (stdio) at the same size (peer ÷ Loci; > 1: Loci is better):\n',
  );
  console.log('| system | memories | load time | search p50 | search p95 | RSS |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const base = rows.find((b) => b.size === r.size && b.system === 'Loci (stdio)');
    if (!base || r === base) continue;
    // Per-write time, so a capped load compares fairly.
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
    console.log(
      `| ${r.system} | ${r.size.toLocaleString()} | ${ratio(r.load_s / r.loaded, base.load_s / base.loaded)} | ${ratio(r.p50_ms, base.p50_ms)} | ${ratio(r.p95_ms, base.p95_ms)} | ${ratio(r.rss_mib ?? 0, base.rss_mib ?? 0)} |`,
    );
  }
  console.log(
    '\nCold start to the first answered call (spawn → connect → one search; median of 3):\n',
  );
  console.log('| system | ms |');
  console.log('|---|---:|');
  for (const c of cold) console.log(`| ${c.system} | ${c.ms} |`);
  save('peers.json', {
    machine: machine(),
    date: new Date().toISOString(),
    rows,
    cold_start: cold,
  });
}

const deadline = setTimeout(
  () => {
    process.stderr.write('bench:peers: over the overall deadline; stopping.\n');
    process.exit(1);
  },
  Number(process.env.BENCH_DEADLINE_MS ?? 60 * 60_000),
);
deadline.unref();
try {
  await (IDLE_ONLY ? idle() : COLD_ONLY ? cold() : peers());
} finally {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
}
process.exit(0);
