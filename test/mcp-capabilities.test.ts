// MCP's optional capabilities, on the daemon's Streamable HTTP endpoint with real SDK
// clients: logging (setLevel honoured), progress and cancellation of a slow ingest,
// resource subscriptions told of another client's change, the resource list's changes,
// completions of prompt and template arguments, the topic prompt, output schemas.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessClient } from '../src/main/api';
import { startDaemon, type Daemon } from '../src/main/daemon';
import { tempDir } from './helpers/engine';

let daemon: Daemon;
let dir: string;
const open: Client[] = [];
const person = () => createInProcessClient(daemon.handlers, { actor: { kind: 'cli' } });

beforeAll(async () => {
  dir = tempDir('loci-mcp-caps-');
  daemon = await startDaemon({ dataDir: dir, port: 0, env: {}, engine: { embedWrites: 'await' } });
});
afterAll(async () => {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
  await daemon.close();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(name: string, token = daemon.token): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  await client.listTools(); // answers are checked against the output schemas from here on
  open.push(client);
  return client;
}

const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args })) as CallToolResult & {
    structuredContent: Record<string, unknown>;
  };

/** Resolves when `pred` holds, polling; rejects after `ms`. */
async function until(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('MCP capabilities', () => {
  it('declares logging, completions and resource subscriptions, and every tool has an output schema', async () => {
    const c = await connect('caps');
    expect(c.getServerCapabilities()).toMatchObject({
      logging: {},
      completions: {},
      resources: { subscribe: true, listChanged: true },
      tools: {},
      prompts: {},
    });
    const { tools } = await c.listTools();
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
  });

  it("sends the daemon's warnings about the caller's calls at the level it set", async () => {
    const c = await connect('logger');
    const got: { level: string; data: unknown }[] = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      got.push({ level: n.params.level, data: n.params.data });
    });
    await call(c, 'remember', {
      content: 'The build cache lives in .turbo and is safe to delete.',
    });
    // No embedding model here: recall says it searched by words only, as a warning.
    await c.setLoggingLevel('warning');
    const r = await call(c, 'recall', { query: 'where is the build cache' });
    const degraded = (r.structuredContent as { degraded?: string[] }).degraded ?? [];
    expect(degraded.length).toBeGreaterThan(0);
    await until(() => got.length >= degraded.length, 2000, 'log notifications');
    expect(got.filter((g) => g.level === 'warning').map((g) => g.data)).toEqual(
      degraded.map((d) => `recall: ${d}`),
    );
    // Above the level: nothing.
    got.length = 0;
    await c.setLoggingLevel('error');
    await call(c, 'recall', { query: 'where is the build cache' });
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([]);
    await expect(c.setLoggingLevel('loud' as never)).rejects.toThrow();
  });

  it('shows a slow ingest moving at least every second and stops within 1 s of a cancel, writing no file by halves', async () => {
    const folder = join(tempDir('loci-mcp-caps-slow-'), 'notes');
    mkdirSync(folder, { recursive: true });
    // Every file alike in shape (three sections), so each makes the same memories.
    const FILES = 3000;
    for (let i = 0; i < FILES; i++) {
      writeFileSync(
        join(folder, `note-${String(i).padStart(4, '0')}.md`),
        `# Note ${i}\n\n## Part one\n\nThe ${i}th note's first part, about topic ${i * 7}.\n\n## Part two\n\nSecond part of note ${i}.\n\n## Part three\n\nThird part of note ${i}, ending it.\n`,
      );
    }
    await person().call('ingest.setFolders', { folders: [folder] });
    await person().call('store.create', { name: 'slow' });
    const c = await connect('slow-ingest');
    const seen: { at: number; p: Progress }[] = [];
    const abort = new AbortController();
    const started = Date.now();
    const pending = c
      .callTool({ name: 'ingest_file', arguments: { path: folder, store: 'slow' } }, undefined, {
        signal: abort.signal,
        timeout: 120_000,
        onprogress: (p) => {
          seen.push({ at: Date.now(), p });
        },
      })
      .then(
        () => 'answered',
        (err: Error) => err.message,
      );
    // Cancel once files are being written (a hundred in).
    const fileIndex = (p: Progress) => Number(/\(file (\d+) of/.exec(p.message ?? '')?.[1] ?? 0);
    await until(() => seen.some((s) => fileIndex(s.p) >= 100), 60_000, 'progress while writing');
    const cancelledAt = Date.now();
    abort.abort('the test cancels');
    expect(await pending).toMatch(/cancel|abort/i);
    // Progress came at least every second until the cancel, and only ever grew.
    const times = [started, ...seen.map((s) => s.at)].filter((t) => t <= cancelledAt);
    for (let i = 1; i < times.length; i++)
      expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(1000);
    for (let i = 1; i < seen.length; i++)
      expect(seen[i]!.p.progress).toBeGreaterThan(seen[i - 1]!.p.progress);
    // The engine stops within a second: the batch is recorded as cancelled.
    let stoppedAt = 0;
    await until(
      () => {
        void person()
          .call('ingest.list', { store: 'slow' })
          .then((l) => {
            if (!stoppedAt && l.batches[0]?.status === 'cancelled') stoppedAt = Date.now();
          });
        return stoppedAt > 0;
      },
      5000,
      'the batch to stop',
    );
    expect(stoppedAt - cancelledAt).toBeLessThanOrEqual(1000);
    const [batch] = (await person().call('ingest.list', { store: 'slow' })).batches;
    expect(batch!.totals.ingested).toBeGreaterThan(0);
    expect(batch!.totals.ingested).toBeLessThan(FILES);
    // Nothing by halves: every file's memories are all there or none is.
    const perFile = new Map<string, number>();
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<ReturnType<typeof person>['call']>> & {
        items: { tags: string[] }[];
        next_cursor: string | null;
      } = await person().call('memory.list', {
        store: 'slow',
        limit: 500,
        ...(cursor ? { cursor } : {}),
      });
      for (const m of page.items) {
        const source = m.tags.find((t) => t.startsWith('source:'));
        if (source) perFile.set(source, (perFile.get(source) ?? 0) + 1);
      }
      cursor = page.next_cursor;
    } while (cursor);
    const sizes = new Set(perFile.values());
    expect(sizes.size).toBe(1);
    expect(perFile.size).toBe(batch!.totals.ingested);
  });

  it('tells a dream how far along it is', async () => {
    const c = await connect('dreamer');
    const seen: Progress[] = [];
    const r = await c.callTool({ name: 'dream', arguments: { dry_run: true } }, undefined, {
      onprogress: (p) => {
        seen.push(p);
      },
    });
    expect(r.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p) => typeof p.total === 'number' && p.progress <= p.total)).toBe(true);
  });

  it("tells a subscriber of another client's change within 200 ms, and nothing after unsubscribing", async () => {
    const watcher = await connect('watcher');
    const writer = await connect('writer');
    const first = await call(writer, 'remember', { content: 'Deploys go out on Tuesdays.' });
    const id = first.structuredContent.id as string;
    const updates: { uri: string; at: number }[] = [];
    watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push({ uri: n.params.uri, at: Date.now() });
    });
    await watcher.subscribeResource({ uri: 'memory://changes' });
    await watcher.subscribeResource({ uri: `memory://${id}` });
    await watcher.subscribeResource({ uri: 'memory://map' });

    const second = await call(writer, 'remember', { content: 'Releases are tagged vYYYY.MM.' });
    const wroteAt = Date.now();
    await until(() => updates.some((u) => u.uri === 'memory://changes'), 2000, 'the update');
    const told = updates.find((u) => u.uri === 'memory://changes')!;
    expect(told.at - wroteAt).toBeLessThanOrEqual(200);
    expect(updates.map((u) => u.uri).sort()).toEqual(['memory://changes', 'memory://map']);
    const changes = await watcher.readResource({ uri: 'memory://changes' });
    expect((changes.contents[0] as { text: string }).text).toContain(
      second.structuredContent.id as string,
    );

    // A change to the memory subscribed to by id.
    updates.length = 0;
    const edit = await call(writer, 'update', { id, content: 'Deploys go out on Wednesdays.' });
    expect(edit.isError, JSON.stringify(edit.structuredContent)).toBeFalsy();
    const editedAt = Date.now();
    await until(() => updates.some((u) => u.uri === `memory://${id}`), 2000, 'the id update');
    expect(updates.find((u) => u.uri === `memory://${id}`)!.at - editedAt).toBeLessThanOrEqual(200);

    // Another client's private memory is none of the watcher's business.
    updates.length = 0;
    await call(writer, 'remember', { content: 'My own scratch note.', visibility: 'private' });
    await new Promise((r) => setTimeout(r, 150));
    expect(updates).toEqual([]);

    // Unsubscribed: no more.
    await watcher.unsubscribeResource({ uri: 'memory://changes' });
    await watcher.unsubscribeResource({ uri: 'memory://map' });
    await watcher.unsubscribeResource({ uri: `memory://${id}` });
    await call(writer, 'remember', { content: 'CI runs on every push.' });
    await new Promise((r) => setTimeout(r, 150));
    expect(updates).toEqual([]);

    // What is not a resource of Loci's cannot be subscribed to.
    await expect(watcher.subscribeResource({ uri: 'test://watched-resource' })).rejects.toThrow(
      /Unknown resource/,
    );
    await expect(
      watcher.subscribeResource({ uri: 'memory://01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
    ).rejects.toThrow();
  });

  it('tells the client that the resource list changed when a store is created', async () => {
    const c = await connect('lister');
    let changed = 0;
    c.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changed++;
    });
    // Notifications outside a request travel on the session's GET stream: give it a moment.
    await new Promise((r) => setTimeout(r, 200));
    await person().call('store.create', { name: 'listed' });
    await until(() => changed > 0, 2000, 'list_changed');
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        'memory://map',
        'memory://changes',
        'memory://stores/listed/map',
        'memory://stores/listed/changes',
      ]),
    );
  });

  it('completes store names, tags, ids and kinds, offering only what the caller may see', async () => {
    const a = await connect('completer');
    const other = await connect('other-agent');
    await call(a, 'remember', {
      content: 'Billing retries failed charges three times.',
      tags: ['billing', 'billing-retries'],
    });
    await call(a, 'remember', { content: 'Biking club on Fridays.', tags: ['bikes'] });
    await call(other, 'remember', {
      content: 'Private note of another agent.',
      tags: ['billing-secret'],
      visibility: 'private',
    });
    const complete = async (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
      value: string,
      context?: Record<string, string>,
    ) =>
      (
        await a.complete({
          ref,
          argument: { name, value },
          ...(context ? { context: { arguments: context } } : {}),
        })
      ).completion;
    const tags = await complete({ type: 'ref/prompt', name: 'topic' }, 'tag', 'bil');
    expect(tags.values.sort()).toEqual(['billing', 'billing-retries']);
    expect(tags.hasMore).toBe(false);
    const kinds = await complete({ type: 'ref/prompt', name: 'topic' }, 'kind', 'pro');
    expect(kinds.values).toEqual(['procedural', 'prospective']);
    const stores = await complete({ type: 'ref/prompt', name: 'bootstrap' }, 'store', 'sl');
    expect(stores.values).toEqual(['slow']);
    const latest = (await call(a, 'timeline', {})).structuredContent as {
      items?: { id: string }[];
    };
    const someId = latest.items?.[0]?.id ?? '';
    const ids = await complete(
      { type: 'ref/resource', uri: 'memory://{id}' },
      'id',
      someId.slice(0, 20).toLowerCase(),
    );
    expect(ids.values).toContain(someId);
    // Tags of another store, asked with the store chosen before.
    const none = await complete(
      { type: 'ref/resource', uri: 'memory://tags/{tag}' },
      'tag',
      'bil',
      {
        store: 'listed',
      },
    );
    expect(none.values).toEqual([]);
    // An argument without a set of values, and refs that are not Loci's.
    expect(
      (await complete({ type: 'ref/prompt', name: 'bootstrap' }, 'max_tokens', '4')).values,
    ).toEqual([]);
    await expect(
      complete({ type: 'ref/prompt', name: 'test_prompt_with_arguments' }, 'arg1', 'x'),
    ).rejects.toThrow(/Unknown prompt/);
    await expect(
      complete({ type: 'ref/resource', uri: 'test://template/{id}/data' }, 'id', 'x'),
    ).rejects.toThrow(/Unknown resource template/);
  });

  it('reads tags, kinds and other stores as resources, and gives the topic prompt', async () => {
    const c = await connect('reader');
    await call(c, 'remember', {
      content: 'Use pnpm, never npm, in the web repo.',
      tags: ['tooling'],
      kind: 'procedural',
    });
    const byTag = JSON.parse(
      ((await c.readResource({ uri: 'memory://tags/tooling' })).contents[0] as { text: string })
        .text,
    ) as { memories: { title: string; uri: string }[] };
    expect(byTag.memories.map((m) => m.title)).toEqual(['Use pnpm, never npm, in the web repo.']);
    expect(byTag.memories[0]!.uri).toMatch(/^memory:\/\/[0-9A-Z]{26}$/);
    const byKind = JSON.parse(
      ((await c.readResource({ uri: 'memory://kinds/procedural' })).contents[0] as { text: string })
        .text,
    ) as { total: number };
    expect(byKind.total).toBeGreaterThan(0);
    const otherMap = await c.readResource({ uri: 'memory://stores/listed/map' });
    expect(otherMap.contents[0]).toMatchObject({ mimeType: 'text/plain' });
    await expect(c.readResource({ uri: 'memory://stores/nope/map' })).rejects.toThrow();
    await expect(c.readResource({ uri: 'memory://kinds/loud' })).rejects.toThrow(/memory kind/);

    const topic = await c.getPrompt({ name: 'topic', arguments: { tag: 'tooling' } });
    const text = (topic.messages[0]!.content as { text: string }).text;
    expect(text).toContain('Use pnpm, never npm');
    expect(text).toContain('#tooling');
    const nothing = await c.getPrompt({ name: 'topic', arguments: { tag: 'nothing-here' } });
    expect((nothing.messages[0]!.content as { text: string }).text).toMatch(/nothing tagged/);
  });
});
