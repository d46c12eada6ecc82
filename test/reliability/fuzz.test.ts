// Fuzzing with fast-check (issue 10, item 7). Every method of the contract is called
// through the in-process client with arbitrary JSON and with type-jumbled values under
// its schema's own field names (so calls get past the unknown-field check and reach the
// handlers): each call must settle within its budget, and a failure must be a LociError
// with a documented code other than `internal` — never another exception. Then the ingestion parsers (random
// bytes and mutated real files of each format), the recogniser and the audit
// canonicaliser. FUZZ_RUNS scales every property (default 3 for CI; the full form:
// `FUZZ_RUNS=60 npx vitest run test/reliability/fuzz.test.ts`).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type z } from 'zod';
import { methods, type MethodName } from '../../src/shared/api';
import { ERROR_CODES, LociError } from '../../src/shared/errors';
import { canonicalJson } from '../../src/main/engine/audit/chain';
import { parseFile } from '../../src/main/engine/ingest/parse';
import type { IngestFormat } from '../../src/shared/api';
import { Recognizer } from '../../src/main/engine/recall/recognizer';
import { openTestEngine, tempDir, type TestEngine } from '../helpers/engine';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3);
const BUDGET_MS = 10_000;

/** Methods left out, each with its reason. */
const SKIPPED: Partial<Record<MethodName, string>> = {
  'models.install': 'downloads a model over the network',
  'store.backup':
    'writes a file wherever an absolute `to` points; its argument checks are in test/reliability/backup.test.ts',
};

let t: TestEngine;
const ids: string[] = [];
beforeAll(async () => {
  // Anything a method might write relative to the working directory lands here.
  process.chdir(tempDir('loci-fuzz-cwd-'));
  t = await openTestEngine({ setupHome: tempDir('loci-fuzz-home-') });
  for (const content of [
    'The deploy script lives in tools/deploy.sh and needs the VPN.',
    'Prefer pnpm over npm in this repository.',
    'Incident 2031: the cache filled the disk.',
  ])
    ids.push((await t.cli.call('memory.remember', { content })).id);
});
afterAll(async () => {
  await t.close();
});

function withBudget<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what} did not settle in ${BUDGET_MS} ms`)),
        BUDGET_MS,
      );
    }),
  ]);
}

/** Values of every JSON type, with strings that matter here (ids, paths, injection). */
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    '',
    'default',
    '../../etc/passwd',
    '/etc/passwd',
    "'; DROP TABLE memory; --",
    '\u0000',
    'a'.repeat(70_000),
    -1,
    0,
    1e308,
    Number.MAX_SAFE_INTEGER,
    true,
    '2026-13-45T99:99:99Z',
    '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  ),
  fc.constantFrom(...['x']).chain(() => fc.constantFrom(...(ids.length ? ids : ['x']))),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 12 }), { maxLength: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function fieldNames(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

function argsFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const names = fieldNames(schema);
  const jumbled =
    names.length > 0
      ? fc
          .array(fc.tuple(fc.constantFrom(...names), value), { maxLength: names.length + 1 })
          .map((pairs) =>
            Object.fromEntries(pairs.filter(([k]) => k !== 'store' || Math.random() < 0.2)),
          )
      : fc.constant({});
  return fc.oneof(
    { weight: 4, arbitrary: jumbled },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 4 }) },
  );
}

describe('every API method under arbitrary arguments', () => {
  const names = (Object.keys(methods) as MethodName[]).filter((m) => !SKIPPED[m]);
  it(
    `settles every call with a result or a LociError (${names.length} methods)`,
    { timeout: 240_000 },
    async () => {
      const outcomes = { ok: 0, rejected: 0 };
      for (const method of names) {
        const schema = methods[method].schema as z.ZodType;
        await fc.assert(
          fc.asyncProperty(argsFor(schema), async (args) => {
            try {
              await withBudget(t.cli.call(method, args as never), method);
              outcomes.ok++;
            } catch (err) {
              if (!(err instanceof LociError)) {
                throw new Error(
                  `${method}(${JSON.stringify(args).slice(0, 300)}) threw a non-LociError: ${(err as Error).stack}`,
                );
              }
              expect(ERROR_CODES).toContain(err.code);
              expect(err.message.length).toBeGreaterThan(0);
              // `internal` is what an exception Loci did not foresee becomes: a bug here.
              if (err.code === 'internal') {
                throw new Error(
                  `${method}(${JSON.stringify(args).slice(0, 300)}) failed inside Loci (internal); the warning above has the stack`,
                );
              }
              outcomes.rejected++;
            }
          }),
          { numRuns: 12 * RUNS, seed: 4242 },
        );
      }
      // The store survived it all.
      const verify = await t.cli.call('audit.verify', {});
      expect(verify.ok).toBe(true);
      expect(outcomes.rejected).toBeGreaterThan(0);
      expect(outcomes.ok).toBeGreaterThan(0);
    },
  );
});

describe('the ingestion parsers under hostile bytes', () => {
  const samples: Record<IngestFormat, string> = {
    markdown: '# Title\n\nSome *text* with [a link](x).\n\n## Part\n\n- item\n',
    text: 'Plain text.\n\nSecond paragraph.\n',
    code: 'export function f(a: number) {\n  return a + 1;\n}\n',
    json: '{"a": [1, 2, {"b": "c"}], "d": null}',
    jsonl: '{"a": 1}\n{"b": [2]}\n',
    csv: 'name,value\nalpha,1\nbeta,2\n',
    html: '<html><head><title>T</title></head><body><p>Hi<script>x()</script></p></body></html>',
    pdf: '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF',
    docx: 'PK\u0003\u0004 not really a zip',
  } as Record<IngestFormat, string>;
  const formats = Object.keys(samples) as IngestFormat[];

  it(
    'parse or fail with an Error, within budget, never past the chunk cap',
    { timeout: 120_000 },
    async () => {
      const bytes = fc.oneof(
        fc.uint8Array({ maxLength: 2048 }),
        fc
          .tuple(
            fc.constantFrom(...formats),
            fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
          )
          .map(([f, flips]) => {
            const b = Buffer.from(samples[f]);
            for (const [i, v] of flips) if (b.length) b[i % b.length] = v;
            return new Uint8Array(b);
          }),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...formats), bytes, async (format, data) => {
          try {
            const r = await withBudget(
              parseFile({
                bytes: data,
                format,
                name: `fuzz.${format === 'markdown' ? 'md' : format === 'code' ? 'ts' : format}`,
                chunkChars: 800,
                overlapChars: 100,
                maxChunks: 50,
                maxInflatedBytes: 1 << 20,
                maxJsonDepth: 32,
                csvRowsPerMemory: 20,
                csvSampleRows: 5,
              }),
              `parse ${format}`,
            );
            expect(r.chunks.length).toBeLessThanOrEqual(50);
            for (const c of r.chunks) expect(typeof c.text).toBe('string');
          } catch (err) {
            expect(err).toBeInstanceOf(Error);
            expect((err as Error).message).not.toMatch(/did not settle/);
            expect(String((err as Error).message).length).toBeGreaterThan(0);
          }
        }),
        { numRuns: 60 * RUNS, seed: 7 },
      );
    },
  );
});

describe('the recogniser and the audit canonicaliser', () => {
  it('the recogniser answers any query over any titles without throwing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 60 }), fc.string({ maxLength: 200 })), {
          maxLength: 30,
        }),
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        (docs, query) => {
          const r = new Recognizer();
          docs.forEach(([title, content], i) => r.add(i + 1, title, content));
          const out = r.recognize(query, () => true);
          if (out.hit) expect(out.hit.rid).toBeGreaterThan(0);
          docs.forEach((_, i) => r.remove(i + 1));
          expect(r.size).toBe(0);
        },
      ),
      { numRuns: 200 * RUNS, seed: 99 },
    );
  });

  it('canonical JSON is stable under key order and round-trips every JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        const text = canonicalJson(v);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        if (v && typeof v === 'object' && !Array.isArray(v)) {
          const reversed = Object.fromEntries(Object.entries(v).reverse());
          expect(canonicalJson(reversed)).toBe(text);
        }
      }),
      { numRuns: 300 * RUNS, seed: 5 },
    );
    // What JSON cannot carry is refused with an Error, not encoded ambiguously.
    expect(() => canonicalJson(undefined)).toThrow(/cannot be canonicalised/);
  });
});
