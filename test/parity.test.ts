// One contract, several transports (DESIGN.md §3): the same call gives the same answer
// in process, over the HTTP API and — for what the MCP tools expose — over MCP. Run
// against one daemon with a stopped clock, so nothing but the transport differs.
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, LociClient, MethodName } from '../src/shared/api';
import { createInProcessClient } from '../src/main/api';
import { startDaemon, type Daemon } from '../src/main/daemon';
import { createHttpClient } from '../src/main/http/client';
import { tempDir } from './helpers/engine';

let daemon: Daemon;
let dir: string;
let inProcess: LociClient;
let http: LociClient;
let mcp: Client;
const ids: string[] = [];
const agent: Actor = { kind: 'mcp', client: 'parity-agent', transport: 'in-process' };

beforeAll(async () => {
  dir = tempDir('loci-parity-');
  const now = Date.parse('2026-05-04T10:00:00Z');
  daemon = await startDaemon({
    dataDir: dir,
    port: 0,
    env: {},
    // A stopped clock, and rehearsals held back: reads leave no trace between transports.
    engine: { embedWrites: 'await', clock: () => now, rehearsalFlushMs: 600_000 },
  });
  inProcess = createInProcessClient(daemon.handlers, { actor: { kind: 'cli' } });
  http = createHttpClient({ url: daemon.url, token: daemon.token as string }, 'cli');
  mcp = new Client({ name: 'parity-agent', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
    }),
  );
  const { results } = await inProcess.call('memory.rememberMany', {
    items: [
      { content: 'Billing deploys from the ops repo, staging first.', tags: ['ops', 'billing'] },
      {
        content: 'The orders API keeps 40 database connections (max_pool_size).',
        tags: ['orders'],
      },
      { content: 'Rotate the VPN certificate with make vpn-rotate, then restart the gateway.' },
      { content: 'We decided to keep Postgres 15 until the migration tooling supports 16.' },
    ],
  });
  ids.push(...results.map((r) => r.id));
  await inProcess.call('link.create', { from: ids[0]!, to: ids[2]!, type: 'related' });
  await inProcess.call('memory.update', {
    id: ids[1]!,
    content: 'The orders API keeps 60 database connections (max_pool_size).',
  });
});
afterAll(async () => {
  await mcp.close();
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Timings (of the answer and of each traced stage) differ by nature; nothing else may. */
function stable(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v) => (key === 'timings' || key === 'ms' ? undefined : v)),
  );
}

describe('the same call through every transport', () => {
  const calls: [MethodName, () => Record<string, unknown>][] = [
    ['memory.get', () => ({ id: ids[0] })],
    ['memory.list', () => ({ limit: 10 })],
    ['memory.history', () => ({ id: ids[1] })],
    ['memory.timeline', () => ({})],
    ['memory.map', () => ({ max_tokens: 500 })],
    ['graph.neighbors', () => ({ id: ids[0], depth: 2 })],
    [
      'memory.recall',
      () => ({ query: 'how do we deploy billing', rehearse: false, explain: true }),
    ],
    ['memory.recall', () => ({ query: 'nothing about quantum gardening', rehearse: false })],
    ['store.list', () => ({})],
    ['stats.get', () => ({})],
  ];

  it.each(calls.map(([m, a], i) => [`${m} #${i}`, m, a] as const))(
    '%s: in process and over HTTP',
    async (_label, method, args) => {
      const direct = await inProcess.call(method, args() as never);
      const viaHttp = await http.call(method, args() as never);
      expect(stable(viaHttp)).toEqual(stable(direct));
    },
  );

  it('errors too: the same code and message', async () => {
    const direct = await inProcess
      .call('memory.get', { id: '01J0000000000000000000000X' })
      .catch((e: unknown) => e);
    const viaHttp = await http
      .call('memory.get', { id: '01J0000000000000000000000X' })
      .catch((e: unknown) => e);
    expect(viaHttp).toMatchObject({
      code: (direct as { code: string }).code,
      message: (direct as Error).message,
    });
  });

  it('MCP read and recall carry the contract answer an agent would get in process', async () => {
    const asAgent = createInProcessClient(daemon.handlers, { actor: agent });
    const read = await mcp.callTool({ name: 'read', arguments: { id: ids[0] } });
    expect(stable(read.structuredContent)).toEqual(
      stable(await asAgent.call('memory.get', { id: ids[0]! })),
    );

    const direct = await asAgent.call('memory.recall', {
      query: 'database connections for orders',
    });
    const viaMcp = await mcp.callTool({
      name: 'recall',
      arguments: { query: 'database connections for orders' },
    });
    expect(viaMcp.structuredContent).toEqual({
      how: direct.how,
      abstained: direct.abstained,
      semantic: direct.semantic,
      degraded: direct.degraded,
      omitted: direct.omitted,
      results: direct.results.map(({ id, title, content, tags, kind, score, why }) => ({
        id,
        title,
        content,
        tags,
        kind,
        score,
        why,
      })),
    });
  });
});
