// The layering rules of DESIGN.md §3 live in eslint.config.mjs; this proves each one
// fires (and that the allowed imports pass), so a config change cannot silently drop one.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function importErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath });
  return (result?.messages ?? [])
    .filter(
      (m) =>
        m.ruleId === 'no-restricted-imports' ||
        m.ruleId === '@typescript-eslint/no-restricted-imports' ||
        m.ruleId === 'no-restricted-syntax' ||
        m.ruleId === 'boundaries/dependencies',
    )
    .map((m) => m.message);
}

describe('layering lint', () => {
  it('allows electron only in src/main/electron and src/preload', async () => {
    const code = `import { app } from 'electron'; void app;`;
    expect(await importErrors('src/main/electron/window.ts', code)).toEqual([]);
    expect(await importErrors('src/preload/index.ts', code)).toEqual([]);
    for (const file of [
      'src/main/engine/engine.ts',
      'src/main/api/x.ts',
      'src/main/cli.ts',
      'src/main/http/server.ts',
      'src/renderer/src/App.tsx',
    ]) {
      expect((await importErrors(file, code)).join(), file).toMatch(
        /Only src\/main\/electron and src\/preload may import electron/,
      );
    }
  });

  it('keeps src/shared free of the project and of Node', async () => {
    expect(
      await importErrors(
        'src/shared/api.ts',
        `import { z } from 'zod'; import { x } from './schemas'; void z; void x;`,
      ),
    ).toEqual([]);
    expect(
      (
        await importErrors(
          'src/shared/api.ts',
          `import { Engine } from '../main/engine/engine'; void Engine;`,
        )
      ).join(),
    ).toMatch(/imports nothing from the rest of the project/);
    expect(
      (
        await importErrors(
          'src/shared/api.ts',
          `import { readFileSync } from 'node:fs'; void readFileSync;`,
        )
      ).join(),
    ).toMatch(/no Node APIs/);
    expect(
      (await importErrors('src/shared/api.ts', `import { join } from 'path'; void join;`)).join(),
    ).toMatch(/no Node APIs/);
    // The contract by domain imports its siblings in src/shared, and nothing beyond.
    expect(
      await importErrors('src/shared/api/memory.ts', `import { x } from '../schemas'; void x;`),
    ).toEqual([]);
    expect(
      (
        await importErrors(
          'src/shared/api/memory.ts',
          `import { Engine } from '../../main/engine/engine'; void Engine;`,
        )
      ).join(),
    ).toMatch(/imports nothing from the rest of the project/);
    expect(
      (
        await importErrors(
          'src/shared/api/memory.ts',
          `import { readFileSync } from 'node:fs'; void readFileSync;`,
        )
      ).join(),
    ).toMatch(/no Node APIs/);
  });

  it('keeps zod out of the renderer: contract types yes, schema values no', async () => {
    const file = 'src/renderer/src/views/memories/model.ts';
    expect(
      await importErrors(
        file,
        `import type { MemoryKind } from '../../../../shared/schemas'; import { LIMITS } from '../../../../shared/constants'; let k: MemoryKind | undefined; void k; void LIMITS;`,
      ),
    ).toEqual([]);
    for (const source of [
      `import { LIMITS } from '../../../../shared/schemas'; void LIMITS;`,
      `import { methods } from '../../../../shared/api'; void methods;`,
      `import { z } from 'zod'; void z;`,
    ]) {
      expect((await importErrors(file, source)).join(), source).toMatch(
        /only types from the contract/,
      );
    }
  });

  it('lets the renderer import only src/shared and browser code', async () => {
    expect(
      await importErrors(
        'src/renderer/src/lib/engineClient.ts',
        `import type { MethodName } from '../../../shared/api'; let m: MethodName;`,
      ),
    ).toEqual([]);
    expect(
      (
        await importErrors(
          'src/renderer/src/App.tsx',
          `import { Engine } from '../../main/engine/engine'; void Engine;`,
        )
      ).join(),
    ).toMatch(/through lib\/engineClient\.ts/);
    expect(
      (
        await importErrors(
          'src/renderer/src/App.tsx',
          `import { readFile } from 'fs'; void readFile;`,
        )
      ).join(),
    ).toMatch(/browser APIs only/);
  });

  it('keeps the engine ignorant of its transports', async () => {
    expect(
      await importErrors(
        'src/main/engine/memory/x.ts',
        `import { z } from '../../../shared/api'; void z;`,
      ),
    ).toEqual([]);
    for (const target of [
      '../../api',
      '../../mcp/server',
      '../../http/server',
      '../../cli/program',
    ]) {
      expect(
        (
          await importErrors(
            'src/main/engine/memory/x.ts',
            `import { y } from '${target}'; void y;`,
          )
        ).join(),
        target,
      ).toMatch(/knows nothing of its transports/);
    }
  });

  it('lets transports import the engine for its types only', async () => {
    for (const file of [
      'src/main/cli/program.ts',
      'src/main/mcp/stdio.ts',
      'src/main/http/server.ts',
      'src/main/electron/app.ts',
    ]) {
      // Types, yes; values through src/main/api.
      expect(
        await importErrors(
          file,
          `import type { Engine } from '../engine/engine'; import { openEngine } from '../api/host'; let e: Engine | undefined; void e; void openEngine;`,
        ),
        file,
      ).toEqual([]);
      for (const source of [
        `import { Engine } from '../engine/engine'; void Engine;`,
        `import { readLock } from '../engine/store/lock'; void readLock;`,
        `void import('../engine/engine');`,
      ]) {
        expect((await importErrors(file, source)).join(), `${file}: ${source}`).toMatch(
          /engine's types only/,
        );
      }
    }
    expect(
      (
        await importErrors(
          'src/main/cli/commands/serve.ts',
          `import { loadOrCreateToken } from '../../engine/store/token'; void loadOrCreateToken;`,
        )
      ).join(),
    ).toMatch(/engine's types only/);
  });

  it('holds the preload to the bridge, the handlers below their transports, re-exports too', async () => {
    expect(
      await importErrors(
        'src/preload/index.ts',
        `import { IPC_CALL } from '../shared/bridge'; import { isLociErrorData } from '../shared/errors'; void IPC_CALL; void isLociErrorData;`,
      ),
    ).toEqual([]);
    const breaches: [string, string, RegExp][] = [
      [
        'src/preload/index.ts',
        `import { methods } from '../shared/api'; void methods;`,
        /only the bridge/,
      ],
      [
        'src/preload/index.ts',
        `import type { Engine } from '../main/engine/engine'; let e: Engine | undefined; void e;`,
        /only the bridge/,
      ],
      [
        'src/main/api/memory.ts',
        `import { toolDefinitions } from '../mcp/tools'; void toolDefinitions;`,
        /handlers know nothing/,
      ],
      [
        'src/main/api/memory.ts',
        `import { startDaemon } from '../daemon'; void startDaemon;`,
        /handlers know nothing/,
      ],
      [
        'src/main/engine/memory/views.ts',
        `export { createHandlers } from '../../api';`,
        /knows nothing of its transports/,
      ],
      [
        'src/renderer/src/App.tsx',
        `import { createBridge } from '../../preload/bridge'; void createBridge;`,
        /through lib\/engineClient\.ts/,
      ],
      [
        'src/shared/text.ts',
        `export type { Engine } from '../main/engine/engine';`,
        /imports nothing from the rest/,
      ],
    ];
    for (const [file, source, message] of breaches) {
      expect((await importErrors(file, source)).join(), `${file}: ${source}`).toMatch(message);
    }
  });

  it('puts every source file in a layer', async () => {
    const [result] = await eslint.lintText('export const x = 1;\n', {
      filePath: 'src/main/stray.ts',
    });
    expect(result?.messages.map((m) => m.ruleId)).toContain('boundaries/no-unknown-files');
    const [known] = await eslint.lintText('export const x = 1;\n', {
      filePath: 'src/main/engine/memory/x.ts',
    });
    expect(known?.messages.map((m) => m.ruleId)).not.toContain('boundaries/no-unknown-files');
  });

  it('sees through other ways of importing: subpaths, import(), require(), composition roots', async () => {
    const engine = 'src/main/engine/memory/views.ts';
    const breaches: [string, string, RegExp][] = [
      [engine, `import { app } from 'electron/main'; void app;`, /may import electron/],
      [engine, `void import('electron');`, /may import electron/],
      [engine, `void import('../../api/memory');`, /knows nothing of its transports/],
      [
        engine,
        `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); void require('../../mcp/tools');`,
        /knows nothing of its transports/,
      ],
      [engine, `import { startDaemon } from '../../daemon'; void startDaemon;`, /transports/],
      ['src/main/engine/engine.ts', `void import('../index');`, /transports/],
      ['src/renderer/src/App.tsx', `void import('node:fs');`, /browser APIs only/],
      [
        'src/renderer/src/App.tsx',
        `void import('../../main/engine/engine');`,
        /through lib\/engineClient\.ts/,
      ],
      [
        'src/renderer/src/App.tsx',
        `import { createRequire } from 'module'; void createRequire(import.meta.url);`,
        /browser APIs only/,
      ],
      ['src/shared/text.ts', `import { x } from 'electron/common'; void x;`, /may import electron/],
    ];
    for (const [file, source, message] of breaches) {
      expect((await importErrors(file, source)).join(), `${file}: ${source}`).toMatch(message);
    }
    // What stays allowed: the engine's own dynamic imports, and electron in the shell.
    expect(await importErrors(engine, `void import('../recall/budget');`)).toEqual([]);
    expect(
      await importErrors(
        'src/main/electron/window.ts',
        `import { app } from 'electron/main'; void app;`,
      ),
    ).toEqual([]);
  });
});
