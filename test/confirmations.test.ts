// Confirmations where the person is (issue 21, item 3): a request an agent may not make
// on its own — a deletion past the bulk limit, an ingest from a folder agents may not
// read — is asked of the person in the client when the client declares MCP elicitation,
// and goes through on a yes only; a client without elicitation, or a no, gets today's
// refusal with its instructions. A yes is good for that one request, once.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Confirmations } from '../src/main/engine/access/confirm';
import { BULK_DELETE_LIMIT } from '../src/main/engine/memory/bulkGuard';
import { startDaemon, type Daemon } from '../src/main/daemon';
import { tempDir } from './helpers/engine';

let home: string;
let daemon: Daemon;
const owner = { actor: { kind: 'cli' as const } };

beforeAll(async () => {
  home = tempDir('loci-confirm-');
  daemon = await startDaemon({ dataDir: home, port: 0, env: {} });
}, 60_000);
afterAll(async () => {
  await daemon?.close();
  rmSync(home, { recursive: true, force: true });
});

/** An MCP client over HTTP; with `answer`, it declares elicitation and answers so. */
async function connect(
  name: string,
  answer?: (message: string) => { action: 'accept' | 'decline' | 'cancel'; allow?: boolean },
): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      const message = (req.params as { message: string }).message;
      asked.push(message);
      const a = answer(message);
      return a.action === 'accept'
        ? { action: 'accept', content: { allow: a.allow ?? true } }
        : { action: a.action };
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
    }),
  );
  return { client, asked };
}

async function seed(n: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = (await daemon.handlers.dispatch(
      'memory.remember',
      { content: `${label} note ${i}: the cache is warmed at ${i} am.` },
      owner,
    )) as { id: string };
    ids.push(r.id);
  }
  return ids;
}

const text = (r: Record<string, unknown>) =>
  ((r.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

async function deleteUpToLimit(client: Client, ids: string[]): Promise<void> {
  for (const id of ids.slice(0, BULK_DELETE_LIMIT)) {
    const r = await client.callTool({ name: 'forget', arguments: { id } });
    expect(r.isError, text(r)).toBeFalsy();
  }
}

const isLive = async (id: string) => {
  const m = (await daemon.handlers.dispatch(
    'memory.get',
    { id, include_deleted: true },
    owner,
  )) as {
    deleted_at: string | null;
  };
  return m.deleted_at === null;
};

describe('confirmations in the client', () => {
  it('asks the person before a deletion past the limit, and deletes on a yes only', async () => {
    const ids = await seed(BULK_DELETE_LIMIT + 2, 'yes');
    const { client, asked } = await connect('asker', () => ({ action: 'accept', allow: true }));
    await deleteUpToLimit(client, ids);
    expect(asked).toEqual([]);
    const past = ids[BULK_DELETE_LIMIT] as string;
    const r = await client.callTool({ name: 'forget', arguments: { id: past } });
    expect(r.isError, text(r)).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(
      /mcp:asker has already deleted 10 memories from "default".*Allow it\?/,
    );
    expect(await isLive(past)).toBe(false);
    await client.close();
  });

  it('keeps the refusal, with its instructions, on a no or a cancel', async () => {
    const ids = await seed(BULK_DELETE_LIMIT + 2, 'no');
    let n = 0;
    const { client, asked } = await connect('decliner', () =>
      n++ === 0 ? { action: 'decline' } : { action: 'accept', allow: false },
    );
    await deleteUpToLimit(client, ids);
    for (const id of ids.slice(BULK_DELETE_LIMIT)) {
      const r = await client.callTool({ name: 'forget', arguments: { id } });
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/Deleting more needs the user's confirmation.*loci forget/);
      expect(await isLive(id)).toBe(true);
    }
    expect(asked).toHaveLength(2);
    await client.close();
  });

  it("refuses with today's instructions when the client cannot ask", async () => {
    const ids = await seed(BULK_DELETE_LIMIT + 1, 'plain');
    const { client } = await connect('no-elicitation');
    await deleteUpToLimit(client, ids);
    const r = await client.callTool({ name: 'forget', arguments: { id: ids.at(-1) } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/needs the user's confirmation/);
    expect((r._meta?.['loci/error'] as { data: unknown }).data).toMatchObject({
      needs: 'user-confirmation',
    });
    await client.close();
  });

  it('asks before ingesting a folder agents may not read, and reads it on a yes', async () => {
    const folder = join(home, 'outside-notes');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'release.md'),
      '# Release\n\nThe release train leaves on Tuesdays.\n',
    );
    const no = await connect('ingest-no', () => ({ action: 'decline' }));
    const refused = await no.client.callTool({ name: 'ingest_file', arguments: { path: folder } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/outside the folders agents may ingest from/);
    expect(no.asked[0]).toMatch(/asks to read .*outside-notes into memory.*Allow it this once\?/);
    await no.client.close();

    const yes = await connect('ingest-yes', () => ({ action: 'accept', allow: true }));
    const r = await yes.client.callTool({ name: 'ingest_file', arguments: { path: folder } });
    expect(r.isError, text(r)).toBeFalsy();
    expect(text(r)).toMatch(/1 file|release\.md/);
    // The yes was for that request only: the folder is not allowed from now on.
    const folders = (await daemon.handlers.dispatch('ingest.folders', {}, owner)) as {
      folders: string[];
    };
    expect(folders.folders).not.toContain(folder);
    await yes.client.close();
  });

  it('an agent cannot answer for the person: the yes is not an argument', async () => {
    const [id] = await seed(1, 'self');
    await expect(
      daemon.handlers.dispatch(
        'memory.forget',
        { id, confirmation: 'made-up' },
        { actor: { kind: 'mcp', client: 'x' } },
      ),
    ).rejects.toMatchObject({ code: 'invalid-args' });
  });
});

describe('confirmations through the stdio forwarder', () => {
  it('asks the person over `loci mcp` forwarding to the daemon', { timeout: 60_000 }, async () => {
    const ids = await seed(BULK_DELETE_LIMIT + 1, 'stdio');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/main/cli.ts', 'mcp'],
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...(process.env as Record<string, string>), LOCI_HOME: home, LOCI_MODEL_PATH: '' },
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'stdio-asker', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push((req.params as { message: string }).message);
      return { action: 'accept', content: { allow: true } };
    });
    await client.connect(transport);
    await deleteUpToLimit(client, ids);
    const past = ids.at(-1) as string;
    const r = await client.callTool({ name: 'forget', arguments: { id: past } });
    expect(r.isError, text(r)).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(await isLive(past)).toBe(false);
    await client.close();
  });
});

describe('a confirmation id', () => {
  it('is good for the same caller, method and arguments, once, for five minutes', () => {
    let now = 0;
    const c = new Confirmations(() => now);
    const agent = { kind: 'mcp' as const, client: 'a' };
    const err = c.needed(agent, 'memory.forget', { id: 'X' }, 'refused', 'allow?');
    const id = (err.data as { confirmation: { id: string } }).confirmation.id;
    expect(c.granted({ actor: agent, confirmation: id }, 'memory.forget', { id: 'Y' })).toBe(false);
    expect(
      c.granted({ actor: { kind: 'mcp', client: 'b' }, confirmation: id }, 'memory.forget', {
        id: 'X',
      }),
    ).toBe(false);
    expect(c.granted({ actor: agent, confirmation: id }, 'memory.erase', { id: 'X' })).toBe(false);
    expect(c.granted({ actor: agent, confirmation: id }, 'memory.forget', { id: 'X' })).toBe(true);
    expect(c.granted({ actor: agent, confirmation: id }, 'memory.forget', { id: 'X' })).toBe(false);
    const late = c.needed(agent, 'memory.forget', { id: 'X' }, 'refused', 'allow?');
    now += 5 * 60_000;
    const lateId = (late.data as { confirmation: { id: string } }).confirmation.id;
    expect(c.granted({ actor: agent, confirmation: lateId }, 'memory.forget', { id: 'X' })).toBe(
      false,
    );
  });
});
