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
      {
        content: 'Tomasz: nope, billing moved to port 8081 this morning',
        session: 'core-2026-01-20',
        speaker: 'Tomasz',
        occurred_at: '2026-01-20T09:30:00Z',
      },
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
    [
      'memory.recall',
      () => ({ query: 'what did Tomasz say about billing', speaker: 'Tomasz', rehearse: false }),
    ],
    ['memory.list', () => ({ session: 'core-2026-01-20', occurred_after: '2026-01-01T00:00:00Z' })],
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
    const shape = (r: typeof direct) => ({
      how: r.how,
      abstained: r.abstained,
      confidence: r.confidence,
      semantic: r.semantic,
      degraded: r.degraded,
      omitted: r.omitted,
      results: r.results.map(
        ({
          id,
          title,
          content,
          tags,
          kind,
          occurred_at,
          session,
          speaker,
          score,
          confidence,
          why,
        }) => ({
          id,
          title,
          content,
          tags,
          kind,
          ...(occurred_at ? { occurred_at } : {}),
          ...(session ? { session } : {}),
          ...(speaker ? { speaker } : {}),
          score,
          confidence,
          why,
        }),
      ),
    });
    expect(viaMcp.structuredContent).toEqual(shape(direct));

    // The conversation fields travel both ways through the MCP tools.
    const written = await mcp.callTool({
      name: 'remember',
      arguments: {
        content: 'Aiko: the dark mode toggle ships on Tuesday',
        session: 'core-2026-03-17',
        speaker: 'Aiko',
        occurred_at: '2026-03-17T09:45:00Z',
      },
    });
    const id = (written.structuredContent as { id: string }).id;
    expect(await asAgent.call('memory.get', { id })).toMatchObject({
      session: 'core-2026-03-17',
      speaker: 'Aiko',
      occurred_at: '2026-03-17T09:45:00.000Z',
    });
    const query = {
      query: 'when does dark mode ship',
      speaker: 'Aiko',
      session: 'core-2026-03-17',
    };
    const found = await mcp.callTool({ name: 'recall', arguments: query });
    expect(found.structuredContent).toEqual(shape(await asAgent.call('memory.recall', query)));
    expect(
      (found.structuredContent as { results: { id: string; speaker?: string }[] }).results[0],
    ).toMatchObject({
      id,
      speaker: 'Aiko',
      session: 'core-2026-03-17',
      occurred_at: '2026-03-17T09:45:00.000Z',
    });
    const text = (found.content as { type: string; text: string }[])[0]!.text;
    expect(text).toMatch(/said by Aiko at 2026-03-17T09:45:00\.000Z in session core-2026-03-17/);
    expect(text).toMatch(/confidence (high|medium|low) \(/);
    await inProcess.call('memory.erase', { id });
  });
});
