// Build of every process: the Node main bundle (CLI and daemon, later the Electron
// main process), the preload script and the renderer. See scripts/build.mjs for how
// the build works on machines where Electron's runtime is not installed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import renderer from './vite.renderer.config';

/** package.json's optionalDependencies: never bundled, each may be missing at run time. */
const OPTIONAL = Object.keys(
  (
    JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8')) as {
      optionalDependencies?: Record<string, string>;
    }
  ).optionalDependencies ?? {},
);

/**
 * Pure-JavaScript dependencies bundled into out/main instead of loaded from node_modules:
 * Node then reads and compiles a few files, not hundreds, and `loci mcp` answers its
 * first request in about half the time (`npm run bench:peers`). Native modules
 * (better-sqlite3, sqlite-vec, onnxruntime-node, keyring), pdf.js and mammoth (loaded by
 * the ingest worker when a file needs them), pg (only for a sync hub), the tokenizers and
 * secretlint stay external. A dependency not named here stays external too.
 */
const BUNDLED = [
  '@modelcontextprotocol/sdk',
  'zod',
  'commander',
  'cli-table3',
  'cli-progress',
  'read',
  'picocolors',
  'ulidx',
  'canonicalize',
  'chrono-node',
  'ignore',
  'jsonc-parser',
  'lru-cache',
  'ml-pca',
  'sentiment',
  'stemmer',
  'stopword',
  'ts-fsrs',
  'yaml',
  'diff',
  'graphology',
  'graphology-communities-louvain',
  'csv-parse',
  'htmlparser2',
  'eventsource-parser',
];
/** What the build bundled, by version: engine/dependencies.ts asserts the bounds on them. */
function bundledVersions(): Record<string, string> {
  return Object.fromEntries(
    BUNDLED.map((name) => {
      const pkg = resolve(import.meta.dirname, 'node_modules', name, 'package.json');
      return [name, (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version];
    }),
  );
}

export default defineConfig({
  main: {
    define: { __LOCI_BUNDLED_VERSIONS__: JSON.stringify(bundledVersions()) },
    // A JSON file becomes one parsed object, not a module with a getter per key: the
    // sentiment lexicon (3,382 words) was held twice that way, about 0.7 MiB of heap.
    json: { namedExports: false, stringify: true },
    // The SDK's default JSON Schema validator (Ajv) is replaced by its @cfworker one; see
    // src/main/mcp/sdkValidator.ts.
    resolve: {
      alias: [
        {
          find: /^\.\.\/validation\/ajv-provider\.js$/,
          replacement: resolve(import.meta.dirname, 'src/main/mcp/sdkValidator.ts'),
        },
      ],
    },
    build: {
      // The same bundle runs under plain Node 20 (`loci`) and under Electron's Node.
      target: 'node20',
      outDir: 'out/main',
      // Optional dependencies (koffi, electron) are not external by themselves: they stay
      // out of the bundle, loaded where they installed (koffi's loader finds its native
      // module beside it).
      externalizeDeps: { exclude: BUNDLED, include: OPTIONAL },
      // LOCI_BUILD_READABLE=1 keeps the bundle readable (for profiling a start).
      minify: process.env.LOCI_BUILD_READABLE !== '1',
      rollupOptions: {
        input: {
          // The Electron main process (the desktop app; package.json "main").
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          cli: resolve(import.meta.dirname, 'src/main/cli.ts'),
          // `loci hook <event>`: started on its own, without the CLI and the engine.
          hook: resolve(import.meta.dirname, 'src/main/hook.ts'),
          // `loci mcp`: an editor's server, started without the CLI's commands.
          mcp: resolve(import.meta.dirname, 'src/main/mcpStdio.ts'),
          // The embedding worker thread is its own entry (loaded by embed/workerHost.ts).
          embedWorker: resolve(import.meta.dirname, 'src/main/engine/embed/worker.ts'),
          // The file parser worker thread (loaded by engine/ingest/pool.ts).
          ingestWorker: resolve(import.meta.dirname, 'src/main/engine/ingest/worker.ts'),
          // The audit verification worker thread (loaded by engine/audit/verifyHost.ts).
          auditWorker: resolve(import.meta.dirname, 'src/main/engine/audit/verifyWorker.ts'),
          // The credential-scan worker thread (loaded by engine/write/scanHost.ts).
          scanWorker: resolve(import.meta.dirname, 'src/main/engine/write/scanWorker.ts'),
          // The token-count worker thread (loaded by engine/recall/tokenCounter.ts).
          tokenWorker: resolve(import.meta.dirname, 'src/main/engine/recall/tokenWorker.ts'),
          // The clustering worker thread of dreams (loaded by engine/dream/louvain.ts).
          louvainWorker: resolve(import.meta.dirname, 'src/main/engine/dream/louvainWorker.ts'),
        },
        // Shared chunks sit beside the entries, not in chunks/: the engine finds its worker
        // entries (`new URL('./embedWorker.js', import.meta.url)`) next to its own file, and
        // with two entries (cli, index) the engine itself is such a shared chunk.
        // ASCII only (non-ASCII written as escapes): V8 keeps a script's source for lazy
        // compilation, one byte a character when every character is Latin-1 and two
        // otherwise, so one "…" in a message doubled what a long-running process holds
        // of every chunk (measured: 1.2 MB for the engine's 0.6 MB).
        output: { chunkFileNames: '[name]-[hash].js', charset: 'ascii' },
      },
    },
  },
  // The window's preload (src/preload → out/preload/index.cjs): sandboxed preloads must be
  // one CommonJS file that requires nothing but `electron`.
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  // The observatory (src/renderer → out/renderer); its config is shared with the
  // stand-alone dev server.
  renderer,
});
