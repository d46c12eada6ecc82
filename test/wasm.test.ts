// The WebAssembly kernels are committed as bytes (so the engine needs no compiler at run
// time); these must be exactly what their source compiles to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileWat, kernelModule, kernelModulePath, KERNELS } from '../scripts/wasm/build';

const ROOT = new URL('..', import.meta.url).pathname;

describe('WebAssembly kernels', () => {
  it.each(KERNELS)('%s matches its committed module (run `npm run build:wasm`)', async (kernel) => {
    const wat = join(ROOT, kernel);
    const bytes = await compileWat(wat);
    expect(readFileSync(kernelModulePath(wat), 'utf8')).toBe(kernelModule(wat, bytes));
  });
});
