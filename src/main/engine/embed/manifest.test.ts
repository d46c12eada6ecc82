import { appendFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tinyModelRoot } from '../../../../test/helpers/models';
import { readModelDir, verifyModelDir } from './manifest';
import { catalogue } from './models';

const roots: string[] = [];
const fresh = () => {
  const t = tinyModelRoot({ dims: 4 });
  roots.push(t.root);
  return t;
};
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe('model directories', () => {
  it('reads a valid manifest and verifies every file', async () => {
    const { dir } = fresh();
    const manifest = readModelDir(dir);
    expect(manifest).toMatchObject({ id: 'tiny-4', dims: 4, pooling: 'mean' });
    expect((await verifyModelDir(dir, manifest)).every((c) => c.ok)).toBe(true);
  });

  it('finds a changed or missing file', async () => {
    const { dir } = fresh();
    const manifest = readModelDir(dir);
    appendFileSync(join(dir, 'tokenizer.json'), ' ');
    unlinkSync(join(dir, 'tokenizer_config.json'));
    const checks = await verifyModelDir(dir, manifest);
    expect(checks.find((c) => c.file === 'tokenizer.json')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/size/),
    });
    expect(checks.find((c) => c.file === 'tokenizer_config.json')).toMatchObject({
      ok: false,
      problem: 'missing',
    });
  });

  it('names the problem with a bad manifest', () => {
    const { dir } = fresh();
    writeFileSync(join(dir, 'manifest.json'), '{ not json');
    expect(() => readModelDir(dir)).toThrow(/not valid JSON/);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ id: 'x', dims: 'many' }));
    expect(() => readModelDir(dir)).toThrow(/is invalid: .*dims/);
    unlinkSync(join(dir, 'model.onnx'));
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        id: 'x',
        name: 'x',
        dims: 4,
        pooling: 'mean',
        max_tokens: 8,
        license: 'MIT',
        source_url: '',
        files: {
          'model.onnx': { sha256: 'a'.repeat(64) },
          'tokenizer.json': { sha256: 'b'.repeat(64) },
        },
      }),
    );
    expect(() => readModelDir(dir)).toThrow(/missing model.onnx/);
  });
});

describe('the catalogue', () => {
  it('lists the supported models with public URLs and pinned hashes where known', () => {
    const c = catalogue();
    expect(c.models.map((m) => m.id)).toEqual([
      'all-minilm-l6-v2-int8',
      'bge-small-en-v1.5-int8',
      'multilingual-e5-small-int8',
    ]);
    expect(c.models.find((m) => m.id === c.default)).toBeDefined();
    for (const m of c.models) {
      for (const file of Object.values(m.files))
        expect(file.url).toMatch(/^https:\/\/huggingface\.co\//);
      expect(m.files['model.onnx']).toBeDefined();
      expect(m.files['tokenizer.json']).toBeDefined();
    }
    expect(c.models[0]!.files['model.onnx']!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(c.models[1]!.files['model.onnx']!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
