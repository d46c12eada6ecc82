// The load run behind `npm run bench:load` and test/reliability/load.test.ts: CLIENTS MCP
// clients over Streamable HTTP, all at once, OPS mixed calls in total (remember, recall,
// update, link, read), while the store's WAL file is sampled every 50 ms. Afterwards every
// acknowledged write is read back (its latest acknowledged text). Returns the errors, the
// lost writes, p50/p95 per tool and the largest WAL seen.
import { existsSync, statSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isolatedFetch } from '../../src/main/http/isolatedFetch';

export interface LoadOptions {
  /** The MCP endpoint, e.g. http://127.0.0.1:4747/mcp */
  url: string;
  token: string | null;
  /** The store's database file; its `-wal` is sampled. */
  dbFile: string;
  clients: number;
  ops: number;
  onProgress?: (done: number) => void;
}

export type Tool = 'remember' | 'recall' | 'update' | 'link' | 'read';

export interface LoadReport {
  clients: number;
  ops: number;
  seconds: number;
  ops_per_s: number;
  errors: string[];
  writes: number;
  lost_writes: number;
  p50_ms: Record<Tool | 'all', number>;
  p95_ms: Record<Tool | 'all', number>;
  wal_max_bytes: number;
  wal_end_bytes: number;
}

const TOPICS = ['build', 'deploy', 'cache', 'queue', 'schema', 'auth', 'billing', 'search'];

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  const headers: Record<string, string> = o.token ? { authorization: `Bearer ${o.token}` } : {};
  const connect = async (name: string) => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(o.url), {
        requestInit: { headers },
        fetch: isolatedFetch(),
      }),
    );
    return client;
  };
  const wal = `${o.dbFile}-wal`;
  const walSize = () => (existsSync(wal) ? statSync(wal).size : 0);
  let walMax = walSize();
  const sampler = setInterval(() => (walMax = Math.max(walMax, walSize())), 50);

  const latencies: Record<Tool, number[]> = {
    remember: [],
    recall: [],
    update: [],
    link: [],
    read: [],
  };
  const errors: string[] = [];
  const expected = new Map<string, string>();
  let done = 0;
  const perClient = Math.ceil(o.ops / o.clients);
  const started = performance.now();

  const agent = async (c: number) => {
    const client = await connect(`load-agent-${c}`);
    const mine: string[] = [];
    for (let i = 0; i < perClient && done < o.ops; i++) {
      done++;
      const roll = (i * 7 + c * 13) % 20;
      const tool: Tool =
        mine.length < 2 || roll < 7
          ? 'remember'
          : roll < 14
            ? 'recall'
            : roll < 16
              ? 'update'
              : roll < 18
                ? 'link'
                : 'read';
      const topic = TOPICS[(i + c) % TOPICS.length] as string;
      let args: Record<string, unknown>;
      let text = '';
      if (tool === 'remember') {
        text = `Agent ${c} note ${i}: the ${topic} step took ${c * 1000 + i} ms on host h${c % 7}.`;
        args = { content: text, tags: [topic] };
      } else if (tool === 'recall') args = { query: `${topic} step host h${i % 7}`, limit: 10 };
      else if (tool === 'update') {
        text = `Agent ${c} note revised at ${i}: the ${topic} step now takes ${i} ms.`;
        args = { id: mine[i % mine.length], content: text };
      } else if (tool === 'link')
        args = { from: mine[i % mine.length], to: mine[(i + 1) % mine.length], type: 'related' };
      else args = { id: mine[i % mine.length] };
      const start = performance.now();
      try {
        const r = await client.callTool({ name: tool, arguments: args });
        latencies[tool].push(performance.now() - start);
        if (r.isError) errors.push(`${tool}: ${JSON.stringify(r.content).slice(0, 200)}`);
        else if (tool === 'remember') {
          const id = (r.structuredContent as { id: string }).id;
          mine.push(id);
          expected.set(id, text);
        } else if (tool === 'update') expected.set(args.id as string, text);
      } catch (err) {
        errors.push(`${tool}: ${(err as Error).message}`);
      }
      o.onProgress?.(done);
    }
    await client.close();
  };
  await Promise.all(Array.from({ length: o.clients }, (_, c) => agent(c)));
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  walMax = Math.max(walMax, walSize());

  // Nothing lost: every acknowledged write reads back with its latest acknowledged text.
  const check = await connect('load-check');
  let lost = 0;
  for (const [id, text] of expected) {
    const r = await check.callTool({ name: 'read', arguments: { id } });
    const content = (r.structuredContent as { content?: string } | undefined)?.content;
    if (r.isError || content !== text) lost++;
  }
  await check.close();

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0) * 10) / 10;
  };
  const all = Object.values(latencies).flat();
  const by = (p: number) =>
    Object.fromEntries(
      Object.entries({ all, ...latencies }).map(([k, v]) => [k, pct(v, p)]),
    ) as Record<Tool | 'all', number>;
  return {
    clients: o.clients,
    ops: all.length + errors.length,
    seconds: Math.round(elapsed / 100) / 10,
    ops_per_s: Math.round(all.length / (elapsed / 1000)),
    errors,
    writes: expected.size,
    lost_writes: lost,
    p50_ms: by(50),
    p95_ms: by(95),
    wal_max_bytes: walMax,
    wal_end_bytes: walSize(),
  };
}
