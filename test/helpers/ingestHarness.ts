// The harness of the ingestion tests: the fixture corpus (built once per test file in a
// temporary folder), engines closed after each test, and helpers to read a report and
// list what a batch made.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { IngestFileReport, IngestReport, LociClient } from '../../src/shared/api';
import { buildCorpus, type Corpus } from '../fixtures/ingest/corpus';
import { openTestEngine, tempDir, type TestEngine } from './engine';

/** The temporary folder holding the corpus, and the corpus (set before the first test). */
export let base: string;
export let corpus: Corpus;
const engines: TestEngine[] = [];

/** Builds the corpus before the file's tests and closes every engine after each. */
export function useIngestCorpus(): void {
  beforeAll(async () => {
    base = tempDir('loci-ingest-');
    corpus = await buildCorpus(base);
  }, 120_000);
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  afterEach(async () => {
    for (const t of engines.splice(0)) await t.close();
  });
}

/** An engine closed after the test. */
export async function open(
  options: Parameters<typeof openTestEngine>[0] = {},
): Promise<TestEngine> {
  const t = await openTestEngine(options);
  engines.push(t);
  return t;
}

export const byPath = (r: IngestReport, rel: string): IngestFileReport => {
  const f = r.files.find((x) => x.path === join(corpus.root, rel) || x.path === rel);
  if (!f) throw new Error(`no report for ${rel}: ${r.files.map((x) => x.path).join(', ')}`);
  return f;
};

export async function memoriesTagged(
  client: LociClient,
  tag: string,
  deleted: 'exclude' | 'include' = 'exclude',
) {
  const r = await client.call('memory.list', { tags: [tag], trust: 'any', deleted, limit: 500 });
  return r.items;
}

/** A small folder of its own (tests that change files must not touch the shared corpus). */
export function folder(files: Record<string, string>): string {
  const dir = tempDir('loci-ingest-own-');
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}
