// The built main bundle (out/main, shared by `loci` and the Electron entry) must find its
// worker entries and the observatory relative to its own files: with two entries the
// engine is a shared chunk, and a chunk in another folder would look in the wrong place.
// Runs against the last `npm run build` (CI builds first); skipped when out/ is absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const main = join(import.meta.dirname, '..', 'out', 'main');
const built = existsSync(join(main, 'cli.js'));

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? jsFiles(join(dir, e.name))
      : e.name.endsWith('.js')
        ? [join(dir, e.name)]
        : [],
  );
}

describe.skipIf(!built)('the built main bundle', () => {
  it('has every worker it starts next to the file that starts it', () => {
    const found: string[] = [];
    for (const file of jsFiles(main)) {
      const code = readFileSync(file, 'utf8');
      // Every worker is started through engine/workers.ts: spawnWorker(import.meta.url,
      // '<file>.js', './<source>.ts', …), whatever name the minifier gives spawnWorker.
      for (const m of code.matchAll(
        /[\w$]+\(import\.meta\.url,\s*["'`]([\w-]+\.js)["'`],\s*["'`]\.\/[\w/-]+\.ts["'`]/g,
      )) {
        found.push(m[1] as string);
        expect(existsSync(join(file, '..', m[1] as string)), `${m[1]} beside ${file}`).toBe(true);
      }
    }
    expect(found.sort()).toEqual([
      'auditWorker.js',
      'embedWorker.js',
      'ingestWorker.js',
      'louvainWorker.js',
      'scanWorker.js',
      'tokenWorker.js',
    ]);
  });

  it('is ASCII, so V8 keeps the source of each chunk one byte a character', () => {
    for (const file of jsFiles(main)) {
      const wide = /[\u0100-\uffff]/.exec(readFileSync(file, 'utf8'));
      expect(wide?.[0], `a character past Latin-1 in ${file}`).toBeUndefined();
    }
  });

  it('loads Louvain (graphology) only when an Atlas or a dream asks for it', () => {
    for (const file of jsFiles(main)) {
      if (/(louvainWorker|communities-[\w-]+)\.js$/.test(file)) continue;
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/from\s*["'`]\.\/communities-/);
    }
  });

  it('holds a JSON file as one parsed object, not a module with a getter per key', () => {
    // The sentiment lexicon (sentiment's labels.json), the largest JSON the engine loads.
    const code = jsFiles(main).map((file) => readFileSync(file, 'utf8'));
    expect(code.some((c) => c.includes('JSON.parse(`{"abandon":-2'))).toBe(true);
  });

  it('has the Electron entry, the CLI and the preload built', () => {
    expect(existsSync(join(main, 'index.js'))).toBe(true);
    expect(existsSync(join(main, '..', 'preload', 'index.cjs'))).toBe(true);
    expect(readFileSync(join(main, '..', 'preload', 'index.cjs'), 'utf8')).not.toMatch(
      /require\("(?!electron")/,
    );
  });
});

const renderer = join(import.meta.dirname, '..', 'out', 'renderer');

describe.skipIf(!existsSync(join(renderer, 'index.html')))('the built observatory', () => {
  it('holds no zod, no Node built-in and no engine code', () => {
    const code = jsFiles(join(renderer, 'assets'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    expect(code.length).toBeGreaterThan(0);
    // zod's error class and its issue codes, whatever the minifier renames.
    expect(code).not.toMatch(/ZodError|invalid_type|too_small/);
    expect(code).not.toMatch(
      /\brequire\(["'](node:)?(fs|path|os|child_process|worker_threads)["']\)/,
    );
    expect(code).not.toMatch(/from ["']node:/);
    // Engine-only code: SQLite and the audit chain never reach the browser.
    expect(code).not.toMatch(
      /better-sqlite3|sqlite-vec|PRAGMA journal_mode|audit rows are append-only/,
    );
  });
});
