// Lint, including the layering of DESIGN.md §3, enforced here rather than by hand.
// The arrows between our own folders are an allow-list of resolved paths
// (eslint-plugin-boundaries): shared ← engine ← api ← transports (mcp, http, cli,
// electron) ← composition roots (daemon.ts, index.ts, cli.ts); transports see the
// engine's types only; the renderer sees src/shared only; the preload sees the bridge
// only; `import()`, `require()` and re-exports count as imports. What comes from outside
// is held by no-restricted-imports: only src/main/electron and src/preload import
// `electron` (any subpath); src/shared and the renderer import nothing of Node; the
// renderer takes only types from the contract, so zod stays out of its bundle.
// test/layering.test.ts proves each of these rules fires.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'module',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'tls',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib',
];

/** `electron/main`, `electron/renderer`…: the same module by other names. */
const electronSubpaths = {
  regex: '^electron/',
  message: 'Only src/main/electron and src/preload may import electron (DESIGN.md §3).',
};

const electronBan = {
  name: 'electron',
  message: 'Only src/main/electron and src/preload may import electron (DESIGN.md §3).',
};

/**
 * The same bans for imports that `no-restricted-imports` does not see: `import('…')` and
 * `require('…')` (a `createRequire` result), whose module name matches `pattern` (an
 * esquery regex body: no slashes, `\\/` for a slash).
 */
function dynamicBans(pattern, message) {
  return [
    { selector: `ImportExpression[source.value=/${pattern}/]`, message },
    { selector: `CallExpression[callee.name='require'][arguments.0.value=/${pattern}/]`, message },
  ];
}

/** The layers, by resolved path (the first descriptor that matches a file wins). */
const ELEMENTS = [
  { type: 'shared', pattern: 'src/shared', partialMatch: false },
  { type: 'engine', pattern: 'src/main/engine', partialMatch: false },
  { type: 'api', pattern: 'src/main/api', partialMatch: false },
  { type: 'transport', pattern: 'src/main/(mcp|http|cli|electron)', partialMatch: false },
  { type: 'daemon', pattern: 'src/main/daemon.ts', mode: 'file' },
  { type: 'root', pattern: 'src/main/(index|cli|hook|mcpStdio).ts', mode: 'file' },
  { type: 'preload', pattern: 'src/preload', partialMatch: false },
  { type: 'renderer', pattern: 'src/renderer', partialMatch: false },
];

const to = (...types) => ({ to: { element: { types } } });
const from = (type) => ({ element: { type } });
const LAYERS = 'DESIGN.md §3, docs/architecture.md';
const MESSAGES = {
  shared: `src/shared imports nothing from the rest of the project (${LAYERS}).`,
  engine: `The engine knows nothing of its transports (${LAYERS}).`,
  api: `The handlers know nothing of their transports or composition roots (${LAYERS}).`,
  transport: `Transports import the engine's types only; its values come through src/main/api (${LAYERS}).`,
  renderer: 'The renderer talks to the engine through lib/engineClient.ts, never by import.',
  preload: `The preload sees only the bridge: shared/bridge.ts, errors.ts and events.ts (${LAYERS}).`,
};

/** Who may import whom among our own files; anything not allowed here is refused. */
const POLICIES = [
  { from: from('shared'), allow: to('shared') },
  { from: from('engine'), allow: to('shared', 'engine') },
  { from: from('api'), allow: to('shared', 'engine', 'api') },
  { from: from('transport'), allow: to('shared', 'api', 'transport') },
  { from: from('transport'), allow: { ...to('engine'), dependency: { kind: 'type' } } },
  // `loci serve` and the desktop shell start the daemon's composition.
  { from: from('transport'), allow: to('daemon') },
  { from: from('daemon'), allow: to('shared', 'engine', 'api', 'transport') },
  // `loci mcp` hands a command line it does not read to the full CLI.
  { from: from('root'), allow: to('shared', 'engine', 'api', 'transport', 'daemon', 'root') },
  {
    from: from('preload'),
    allow: [
      to('preload'),
      { to: { element: { type: 'shared', fileInternalPath: '{bridge,errors,events}.ts' } } },
    ],
  },
  { from: from('renderer'), allow: to('shared', 'renderer') },
  // What each refusal says.
  {
    from: from('shared'),
    disallow: { to: { element: { type: '!shared' } } },
    message: MESSAGES.shared,
  },
  {
    from: from('engine'),
    disallow: to('api', 'transport', 'daemon', 'root', 'preload', 'renderer'),
    message: MESSAGES.engine,
  },
  {
    from: from('api'),
    disallow: to('transport', 'daemon', 'root', 'preload', 'renderer'),
    message: MESSAGES.api,
  },
  {
    from: from('transport'),
    disallow: { ...to('engine'), dependency: { kind: 'value' } },
    message: MESSAGES.transport,
  },
  {
    from: from('renderer'),
    disallow: to('engine', 'api', 'transport', 'daemon', 'root', 'preload'),
    message: MESSAGES.renderer,
  },
  {
    from: from('preload'),
    disallow: [
      to('engine', 'api', 'transport', 'daemon', 'root', 'renderer'),
      { to: { element: { type: 'shared', fileInternalPath: '!{bridge,errors,events}.ts' } } },
    ],
    message: MESSAGES.preload,
  },
];

/** What src/shared may import from outside: no Node, no electron. */
function sharedImports() {
  return {
    paths: [
      electronBan,
      ...NODE_BUILTINS.map((name) => ({
        name,
        message: 'src/shared is runtime-neutral: no Node APIs.',
      })),
    ],
    patterns: [
      electronSubpaths,
      { regex: '^node:', message: 'src/shared is runtime-neutral: no Node APIs.' },
    ],
  };
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'models/**',
      'e2e/artifacts/**',
      'docs/**',
      '.scratch/**',
      '.pack/**',
      '.bench-cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
        SharedArrayBuffer: 'readonly',
        Atomics: 'readonly',
        structuredClone: 'readonly',
        AbortController: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { paths: [electronBan], patterns: [electronSubpaths] }],
    },
  },
  {
    files: ['src/main/electron/**', 'src/preload/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The layers (see ELEMENTS and POLICIES); tests may reach across them.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'src/**/*.d.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mjs', '.js'] } },
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import', 'require'],
      'boundaries/elements': ELEMENTS,
      'boundaries/legacy-warnings': false,
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies: POLICIES }],
      // Every source file belongs to a layer.
      'boundaries/no-unknown-files': 'error',
    },
  },
  {
    files: ['src/shared/**'],
    rules: { 'no-restricted-imports': ['error', sharedImports()] },
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            electronBan,
            ...NODE_BUILTINS.map((name) => ({
              name,
              message: 'The renderer uses browser APIs only.',
            })),
          ],
          patterns: [
            electronSubpaths,
            { regex: '^node:', message: 'The renderer uses browser APIs only.' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...dynamicBans('(^node:|^electron)', 'The renderer uses browser APIs only.'),
        {
          selector: "CallExpression[callee.name='createRequire']",
          message: 'The renderer uses browser APIs only.',
        },
      ],
      // Types of the contract, yes; its zod schemas (and so zod) stay out of the bundle:
      // values come from shared/constants.ts.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            electronSubpaths,
            {
              regex: '(^zod$|/shared/(schemas|api|eval)$|/shared/api/index$)',
              allowTypeImports: true,
              message:
                'The renderer imports only types from the contract (values: shared/constants.ts), so zod stays out of its bundle.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and fixtures of the renderer run in Node, not in the bundle.
    files: [
      'src/renderer/**/*.test.{ts,tsx}',
      'src/renderer/**/*Fixtures.ts',
      'src/renderer/**/testData.ts',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // `import('electron')` and `require('electron')` too: only the shell loads electron.
    files: ['src/main/**', 'src/shared/**'],
    ignores: ['src/main/electron/**'],
    rules: {
      'no-restricted-syntax': ['error', ...dynamicBans('^electron(\\/|$)', electronBan.message)],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.js', '*.config.*', 'e2e/**'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
