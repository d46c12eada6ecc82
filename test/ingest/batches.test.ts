// Ingestion batches (cancel, undo, redo, re-ingest), uploads from the observatory, the
// allowed folders and the MCP tool ingest_file, an agent's file with a secret, and
// `loci ingest`.
import {
  utimesSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { IngestFileReport, IngestReport } from '../../src/shared/api';
import { createInProcessClient } from '../../src/main/api';
import { startDaemon } from '../../src/main/daemon';
import { buildMcpServer } from '../../src/main/mcp/server';
import { cli } from '../helpers/cli';
import { openTestEngine, tempDir, type TestEngine } from '../helpers/engine';
import { GITHUB_TOKEN, prose } from '../fixtures/ingest/corpus';
import { corpus, open, memoriesTagged, folder, useIngestCorpus } from '../helpers/ingestHarness';

useIngestCorpus();

describe('batches', () => {
  it('cancels between files: what is written stays, the rest is reported cancelled', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`n${i}.md`] = `# Note ${i}\n\n${prose(6, i + 50)}`;
    const dir = folder(files);
    const t = await open();
    const batch = '01JD0000000000000000000001';
    const off = t.engine.events.on('ingest.progressed', (p) => {
      if (p.phase === 'file-done' && p.file_index === 1)
        void t.cli.call('ingest.cancel', { batch });
    });
    const r = await t.cli.call('ingest.files', { paths: [dir], batch });
    off();
    expect(r.status).toBe('cancelled');
    expect(r.totals.ingested).toBe(2);
    expect(r.totals.cancelled).toBe(4);
    expect(
      r.files
        .filter((f) => f.status === 'cancelled')
        .every((f) => /cancelled/.test(f.reason ?? '')),
    ).toBe(true);
    expect((await memoriesTagged(t.cli, `batch:${batch}`)).length).toBe(4);
    expect((await t.cli.call('ingest.list', {})).batches[0]).toMatchObject({
      batch,
      status: 'cancelled',
    });
    expect(await t.cli.call('ingest.cancel', { batch })).toEqual({ batch, cancelled: false });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a cancel while a file is being parsed stops it, and nothing of that file is written', async () => {
    const t = await open();
    const batch = '01JD0000000000000000000002';
    const off = t.engine.events.on('ingest.progressed', (p) => {
      if (p.phase === 'file' && p.file_index === 0) void t.cli.call('ingest.cancel', { batch });
    });
    const r = await t.cli.call('ingest.files', {
      paths: [join(corpus.root, 'pdf/report.pdf'), join(corpus.root, 'docs/notes.txt')],
      batch,
    });
    off();
    expect(r.files.map((f) => f.status)).toEqual(['cancelled', 'cancelled']);
    expect(r.files[0]?.reason).toMatch(/cancelled while this file was read/);
    expect(await memoriesTagged(t.cli, `batch:${batch}`, 'include')).toEqual([]);
    // The parser was stopped, not left behind: the next import reads PDFs again.
    const again = await t.cli.call('ingest.files', {
      paths: [join(corpus.root, 'pdf/report.pdf')],
    });
    expect(again.files[0]?.status).toBe('ingested');
  });

  it('announces its progress: scanning, each file and its chunks, then the totals', async () => {
    const dir = folder({ 'a.md': `# A\n\n${prose(10, 31)}`, 'b.txt': prose(6, 32), 'c.png': '' });
    const t = await open();
    const seen: string[] = [];
    const off = t.engine.events.on('ingest.progressed', (p) => {
      seen.push(`${p.phase}:${p.file ? p.file.slice(dir.length + 1) : '-'}:${p.status ?? ''}`);
      if (p.phase === 'finished')
        expect(p.totals).toMatchObject({ files: 3, ingested: 2, skipped: 1 });
    });
    await t.cli.call('ingest.files', { paths: [dir] });
    off();
    expect(seen[0]).toBe('scanning:-:');
    expect(seen.at(-1)).toBe('finished:-:');
    expect(seen.filter((s) => s.startsWith('file:') || s.startsWith('file-done:'))).toEqual([
      'file:a.md:',
      'file-done:a.md:ingested',
      'file:b.txt:',
      'file-done:b.txt:ingested',
      'file:c.png:',
      'file-done:c.png:skipped',
    ]);
    expect(seen.some((s) => s.startsWith('chunk:a.md'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('undoes a batch in one action and redoes it, audited, with events', async () => {
    const dir = folder({ 'x.md': `# X\n\n${prose(30, 5)}`, 'y.txt': prose(8, 6) });
    const t = await open();
    const events: string[] = [];
    t.engine.events.on('ingest.changed', (e) => events.push(`${e.batch}:${e.status}`));
    const r = await t.cli.call('ingest.files', { paths: [dir], tags: ['project-x'] });
    const live = await memoriesTagged(t.cli, `batch:${r.batch}`);
    expect(live.length).toBe(r.totals.memories);
    expect(live.every((m) => m.tags.includes('project-x'))).toBe(true);
    const undo = await t.cli.call('ingest.undo', { batch: r.batch });
    expect(undo).toMatchObject({ status: 'undone', memories: r.totals.memories });
    expect(await memoriesTagged(t.cli, `batch:${r.batch}`)).toEqual([]);
    await expect(t.cli.call('ingest.undo', { batch: r.batch })).rejects.toMatchObject({
      code: 'conflict',
    });
    const redo = await t.cli.call('ingest.redo', { batch: r.batch });
    expect(redo).toMatchObject({ status: 'done', memories: r.totals.memories });
    expect((await memoriesTagged(t.cli, `batch:${r.batch}`)).length).toBe(r.totals.memories);
    expect(events).toEqual([`${r.batch}:undone`, `${r.batch}:done`]);
    const store = await t.engine.store(undefined);
    const actions = (
      store.db
        .prepare("SELECT action FROM audit WHERE action LIKE 'ingest.%' ORDER BY seq")
        .all() as { action: string }[]
    ).map((a) => a.action);
    expect(actions).toEqual(['ingest.batch', 'ingest.undo', 'ingest.redo']);
    await expect(
      t.cli.call('ingest.undo', { batch: '01JD0000000000000000000009' }),
    ).rejects.toMatchObject({ code: 'not-found' });
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('uploads', () => {
  it('stages files, ingests them as one folder with relative paths, then removes the staging', async () => {
    const t = await open();
    const upload = '01JD0000000000000000000100';
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    await t.cli.call('ingest.upload', {
      upload,
      path: 'notes/a.md',
      content_base64: b64(`# A\n\n${prose(4, 1)}`),
      modified: Date.parse('2025-05-01T00:00:00Z'),
    });
    const second = await t.cli.call('ingest.upload', {
      upload,
      path: 'notes/deep/b.txt',
      content_base64: b64(prose(4, 2)),
    });
    expect(second).toMatchObject({ upload, path: 'notes/deep/b.txt', files: 2 });
    await expect(
      t.cli.call('ingest.upload', { upload, path: '../escape.md', content_base64: b64('x') }),
    ).rejects.toMatchObject({ code: 'invalid-args' });
    await expect(
      t.cli.call('ingest.upload', { upload, path: 'bad.md', content_base64: '***' }),
    ).rejects.toMatchObject({ code: 'invalid-args' });
    const r = await t.cli.call('ingest.files', { upload });
    expect(r.files.map((f) => [f.path, f.status])).toEqual([
      ['notes/a.md', 'ingested'],
      ['notes/deep/b.txt', 'ingested'],
    ]);
    const doc = await t.cli.call('memory.get', { id: r.files[0]?.document_id as string });
    expect(doc.content).toContain('modified 2025-05-01T00:00:00.000Z');
    expect((await t.cli.call('ingest.list', {})).batches[0]?.roots).toEqual(['notes']);
    expect(existsSync(join(t.dir, 'ingest-staging', upload))).toBe(false);
    await expect(t.cli.call('ingest.files', { upload })).rejects.toMatchObject({
      code: 'not-found',
    });
    await expect(t.agent('cursor').call('ingest.files', { upload })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('clears staging folders older than a day when the engine starts', async () => {
    const dataDir = tempDir('loci-ingest-stale-');
    const stale = join(dataDir, 'ingest-staging', '01JD0000000000000000000300');
    const fresh = join(dataDir, 'ingest-staging', '01JD0000000000000000000301');
    mkdirSync(stale, { recursive: true });
    mkdirSync(fresh, { recursive: true });
    writeFileSync(join(stale, 'a.txt'), 'left behind two days ago');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    await open({ dataDir });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('refuses an upload past its total size, by name', async () => {
    const t = await open({ ingest: { limits: { maxUploadBytes: 1000 } } });
    const upload = '01JD0000000000000000000200';
    await t.cli.call('ingest.upload', {
      upload,
      path: 'a.txt',
      content_base64: Buffer.alloc(600, 97).toString('base64'),
    });
    await expect(
      t.cli.call('ingest.upload', {
        upload,
        path: 'b.txt',
        content_base64: Buffer.alloc(600, 98).toString('base64'),
      }),
    ).rejects.toThrow(/this upload would stage 1\.2 KB; one upload may stage at most 1000 B/);
    expect(readdirSync(join(t.dir, 'ingest-staging', upload))).toEqual(['a.txt']);
    // Two at once cannot both pass the limit.
    const other = '01JD0000000000000000000201';
    const both = await Promise.allSettled(
      ['x.txt', 'y.txt'].map((path) =>
        t.cli.call('ingest.upload', {
          upload: other,
          path,
          content_base64: Buffer.alloc(600, 99).toString('base64'),
        }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });
});

describe('allowed folders and the MCP tool ingest_file', () => {
  async function connect(t: TestEngine): Promise<Client> {
    const server = buildMcpServer({
      backend: { handlers: t.handlers, activity: t.engine.activity },
      transport: 'in-memory',
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 'Test Agent', version: '1.0.0' });
    await client.connect(b);
    return client;
  }
  const call = async (c: Client, args: Record<string, unknown>) =>
    (await c.callTool({ name: 'ingest_file', arguments: args })) as CallToolResult & {
      structuredContent: Record<string, unknown>;
    };
  const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

  it('refuses paths outside the allowed folders, reads inside them, and never follows a link out', async () => {
    const allowed = folder({ 'team/notes.md': `# Team\n\n${prose(5, 11)}` });
    symlinkSync(corpus.outside, join(allowed, 'team/escape.txt'));
    const t = await open();
    const c = await connect(t);
    const refused = await call(c, { path: join(corpus.root, 'docs/guide.md') });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /outside the folders agents may ingest from \(none is allowed yet\)/,
    );
    expect(text(refused)).toMatch(/Settings → allowed folders/);
    expect(text(refused)).toMatch(/loci ingest allow <folder>/);
    await expect(t.cli.call('ingest.setFolders', { folders: ['relative/path'] })).rejects.toThrow(
      /not an absolute path/,
    );
    await expect(
      t.cli.call('ingest.setFolders', { folders: [join(allowed, 'nope')] }),
    ).rejects.toThrow(/does not exist/);
    await expect(
      t.cli.call('ingest.setFolders', { folders: [join(allowed, 'team/notes.md')] }),
    ).rejects.toThrow(/is a file, not a folder/);
    await expect(
      t.agent('cursor').call('ingest.setFolders', { folders: [allowed] }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    expect(await t.cli.call('ingest.setFolders', { folders: [allowed] })).toEqual({
      folders: [allowed],
    });
    expect(await t.cli.call('ingest.folders', {})).toEqual({ folders: [allowed] });
    const ok = await call(c, { path: join(allowed, 'team') });
    expect(ok.isError).toBeFalsy();
    expect(text(ok)).toMatch(/1 file ingested/);
    expect(text(ok)).toMatch(/escape\.txt: skipped — a link leading outside/);
    const doc = await t.cli.call('memory.get', {
      id: (ok.structuredContent.files as { document_id: string; status: string }[]).find(
        (f) => f.status === 'ingested',
      )?.document_id as string,
    });
    expect(doc.source).toBe('file:notes.md');
    // Outside the folders, an existing and a missing path get the same answer, which
    // does not list the allowed folders.
    const existing = await call(c, { path: join(corpus.root, 'docs/guide.md') });
    const missing = await call(c, { path: join(corpus.root, 'docs/no-such-file.md') });
    expect(text(existing).replace('guide.md', 'X')).toBe(
      text(missing).replace('no-such-file.md', 'X'),
    );
    expect(text(existing)).not.toContain(allowed);
    const link = await call(c, { path: join(allowed, 'team/escape.txt') });
    expect(link.isError).toBe(true);
    expect(text(link)).toMatch(/outside the folders agents may ingest from/);
    const relative = await call(c, { path: 'team/notes.md' });
    expect(relative.isError).toBe(true);
    expect(text(relative)).toMatch(/not an absolute path/);
    await c.close();
    // Persisted in config.json.
    await t.engine.close();
    const again = await openTestEngine({ dataDir: t.dir });
    expect(await again.cli.call('ingest.folders', {})).toEqual({ folders: [allowed] });
    await again.engine.close();
    rmSync(allowed, { recursive: true, force: true });
  });
});

describe('an agent ingesting a file with a secret', () => {
  it("writes it quarantined, linked, and out of the agent's sight", async () => {
    const dir = folder({
      'bot.md': `# Bot\n\n${prose(12, 21)}\n\nThe bot token is ${GITHUB_TOKEN} for now.\n\n${prose(12, 22)}`,
    });
    const t = await open();
    await t.cli.call('ingest.setFolders', { folders: [dir] });
    const agent = t.agent('cursor');
    const r = await agent.call('ingest.files', { paths: [join(dir, 'bot.md')], chunk_tokens: 64 });
    const f = r.files[0] as IngestFileReport;
    expect(f.status).toBe('ingested');
    expect(f.quarantined).toBeGreaterThan(0);
    expect(f.quarantined).toBeLessThan(f.chunks + 1);
    const everything = await memoriesTagged(t.cli, `batch:${r.batch}`);
    expect(everything.filter((m) => m.trust === 'quarantined').length).toBe(f.quarantined);
    const seen = await memoriesTagged(agent, `batch:${r.batch}`);
    expect(seen.length).toBe(everything.length - f.quarantined);
    const links = await t.cli.call('graph.neighbors', {
      id: f.document_id as string,
      depth: 1,
      limit: 500,
    });
    expect(links.edges.filter((e) => e.type === 'part_of')).toHaveLength(f.chunks);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('loci ingest', () => {
  it('ingests with a summary table, lists, undoes and redoes', async () => {
    const home = tempDir('loci-cli-ingest-');
    const dir = folder({ 'guide.md': `# Guide\n\n${prose(20, 8)}` });
    writeFileSync(
      join(dir, 'pic.png'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]),
    );
    const human = await cli(home, ['ingest', dir, '--tags', 'docs,team']);
    expect(human.stderr).toBe('');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/status +format +chunks +file +reason/);
    expect(human.stdout).toMatch(/ingested +markdown +\d+ +.*guide\.md/);
    expect(human.stdout).toMatch(/skipped +— +— +.*pic\.png +binary file: PNG image/);
    const batch = /Undo it with: loci ingest undo (\w+)/.exec(human.stdout)?.[1] as string;
    expect(batch).toMatch(/^[0-9A-Z]{26}$/);
    const list = JSON.parse((await cli(home, ['ingest', 'list', '--json'])).stdout);
    expect(list.batches[0]).toMatchObject({ batch, status: 'done' });
    const undo = await cli(home, ['ingest', 'undo', batch]);
    expect(undo.stdout).toMatch(/Undone: batch \w+, \d+ memories forgotten/);
    expect((await cli(home, ['ingest', 'redo', batch])).stdout).toMatch(/Redone/);
    const json = JSON.parse((await cli(home, ['ingest', join(dir, 'guide.md'), '--json'])).stdout);
    expect(json.files[0]).toMatchObject({ status: 'skipped' });
    const allow = await cli(home, ['ingest', 'allow', dir]);
    expect(allow.stdout).toContain(`Agents may ingest from:\n  ${dir}`);
    const bad = await cli(home, ['ingest', 'disallow', '/nowhere']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not an allowed folder/);
    expect((await cli(home, ['ingest', dir, '--chunk-tokens', '5'])).stderr).toMatch(
      /chunk_tokens/,
    );
    rmSync(home, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it('forwards to the daemon that owns the data directory, which reads the files', async () => {
    const home = tempDir('loci-cli-daemon-');
    const dir = folder({ 'plan.md': `# Plan\n\n${prose(8, 61)}` });
    const daemon = await startDaemon({ dataDir: home, port: 0, env: {} });
    try {
      const r = await cli(home, ['ingest', dir, '--json']);
      expect(r.stderr).toBe('');
      const report = JSON.parse(r.stdout) as IngestReport;
      expect(report.files[0]).toMatchObject({ status: 'ingested', format: 'markdown' });
      const inDaemon = createInProcessClient(daemon.handlers, { actor: { kind: 'cli' } });
      const seen = await memoriesTagged(inDaemon, `batch:${report.batch}`);
      expect(seen.length).toBe(report.totals.memories);
    } finally {
      await daemon.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
