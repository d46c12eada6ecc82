// Ingestion on the fixture corpus (every format, the results, what each file became),
// one file all or nothing, and the size budgets.
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestReport } from '../../src/shared/api';
import { openTestEngine, type TestEngine } from '../helpers/engine';
import { GITHUB_TOKEN, prose } from '../fixtures/ingest/corpus';
import {
  corpus,
  open,
  byPath,
  memoriesTagged,
  folder,
  useIngestCorpus,
} from '../helpers/ingestHarness';

useIngestCorpus();

describe('ingest.files on the fixture corpus', () => {
  let t: TestEngine;
  let report: IngestReport;
  beforeAll(async () => {
    t = await openTestEngine();
    report = await t.cli.call('ingest.files', { paths: [corpus.root] });
  }, 120_000);
  afterAll(async () => t.close());

  it('reads every format and reports each file it skipped or refused, with the reason', () => {
    const expectFile = (rel: string, status: string, format: string | null, reason?: RegExp) => {
      const f = byPath(report, rel);
      expect({ rel, status: f.status, format: f.format }).toEqual({ rel, status, format });
      if (reason) expect(f.reason, rel).toMatch(reason);
      else expect(f.reason, rel).toBeNull();
    };
    expectFile('docs/guide.md', 'ingested', 'markdown');
    expectFile('docs/notes.txt', 'ingested', 'text');
    expectFile('src/app/handlers.ts', 'ingested', 'code');
    expectFile('src/app/server.py', 'ingested', 'code');
    expectFile('src/go/main.go', 'ingested', 'code');
    expectFile('src/rust/lib.rs', 'ingested', 'code');
    expectFile('data/users.json', 'ingested', 'json');
    expectFile('data/events.jsonl', 'ingested', 'jsonl');
    expectFile('data/team.csv', 'ingested', 'csv');
    expectFile('data/metrics.csv', 'ingested', 'csv');
    expectFile('web/page.html', 'ingested', 'html');
    expectFile('pdf/report.pdf', 'ingested', 'pdf');
    expectFile('docx/memo.docx', 'ingested', 'docx');
    expectFile('misc/quoting.csv', 'ingested', 'csv');
    expectFile('misc/latin1.txt', 'ingested', 'text');
    expectFile('misc/empty.txt', 'skipped', null, /^empty file$/);
    expectFile('misc/long-line.txt', 'failed', 'text', /more than 5000 chunks/);
    expectFile('misc/deep.json', 'failed', 'json', /nested more than 256 levels/);
    expectFile('misc/image.png', 'skipped', null, /^binary file: PNG image$/);
    expectFile('misc/blob.bin', 'skipped', null, /^binary file/);
    expectFile('pdf/corrupt.pdf', 'failed', 'pdf', /not a readable PDF/);
    expectFile('pdf/bomb.pdf', 'failed', 'pdf', /inflates past 128 MiB/);
    expectFile('docx/bomb.docx', 'failed', 'docx', /inflates past 128 MiB/);
    expectFile('misc/outside-link.txt', 'skipped', null, /outside the dropped folder/);
    expectFile('misc/inside-link.txt', 'skipped', null, /same file/);
    expectFile('.hidden-notes.md', 'skipped', null, /^hidden file$/);
    expectFile('misc/pipe.txt', 'skipped', null, /not a regular file/);
    expectFile('docs/.private', 'skipped', null, /^hidden folder$/);
    expectFile('ignored', 'skipped', null, /ignored by/);
    expectFile('build.log', 'skipped', null, /ignored by/);
    // Never read: the outside file's text is nowhere.
    expect(report.files.some((f) => f.path.includes('outside/private.txt'))).toBe(false);
    expect(byPath(report, 'misc/latin1.txt').notes.join()).toMatch(/not valid UTF-8: 4 invalid/);
    expect(byPath(report, 'misc/quoting.csv').notes.join()).toMatch(/quoting is malformed/);
    expect(byPath(report, 'data/events.jsonl').notes.join()).toMatch(/1 line is not valid JSON/);
    const t = report.totals;
    expect(t.files).toBe(report.files.length);
    expect(t.ingested + t.skipped + t.failed + t.cancelled).toBe(t.files);
    expect(t.chunks).toBe(report.files.reduce((a, f) => a + f.chunks, 0));
    expect(report.status).toBe('done');
  });

  it('makes a document memory per file and links its chunks (part_of, follows) in order', async () => {
    const f = byPath(report, 'docs/guide.md');
    expect(f.chunks).toBeGreaterThan(2);
    const doc = await t.cli.call('memory.get', { id: f.document_id as string });
    expect(doc.title).toBe('guide.md');
    expect(doc.content).toMatch(
      new RegExp(
        `^File guide\\.md\\nPath: .*docs/guide\\.md\\nFormat: markdown, ${Math.round(f.bytes / 102.4) / 10} KB, \\d+ sections, \\d+ lines; modified 20`,
      ),
    );
    expect(f.bytes).toBeGreaterThan(1000);
    expect(doc.tags).toEqual(
      expect.arrayContaining([
        'source:guide.md',
        `batch:${report.batch}`,
        'deploy',
        'ops',
        'owner:platform',
      ]),
    );
    expect(doc.source).toBe('file:guide.md');
    const around = await t.cli.call('graph.neighbors', {
      id: f.document_id as string,
      depth: 1,
      limit: 500,
    });
    const partOf = around.edges.filter((l) => l.type === 'part_of' && l.to === f.document_id);
    expect(partOf.map((l) => l.from).sort()).toEqual([...f.memory_ids].sort());
    for (let i = 1; i < f.memory_ids.length; i++) {
      const n = await t.cli.call('graph.neighbors', {
        id: f.memory_ids[i] as string,
        depth: 1,
        types: ['follows'],
      });
      expect(n.edges).toContainEqual(
        expect.objectContaining({
          from: f.memory_ids[i],
          to: f.memory_ids[i - 1],
          type: 'follows',
        }),
      );
    }
    const chunk = await t.cli.call('memory.get', { id: f.memory_ids[1] as string });
    expect(chunk.title).toMatch(/^guide\.md — /);
    expect(chunk.evidence[0]?.source).toMatch(/docs\/guide\.md, lines \d+–\d+$/);
    expect(chunk.tags).toContain('source:guide.md');
  });

  it('keeps pages of a PDF and rows of a small CSV apart, and summarises a large CSV', async () => {
    const pdf = byPath(report, 'pdf/report.pdf');
    const pages = await Promise.all(pdf.memory_ids.map((id) => t.cli.call('memory.get', { id })));
    expect(pages.map((p) => p.evidence[0]?.source?.replace(/.*, /, ''))).toEqual([
      'page 1',
      'page 2',
      'page 3',
    ]);
    expect(pages[1]?.content).toContain('Page 2 of the report.');
    const team = byPath(report, 'data/team.csv');
    expect(team.chunks).toBe(12);
    const row = await t.cli.call('memory.get', { id: team.memory_ids[3] as string });
    expect(row.content).toBe(
      'Row 4: name: person 3; role: engineer; notes: likes vector, and "quotes"',
    );
    const metrics = byPath(report, 'data/metrics.csv');
    const schema = await t.cli.call('memory.get', { id: metrics.memory_ids[0] as string });
    expect(schema.content).toMatch(/^Table of 1500 rows and 4 columns\.\nday \(date\)/);
    expect(schema.content).toContain('requests (integer)');
  });

  it('drops scripts, styles and hidden elements from HTML', async () => {
    const html = byPath(report, 'web/page.html');
    const texts = await Promise.all(
      [html.document_id as string, ...html.memory_ids].map(
        async (id) => (await t.cli.call('memory.get', { id })).content,
      ),
    );
    const all = texts.join('\n');
    expect(all).toContain('Rollback');
    expect(all).toContain('Second step');
    for (const hidden of [
      'SCRIPT-TEXT',
      'color:red',
      'HIDDEN-ATTR-TEXT',
      'HIDDEN-STYLE-TEXT',
      'ARIA-HIDDEN-TEXT',
      'NOSCRIPT-TEXT',
    ])
      expect(all).not.toContain(hidden);
  });

  it('quarantines a secret found in a file, exactly as remember does', async () => {
    const f = byPath(report, 'docs/credentials.md');
    expect(f.quarantined).toBeGreaterThan(0);
    const chunk = await t.cli.call('memory.get', { id: f.memory_ids[0] as string });
    expect(chunk.trust).toBe('quarantined');
    const agent = t.agent('cursor');
    const seen = await agent.call('memory.recall', { query: 'release bot pushes main' });
    expect(seen.results.map((r) => r.id)).not.toContain(f.memory_ids[0]);
    expect(JSON.stringify(seen)).not.toContain(GITHUB_TOKEN);
  });

  it('skips a file already ingested and unchanged, and lists the batches', async () => {
    const again = await t.cli.call('ingest.files', { paths: [join(corpus.root, 'docs/guide.md')] });
    expect(again.files[0]).toMatchObject({
      status: 'skipped',
      document_id: byPath(report, 'docs/guide.md').document_id,
    });
    expect(again.files[0]?.reason).toMatch(/already in the store, unchanged/);
    const list = await t.cli.call('ingest.list', {});
    expect(list.batches.map((b) => b.batch)).toEqual([again.batch, report.batch]);
    expect(list.batches[1]).toMatchObject({ status: 'done', actor: 'cli', roots: [corpus.root] });
  });
});

describe('one file, all or nothing', () => {
  it('a failure in the middle of a file leaves nothing of it, and the others are written', async () => {
    const dir = folder({ 'a.md': `# A\n\n${prose(80, 2)}`, 'b.md': `# B\n\n${prose(10, 3)}` });
    const t = await open({
      ingest: {
        hooks: {
          beforeLinks: (file, i) => {
            if (file.endsWith('a.md') && i === 2) throw new Error('disk full (simulated)');
          },
        },
      },
    });
    const r = await t.cli.call('ingest.files', { paths: [dir] });
    expect(byPath(r, join(dir, 'a.md'))).toMatchObject({
      status: 'failed',
      chunks: 0,
      document_id: null,
    });
    expect(byPath(r, join(dir, 'a.md')).reason).toMatch(/nothing of it was written: disk full/);
    expect(byPath(r, join(dir, 'b.md')).status).toBe('ingested');
    expect(await memoriesTagged(t.cli, 'source:a.md', 'include')).toEqual([]);
    expect((await memoriesTagged(t.cli, 'source:b.md')).length).toBeGreaterThan(0);
    const db = (await t.engine.store(undefined)).db;
    const orphans = db
      .prepare(
        'SELECT COUNT(*) AS n FROM link l LEFT JOIN memory m ON m.rid = l.src WHERE m.rid IS NULL',
      )
      .get() as { n: number };
    expect(orphans.n).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-reads a file that changed while it was read, and refuses one that keeps changing', async () => {
    const dir = folder({
      'once.md': `# Once\n\n${prose(5, 1)}`,
      'always.md': `# Always\n\n${prose(5, 2)}`,
    });
    const t = await open({
      ingest: {
        hooks: {
          afterRead: (file, attempt) => {
            if (file.endsWith('always.md') || attempt === 1)
              appendFileSync(file, '\nmore text appended meanwhile');
          },
        },
      },
    });
    const r = await t.cli.call('ingest.files', { paths: [dir] });
    expect(byPath(r, join(dir, 'once.md')).status).toBe('ingested');
    const doc = await t.cli.call('memory.get', {
      id: byPath(r, join(dir, 'once.md')).memory_ids[0] as string,
    });
    expect(doc.content).toContain('more text appended meanwhile');
    expect(byPath(r, join(dir, 'always.md'))).toMatchObject({ status: 'failed' });
    expect(byPath(r, join(dir, 'always.md')).reason).toMatch(
      /changed while it was being read \(twice\)/,
    );
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('budgets', () => {
  it('a file past its time budget fails, and the engine goes on', async () => {
    const t = await open({ ingest: { limits: { fileTimeoutMs: 1 } } });
    const r = await t.cli.call('ingest.files', { paths: [join(corpus.root, 'pdf/report.pdf')] });
    expect(r.files[0]).toMatchObject({ status: 'failed' });
    expect(r.files[0]?.reason).toMatch(
      /took longer than 0 s to parse \(the per-file time budget\)/,
    );
    const m = await t.cli.call('memory.remember', {
      content: 'The engine still answers after a parser was stopped.',
    });
    expect(m.duplicate).toBe(false);
  });

  it('a file past the parser heap budget fails, and the next file is read by a fresh worker', async () => {
    const dir = folder({
      'huge.json': JSON.stringify(
        Array.from({ length: 400_000 }, (_, i) => ({ i, v: `value ${i}`, w: [i, i + 1] })),
      ),
      'small.md': `# Small\n\n${prose(4, 9)}`,
    });
    const t = await open({ ingest: { limits: { workerHeapMb: 48, maxChunksPerFile: 1_000_000 } } });
    const r = await t.cli.call('ingest.files', {
      paths: [join(dir, 'huge.json'), join(dir, 'small.md')],
    });
    expect(byPath(r, join(dir, 'huge.json')).status).toBe('failed');
    expect(byPath(r, join(dir, 'huge.json')).reason).toMatch(
      /memory budget \(48 MB\)|ran out of room/,
    );
    expect(byPath(r, join(dir, 'small.md')).status).toBe('ingested');
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
