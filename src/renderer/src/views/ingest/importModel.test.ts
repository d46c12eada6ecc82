import { describe, expect, it } from 'vitest';
import { bytesToBase64 } from './base64';
import { fileReport, progress, report } from './ingestFixtures';
import {
  applyProgress,
  applyReport,
  guessFormat,
  newRun,
  planImport,
  UPLOAD_FILE_MAX_BYTES,
} from './importModel';

const B = '01JBATCH000000000000000000';
const file = (name: string, size: number) => ({ name, size }) as File;

describe('planImport', () => {
  it('refuses here what cannot be sent, and sends the rest under unique paths', () => {
    const plan = planImport({
      files: [
        { path: 'notes.md', file: file('notes.md', 10) },
        { path: 'notes.md', file: file('notes.md', 20) },
        { path: 'big.pdf', file: file('big.pdf', UPLOAD_FILE_MAX_BYTES + 1) },
        { path: 'odd\\name.txt', file: file('odd\\name.txt', 5) },
      ],
      left: [{ path: 'src/.git/', reason: 'hidden folder, not read' }],
    });
    expect(plan.send.map((s) => s.path)).toEqual(['notes.md', 'notes (2).md']);
    const sorted = planImport({
      files: ['b/10.md', 'a.md', 'b/9.md'].map((p) => ({ path: p, file: file(p, 1) })),
      left: [],
    });
    expect(sorted.send.map((s) => s.path)).toEqual(['a.md', 'b/9.md', 'b/10.md']);
    const byPath = Object.fromEntries(plan.rows.map((r) => [r.path, r]));
    expect(byPath['big.pdf']).toMatchObject({ status: 'skipped', local: true, format: 'pdf' });
    expect(byPath['big.pdf']?.reason).toMatch(/larger than 32 MB.*loci ingest/);
    expect(byPath['odd\\name.txt']?.reason).toMatch(/backslash/);
    expect(byPath['src/.git/']).toMatchObject({
      status: 'skipped',
      reason: 'hidden folder, not read',
    });
    expect(newRun('default', 'U', B, plan)).toMatchObject({ uploadFiles: 2, uploadBytes: 30 });
  });

  it('guesses formats from extensions until the engine says', () => {
    expect(['a.md', 'b.TSX', 'c.jsonl', 'd', '.env', 'e.bin'].map(guessFormat)).toEqual([
      'markdown',
      'code',
      'jsonl',
      null,
      null,
      null,
    ]);
  });
});

describe('progress and report', () => {
  const plan = planImport({
    files: [
      { path: 'a.md', file: file('a.md', 10) },
      { path: 'b.md', file: file('b.md', 10) },
    ],
    left: [],
  });

  it('moves rows with the events and counts files done', () => {
    let run = newRun('default', 'U', B, plan);
    run = applyProgress(run, progress(B, { phase: 'file', file: 'a.md', chunks_total: 4 }));
    run = applyProgress(run, progress(B, { phase: 'chunk', file: 'a.md', chunks_done: 1 }));
    expect(run.rows[0]).toMatchObject({ status: 'reading', chunksDone: 1, chunksTotal: 4 });
    run = applyProgress(
      run,
      progress(B, { phase: 'file-done', file: 'a.md', status: 'skipped', chunks_done: 0 }),
    );
    expect(run.rows[0]?.status).toBe('skipped');
    expect(run.ingest).toMatchObject({ files: 2, filesDone: 1 });
    // A file the engine found that was not in the list gets its own row.
    run = applyProgress(run, progress(B, { phase: 'file', file: 'c.md', file_index: 1 }));
    expect(run.rows.map((r) => r.path)).toEqual(['a.md', 'b.md', 'c.md']);
  });

  it('takes the report as the final word', () => {
    const run = applyReport(
      newRun('default', 'U', B, plan),
      report(
        B,
        [fileReport('a.md', { status: 'failed', reason: 'past its time budget', notes: ['n'] })],
        'cancelled',
      ),
    );
    expect(run.phase).toBe('cancelled');
    expect(run.rows[0]).toMatchObject({
      status: 'failed',
      reason: 'past its time budget',
      notes: ['n'],
    });
    expect(run.rows[1]).toMatchObject({ status: 'cancelled' });
    const more = applyReport(
      newRun('default', 'U', B, plan),
      report(B, [fileReport('z/.hidden', { status: 'skipped', reason: 'hidden file' })]),
    );
    expect(more.rows.map((r) => [r.path, r.status])).toEqual([
      ['a.md', 'cancelled'],
      ['b.md', 'cancelled'],
      ['z/.hidden', 'skipped'],
    ]);
  });
});

describe('bytesToBase64', () => {
  it('matches btoa across slice boundaries', () => {
    for (const n of [0, 1, 2, 3, 4096, 49_151, 49_152, 49_153, 150_001]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 7919) % 256);
      let binary = '';
      for (const b of bytes) binary += String.fromCharCode(b);
      expect(bytesToBase64(bytes), `${n} bytes`).toBe(btoa(binary));
    }
  });
});
