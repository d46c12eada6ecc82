// The contract methods the observatory stands on: paging to any offset, the at-risk
// filter, reverting to a version, the Atlas graph, the Overview figures, store renames,
// the activity feed's payloads, system info and token rotation.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from '../src/main/daemon';
import { createHttpClient } from '../src/main/http/client';
import { LOCI_VERSION } from '../src/shared/version';
import { openTestEngine, tempDir, type TestEngine } from './helpers/engine';

const engines: TestEngine[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
async function open() {
  const t = await openTestEngine();
  engines.push(t);
  return t;
}
const DAY = 86_400_000;

describe('memory.list for a list that jumps anywhere', () => {
  it('pages by offset in the same order as by cursor, with the total', async () => {
    const t = await open();
    for (let i = 0; i < 25; i++) {
      t.advance(1000);
      await t.cli.call('memory.remember', { content: `Release note number ${i} for the gateway.` });
    }
    const all = (await t.cli.call('memory.list', { limit: 100 })).items.map((m) => m.id);
    const page = await t.cli.call('memory.list', { offset: 10, limit: 5 });
    expect(page.items.map((m) => m.id)).toEqual(all.slice(10, 15));
    expect(page.total).toBe(25);
    const end = await t.cli.call('memory.list', { offset: 23, limit: 5 });
    expect(end.items.map((m) => m.id)).toEqual(all.slice(23));
    expect(end.next_cursor).toBeNull();
    await expect(
      t.cli.call('memory.list', { offset: 1, cursor: page.next_cursor ?? 'x' }),
    ).rejects.toMatchObject({
      code: 'invalid-args',
      message: expect.stringMatching(/either cursor or offset/),
    });
  });

  it('finds the memories at risk of being forgotten, never the pinned ones', async () => {
    const t = await open();
    const old = await t.cli.call('memory.remember', {
      content: 'The staging database is reset every Sunday.',
    });
    const pinned = await t.cli.call('memory.remember', {
      content: 'Never deploy billing on Fridays.',
      pinned: true,
    });
    // FSRS-6 forgets slowly: a memory written once and never used falls below one half
    // after about 90 times its first stability (2.3 days), some seven months.
    t.advance(400 * DAY);
    const fresh = await t.cli.call('memory.remember', {
      content: 'The new on-call rota starts on Monday.',
    });
    const atRisk = await t.cli.call('memory.list', { at_risk: true });
    expect(atRisk.items.map((m) => m.id)).toEqual([old.id]);
    // Its retrievability is indeed below one half, the fresh one's is not.
    expect((await t.cli.call('memory.get', { id: old.id })).retrievability).toBeLessThan(0.5);
    expect((await t.cli.call('memory.get', { id: fresh.id })).retrievability).toBeGreaterThan(0.5);
    expect(atRisk.items.map((m) => m.id)).not.toContain(pinned.id);
  });
});

describe('memory.revert', () => {
  it('brings back an earlier version as a new one, and says what is wrong otherwise', async () => {
    const t = await open();
    const { id } = await t.cli.call('memory.remember', {
      content: 'The cache TTL is five minutes.',
      tags: ['cache'],
    });
    await t.cli.call('memory.update', {
      id,
      content: 'The cache TTL is ten minutes.',
      tags: ['cache', 'perf'],
    });
    const r = await t.cli.call('memory.revert', { id, version: 1 });
    expect(r).toMatchObject({ version: 3 });
    const m = await t.cli.call('memory.get', { id });
    expect(m).toMatchObject({
      content: 'The cache TTL is five minutes.',
      tags: ['cache'],
      version: 3,
    });
    expect((await t.cli.call('memory.history', { id })).versions.map((v) => v.version)).toEqual([
      2, 1,
    ]);
    await expect(t.cli.call('memory.revert', { id, version: 3 })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(t.cli.call('memory.revert', { id, version: 9 })).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/no version 9 \(it has 2, 1, and 3 is current\)/),
    });
    await expect(
      t.cli.call('memory.revert', { id, version: 1, expected_version: 2 }),
    ).rejects.toMatchObject({
      code: 'conflict',
    });
  });
});

describe('graph.atlas', () => {
  it('gives nodes with kind, activation and community, and the links among them', async () => {
    const t = await open();
    const ids: string[] = [];
    for (const c of [
      'billing deploy',
      'billing rollback',
      'billing alerts',
      'vpn cert',
      'vpn rotate',
      'lonely note',
    ]) {
      ids.push(
        (await t.cli.call('memory.remember', { content: `A memory about ${c} and nothing else.` }))
          .id,
      );
    }
    const link = (a: number, b: number) =>
      t.cli.call('link.create', { from: ids[a]!, to: ids[b]!, type: 'related', weight: 0.9 });
    await link(0, 1);
    await link(1, 2);
    await link(0, 2);
    await link(3, 4);
    const a = await t.cli.call('graph.atlas', {});
    expect(a.total).toBe(6);
    expect(a.truncated).toBe(false);
    expect(a.nodes).toHaveLength(6);
    expect(a.links).toHaveLength(4);
    const c = new Map(a.nodes.map((n) => [n.id, n.community]));
    expect(c.get(ids[0]!)).toBe(c.get(ids[1]!));
    expect(c.get(ids[1]!)).toBe(c.get(ids[2]!));
    expect(c.get(ids[3]!)).toBe(c.get(ids[4]!));
    expect(c.get(ids[0]!)).not.toBe(c.get(ids[3]!));
    expect(c.get(ids[5]!)).not.toBe(c.get(ids[0]!));
    // Numbered by size: the three billing memories are community 0.
    expect(c.get(ids[0]!)).toBe(0);
    expect(a.communities).toBe(3);
    expect(a.nodes.find((n) => n.id === ids[1])).toMatchObject({
      kind: expect.any(String),
      degree: 2,
    });
    const cut = await t.cli.call('graph.atlas', { limit: 2 });
    expect(cut).toMatchObject({ total: 6, truncated: true });
    expect(cut.nodes).toHaveLength(2);
    for (const l of cut.links) {
      expect(cut.nodes.some((n) => n.id === l.from) && cut.nodes.some((n) => n.id === l.to)).toBe(
        true,
      );
    }
  });

  it('hides from an agent what it may not see', async () => {
    const t = await open();
    await t
      .agent('cursor')
      .call('memory.remember', { content: 'Cursor private scratch note.', visibility: 'private' });
    await t.cli.call('memory.remember', { content: 'A shared team convention.' });
    expect((await t.agent('zed').call('graph.atlas', {})).nodes).toHaveLength(1);
    expect((await t.cli.call('graph.atlas', {})).nodes).toHaveLength(2);
  });
});

describe('stats.overview', () => {
  it('counts memories per day, by kind and by source, and recall latencies', async () => {
    const t = await open();
    await t.cli.call('memory.remember', { content: 'Decided: we keep Postgres 15 for now.' });
    t.advance(2 * DAY);
    await t
      .agent('cursor')
      .call('memory.remember', { content: 'TODO: remind me to rotate the VPN cert.' });
    await t.cli.call('memory.remember', { content: 'The API gateway runs on port 8443.' });
    for (let i = 0; i < 3; i++) await t.cli.call('memory.recall', { query: 'gateway port' });
    const o = await t.cli.call('stats.overview', { days: 5 });
    expect(o.created_per_day).toHaveLength(5);
    expect(o.created_per_day.map((d) => d.count)).toEqual([0, 0, 1, 0, 2]);
    expect(o.created_per_day.at(-1)!.day).toBe(new Date(t.clock.now).toISOString().slice(0, 10));
    expect(Object.values(o.by_kind).reduce((a, b) => a + b, 0)).toBe(3);
    expect(o.by_source).toEqual(
      expect.arrayContaining([
        { source: 'user', count: 2 },
        { source: 'agent:cursor', count: 1 },
      ]),
    );
    expect(o.recall.count).toBe(3);
    expect(o.recall.p50_ms).toBeGreaterThan(0);
    expect(o.recall.histogram.reduce((a, b) => a + b.count, 0)).toBe(3);
    expect(o.recall.histogram.at(-1)!.le_ms).toBeNull();
  });
});

describe('store.rename', () => {
  it('moves the store with its audit keys, and keeps its memories and audit chain', async () => {
    const t = await open();
    await t.cli.call('store.create', { name: 'work' });
    const { id } = await t.cli.call('memory.remember', {
      store: 'work',
      content: 'Work store memory about deploys.',
    });
    const seen: unknown[] = [];
    const off = t.engine.events.on('store.renamed', (e) => seen.push(e));
    const info = await t.cli.call('store.rename', { name: 'work', to: 'job' });
    off();
    expect(info.name).toBe('job');
    expect(seen).toEqual([{ store: 'work', to: 'job' }]);
    expect((await t.cli.call('memory.get', { store: 'job', id })).content).toBe(
      'Work store memory about deploys.',
    );
    await expect(t.cli.call('memory.get', { store: 'work', id })).rejects.toMatchObject({
      code: 'store-not-found',
    });
    expect(existsSync(join(t.dir, 'keys', 'job.audit-keys.json'))).toBe(true);
    expect(existsSync(join(t.dir, 'keys', 'work.audit-keys.json'))).toBe(false);
    const store = await t.engine.store('job');
    const actions = (
      store.db.prepare('SELECT action FROM audit ORDER BY seq').all() as { action: string }[]
    ).map((r) => r.action);
    expect(actions.at(-1)).toBe('store.rename');
    await expect(t.cli.call('store.rename', { name: 'default', to: 'home' })).rejects.toMatchObject(
      { code: 'invalid-args' },
    );
    await t.cli.call('store.create', { name: 'other' });
    await expect(t.cli.call('store.rename', { name: 'other', to: 'job' })).rejects.toMatchObject({
      code: 'store-exists',
    });
    await expect(t.cli.call('store.rename', { name: 'nope', to: 'x' })).rejects.toMatchObject({
      code: 'store-not-found',
    });
  });
});

describe('activity payloads', () => {
  it('lists calls without payloads and gives one with exactly what the client received', async () => {
    const dir = tempDir('loci-activity-');
    dirs.push(dir);
    const daemon = await startDaemon({
      dataDir: dir,
      port: 0,
      env: {},
      engine: { embedWrites: 'await' },
    });
    try {
      const client = new Client({ name: 'Cursor', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
        }),
      );
      await client.callTool({
        name: 'remember',
        arguments: { content: 'The gateway listens on 8443.' },
      });
      const got = await client.callTool({ name: 'recall', arguments: { query: 'gateway port' } });
      await client.close();
      const api = createHttpClient({ url: daemon.url, token: daemon.token as string }, 'ui');
      const { items } = await api.call('activity.list', { limit: 10 });
      expect(items.map((i) => i.tool)).toEqual(['recall', 'remember']);
      expect(items[0]).not.toHaveProperty('result');
      const full = await api.call('activity.get', { id: items[0]!.id });
      expect(full.result).toEqual({
        text: (got.content as { text: string }[])[0]!.text,
        structured: got.structuredContent,
      });
      expect(
        (await api.call('activity.list', { after: items[1]!.id })).items.map((i) => i.id),
      ).toEqual([items[0]!.id]);
      await expect(api.call('activity.get', { id: 999 })).rejects.toMatchObject({
        code: 'not-found',
      });
    } finally {
      await daemon.close();
    }
  });
});

describe('system.info and token.rotate', () => {
  it('say where the daemon serves, and rotate the token at once', async () => {
    const dir = tempDir('loci-system-');
    dirs.push(dir);
    const daemon = await startDaemon({ dataDir: dir, port: 0, env: {} });
    try {
      const api = createHttpClient({ url: daemon.url, token: daemon.token as string }, 'ui');
      const info = await api.call('system.info', {});
      expect(info).toMatchObject({
        version: LOCI_VERSION,
        data_dir: dir,
        url: daemon.url,
        port: daemon.http.port,
        token_path: daemon.tokenPath,
        pid: process.pid,
      });
      expect(info.sqlite).toMatch(/^3\.\d+\.\d+$/);
      const rotated = await api.call('token.rotate', {});
      expect(rotated.token).not.toBe(daemon.token);
      expect(readFileSync(rotated.path, 'utf8').trim()).toBe(rotated.token);
      await expect(api.call('stats.get', {})).rejects.toMatchObject({ code: 'forbidden' });
      const renewed = createHttpClient({ url: daemon.url, token: rotated.token }, 'ui');
      expect((await renewed.call('stats.get', {})).store).toBe('default');
    } finally {
      await daemon.close();
    }
  });

  it('keeps the version in step with package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(LOCI_VERSION).toBe(pkg.version);
  });
});

describe('memory.recall as a client would', () => {
  it('shows a person what that client would get, and counts no use', async () => {
    const t = await open();
    const mine = await t.agent('cursor').call('memory.remember', {
      content: 'Cursor private note: the parser cache lives in tmp/parse-cache.',
      visibility: 'private',
    });
    await t.cli.call('memory.remember', {
      content: 'Shared note: the parser cache is cleared on deploy.',
    });
    const asCursor = await t.cli.call('memory.recall', {
      query: 'parser cache',
      as_client: 'cursor',
    });
    const asZed = await t.cli.call('memory.recall', { query: 'parser cache', as_client: 'zed' });
    expect(asCursor.results.map((r) => r.id)).toContain(mine.id);
    expect(asZed.results.map((r) => r.id)).not.toContain(mine.id);
    await t.engine.rehearsals.flush();
    expect((await t.cli.call('memory.get', { id: mine.id })).access.count).toBe(1);
    await expect(
      t.agent('cursor').call('memory.recall', { query: 'parser cache', as_client: 'zed' }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
});

describe('link.createMany', () => {
  it('makes many links in one go, or none when one cannot be made', async () => {
    const t = await open();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(
        (await t.cli.call('memory.remember', { content: `Linked memory number ${i} here.` })).id,
      );
    }
    const r = await t.cli.call('link.createMany', {
      links: [
        { from: ids[0]!, to: ids[1]!, weight: 0.7 },
        { from: ids[1]!, to: ids[2]!, type: 'causes' },
        { from: ids[0]!, to: ids[1]!, weight: 0.9 },
      ],
    });
    expect(r).toMatchObject({ created: 2, updated: 1 });
    expect((await t.cli.call('graph.atlas', {})).links).toHaveLength(2);
    const missing = '01J0000000000000000000000X';
    await expect(
      t.cli.call('link.createMany', {
        links: [
          { from: ids[2]!, to: ids[3]! },
          { from: ids[3]!, to: missing },
        ],
      }),
    ).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringMatching(/^Link 2 .*No link was made\.$/),
    });
    expect((await t.cli.call('graph.atlas', {})).links).toHaveLength(2);
  });
});
