// Client tokens (issue 21, item 2): every MCP tool × every policy flag, through MCP over
// Streamable HTTP (a real SDK client with the client's bearer token, against the daemon)
// and over stdio (`loci mcp` spawned with LOCI_TOKEN, opening the store itself). The
// expected verdicts come from the table below, written apart from the engine's own; a
// refusal must name its permission, be audited as `access.denied` by the client, and an
// allowed call must never be refused. A revoked or rotated token stops working at once.
import { rmSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientAddArgsSchema } from '../src/shared/schemas';
import type { z } from 'zod';
import { startDaemon, type Daemon } from '../src/main/daemon';
import { openTestEngine, tempDir } from './helpers/engine';
import { rawRequest } from './helpers/http';

const ROOT = new URL('..', import.meta.url).pathname;
const ULID = '01J00000000000000000000000';

type Kind = 'read' | 'write' | 'forget' | 'ingest' | 'info';

/** What each tool needs, by our reading of what it does (not the engine's table). */
const TOOL_KIND: Record<string, Kind> = {
  remember: 'write',
  recall: 'read',
  read: 'read',
  update: 'write',
  forget: 'forget',
  link: 'write',
  explore: 'read',
  timeline: 'read',
  map: 'read',
  verify: 'read',
  conflicts: 'read',
  resolve: 'write',
  record_outcome: 'write',
  find_procedures: 'read',
  stores: 'info',
  stats: 'read',
  doctor: 'read',
  dream: 'write',
  ingest_file: 'ingest',
  import_transcript: 'ingest',
  propose_memories: 'write',
  distill_session: 'write',
  session_summary: 'read',
  errors: 'read',
  decisions: 'read',
};

type Policy = Omit<z.input<typeof ClientAddArgsSchema>, 'name'>;
const POLICIES: Record<string, Policy> = {
  full: {},
  'read-only': { read_only: true },
  'other-store': { stores: ['other'] },
  'no-ingest': { no_ingest: true },
  'no-forget': { no_forget: true },
  'shared-only': { shared_only: true },
};

/** Whether a policy should refuse a tool (the remember call asks for a private memory). */
function refused(policy: string, tool: string): boolean {
  const kind = TOOL_KIND[tool];
  if (kind === 'info') return false;
  if (policy === 'other-store') return true;
  if (policy === 'read-only') return kind !== 'read';
  if (policy === 'no-ingest') return kind === 'ingest';
  if (policy === 'no-forget') return kind === 'forget';
  if (policy === 'shared-only') return tool === 'remember';
  return false;
}

function argsFor(tool: string, id: string, home: string): Record<string, unknown> {
  switch (tool) {
    case 'remember':
      return { content: `A private note of ${tool} ${Math.random()}`, visibility: 'private' };
    case 'recall':
    case 'find_procedures':
    case 'errors':
    case 'decisions':
      return { query: 'deploy' };
    case 'read':
    case 'explore':
      return { id };
    case 'update':
      return { id, tags: ['checked'] };
    case 'forget':
      return { id: ULID };
    case 'link':
      return { from: id, to: ULID };
    case 'verify':
      return { claim: 'Deploys run on Fridays' };
    case 'resolve':
      return { ids: [ULID], resolution: 'dismiss' };
    case 'record_outcome':
      return { id, success: true };
    case 'dream':
      return { dry_run: true };
    case 'ingest_file':
      return { path: `${home}/nothing-here.md` };
    case 'import_transcript':
      return { paths: [`${home}/nothing-here.jsonl`] };
    case 'propose_memories':
      return { journal_id: ULID, candidates: [{ content: 'x', quotes: ['x'] }] };
    case 'distill_session':
      return { id: ULID };
    default:
      return {};
  }
}

const textOf = (r: Record<string, unknown>) =>
  ((r.content as { type: string; text?: string }[] | undefined) ?? [])
    .map((c) => c.text ?? '')
    .join('\n');

/** Runs every tool under one policy; returns the verdicts that differ from the table. */
async function matrix(
  client: Client,
  policy: string,
  name: string,
  id: string,
  home: string,
): Promise<string[]> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOL_KIND).sort());
  const wrong: string[] = [];
  for (const t of tools) {
    const r = await client.callTool({ name: t.name, arguments: argsFor(t.name, id, home) });
    const text = textOf(r);
    const denied = r.isError === true && text.includes(`Client "${name}" may not`);
    const want = refused(policy, t.name);
    if (denied !== want)
      wrong.push(
        `${policy} × ${t.name}: ${denied ? 'refused' : 'allowed'} (${text.slice(0, 160)})`,
      );
    if (denied && !/permission: \w+|the owner's/.test(text))
      wrong.push(`${policy} × ${t.name}: the refusal names no permission`);
  }
  return wrong;
}

describe('client tokens: every tool × every policy', () => {
  let home: string;
  let daemon: Daemon;
  const tokens: Record<string, string> = {};
  let id = '';

  beforeAll(async () => {
    home = tempDir('loci-perm-');
    daemon = await startDaemon({ dataDir: home, port: 0, env: {} });
    const owner = { actor: { kind: 'cli' as const } };
    await daemon.handlers.dispatch('store.create', { name: 'other' }, owner);
    const r = (await daemon.handlers.dispatch(
      'memory.remember',
      { content: 'Deploys run on Fridays after the freeze.' },
      owner,
    )) as { id: string };
    id = r.id;
    for (const [policy, flags] of Object.entries(POLICIES)) {
      const added = (await daemon.handlers.dispatch(
        'clients.add',
        { name: `agent-${policy}`, ...flags },
        owner,
      )) as { token: string };
      tokens[policy] = added.token;
    }
  }, 60_000);
  afterAll(async () => {
    await daemon?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('over Streamable HTTP', { timeout: 120_000 }, async () => {
    const wrong: string[] = [];
    for (const policy of Object.keys(POLICIES)) {
      const client = new Client({ name: 'whatever-it-says', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${tokens[policy]}` } },
        }),
      );
      wrong.push(...(await matrix(client, policy, `agent-${policy}`, id, home)));
      await client.close();
    }
    expect(wrong).toEqual([]);
    // Each refusal is in the chain, by the client that was refused.
    const store = await daemon.engine.store(undefined);
    const denied = store.db
      .prepare(`SELECT actor, data FROM audit WHERE action = 'access.denied'`)
      .all() as { actor: string; data: string }[];
    const by = new Set(denied.map((d) => d.actor));
    for (const policy of ['read-only', 'other-store', 'no-ingest', 'no-forget', 'shared-only']) {
      expect(by.has(`mcp:agent-${policy}`), policy).toBe(true);
    }
    expect(by.has('mcp:agent-full')).toBe(false);
    expect(JSON.parse(denied[0]!.data)).toMatchObject({ permission: expect.any(String) });
  });

  it('a client token cannot pose as the owner on /api, nor follow the event stream', async () => {
    const post = (method: string, body: unknown, headers: Record<string, string> = {}) =>
      rawRequest({
        port: daemon.http.port,
        method: 'POST',
        path: `/api/${method}`,
        headers: {
          host: `127.0.0.1:${daemon.http.port}`,
          authorization: `Bearer ${tokens['read-only']}`,
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    // Claiming to be the CLI changes nothing: the token decides.
    const r = await post(
      'memory.remember',
      { content: 'posing as the cli' },
      { 'x-loci-actor': 'cli' },
    );
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).error).toMatchObject({
      code: 'forbidden',
      data: { permission: 'write' },
    });
    const owner = await post('token.rotate', {});
    expect(JSON.parse(owner.body).error.message).toMatch(/the owner's/);
    expect((await post('memory.recall', { query: 'deploy' })).status).toBe(200);
    const events = await rawRequest({
      port: daemon.http.port,
      path: '/api/events',
      headers: {
        host: `127.0.0.1:${daemon.http.port}`,
        authorization: `Bearer ${tokens.full}`,
      },
    });
    expect(events.status).toBe(403);
  });

  it('stops a revoked or rotated token at once', async () => {
    const owner = { actor: { kind: 'cli' as const } };
    const call = (token: string) =>
      rawRequest({
        port: daemon.http.port,
        method: 'POST',
        path: '/api/stats.get',
        headers: {
          host: `127.0.0.1:${daemon.http.port}`,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });
    const added = (await daemon.handlers.dispatch(
      'clients.add',
      { name: 'short-lived' },
      owner,
    )) as {
      token: string;
    };
    expect((await call(added.token)).status).toBe(200);
    const rotated = (await daemon.handlers.dispatch(
      'clients.rotate',
      { name: 'short-lived' },
      owner,
    )) as {
      token: string;
    };
    expect((await call(added.token)).status).toBe(401);
    expect((await call(rotated.token)).status).toBe(200);
    await daemon.handlers.dispatch('clients.revoke', { name: 'short-lived' }, owner);
    expect((await call(rotated.token)).status).toBe(401);
    // Kept as hashes only: no token is in the file.
    const file = readFileSync(`${home}/clients.json`, 'utf8');
    for (const t of Object.values(tokens)) expect(file).not.toContain(t);
    // And an agent may not make itself a token.
    await expect(
      daemon.handlers.dispatch(
        'clients.add',
        { name: 'sneaky' },
        {
          actor: { kind: 'mcp', client: 'cursor' },
        },
      ),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
});

describe('client tokens over stdio (loci mcp with LOCI_TOKEN, no daemon)', () => {
  it('holds every tool to every policy', { timeout: 240_000 }, async () => {
    const home = tempDir('loci-perm-stdio-');
    const tokens: Record<string, string> = {};
    let id = '';
    try {
      const t = await openTestEngine({ dataDir: home });
      await t.cli.call('store.create', { name: 'other' });
      id = (
        await t.cli.call('memory.remember', { content: 'Deploys run on Fridays after the freeze.' })
      ).id;
      for (const [policy, flags] of Object.entries(POLICIES)) {
        tokens[policy] = (
          await t.cli.call('clients.add', { name: `agent-${policy}`, ...flags })
        ).token;
      }
      await t.engine.close();
      const wrong: string[] = [];
      for (const policy of Object.keys(POLICIES)) {
        const transport = new StdioClientTransport({
          command: process.execPath,
          args: ['--import', 'tsx', 'src/main/cli.ts', 'mcp'],
          cwd: ROOT,
          env: {
            ...(process.env as Record<string, string>),
            LOCI_HOME: home,
            LOCI_MODEL_PATH: '',
            LOCI_TOKEN: tokens[policy] as string,
          },
          stderr: 'pipe',
        });
        const client = new Client({ name: 'stdio-client', version: '1.0.0' });
        await client.connect(transport);
        wrong.push(...(await matrix(client, policy, `agent-${policy}`, id, home)));
        await client.close();
      }
      expect(wrong).toEqual([]);

      // A token that is not one of this data directory's: refused, with the reason.
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'src/main/cli.ts', 'mcp'],
        cwd: ROOT,
        env: {
          ...(process.env as Record<string, string>),
          LOCI_HOME: home,
          LOCI_TOKEN: 'loci_c_not-a-real-token',
        },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const client = new Client({ name: 'stdio-client', version: '1.0.0' });
      await expect(client.connect(transport)).rejects.toThrow();
      expect(stderr).toMatch(/LOCI_TOKEN is not a client token/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
