// Lint, including the layering of DESIGN.md §3, enforced here rather than by hand:
// - only src/main/electron and src/preload import `electron`;
// - src/shared imports nothing of ours and nothing of Node (it runs in the renderer too);
// - the renderer imports only src/shared and browser APIs;
// - the engine knows nothing of its transports (api, mcp, http, cli, electron);
// - transports (cli, mcp, http, electron) import the engine's types only.
// test/layering.test.ts proves each of these rules fires.
import js from '@eslint/js';
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

const ENGINE_TRANSPORTS = '^(\\.\\.\\/)+(api|mcp|http|cli|electron|daemon|index)(\\/|\\.ts|$)';
const ENGINE_MESSAGE = 'The engine knows nothing of its transports (DESIGN.md §3).';

const TRANSPORT_ENGINE = '^(\\.\\.\\/)+engine(\\/|$)';
const TRANSPORT_MESSAGE =
  "Transports import the engine's types only; its values come through src/main/api (DESIGN.md §3).";

/** What src/shared may import: no Node, no electron, nothing outside src/shared. */
function sharedImports(leavesShared) {
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
      { regex: leavesShared, message: 'src/shared imports nothing from the rest of the project.' },
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
    files: ['src/shared/*.ts'],
    rules: { 'no-restricted-imports': ['error', sharedImports('^\\.\\./')] },
  },
  {
    // The contract by domain (src/shared/api/*.ts) may import its siblings in src/shared.
    files: ['src/shared/*/**'],
    rules: { 'no-restricted-imports': ['error', sharedImports('^\\.\\./\\.\\./')] },
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
            {
              regex: '(^|/)(main|preload)(/|$)',
              message:
                'The renderer talks to the engine through lib/engineClient.ts, never by import.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...dynamicBans(
          '(^node:|(^|\\/)(main|preload)(\\/|$)|^electron)',
          'The renderer talks to the engine through lib/engineClient.ts, never by import.',
        ),
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
    files: ['src/main/engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan],
          patterns: [
            electronSubpaths,
            {
              regex: '^(\\.\\./)+(api|mcp|http|cli|electron|daemon|index)(/|\\.ts|$)',
              message: ENGINE_MESSAGE,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...dynamicBans(ENGINE_TRANSPORTS, ENGINE_MESSAGE),
        ...dynamicBans('^electron(\\/|$)', electronBan.message),
      ],
    },
  },
  {
    // Transports see the engine's types only: its values (opening one, the data
    // directory, the lock, the token) reach them through src/main/api (api/host.ts).
    files: ['src/main/{cli,mcp,http,electron}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+engine(/|$)',
              allowTypeImports: true,
              message: TRANSPORT_MESSAGE,
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', ...dynamicBans(TRANSPORT_ENGINE, TRANSPORT_MESSAGE)],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.js', '*.config.*', 'e2e/**'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
