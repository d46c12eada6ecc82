import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realModelDir, tinyModelRoot } from '../../../../test/helpers/models';
import { OnnxModel } from './onnxModel';
import { dot } from './pooling';

// Rows chosen so results can be worked out by hand: token id i ↦ [i, 1, −i, 0.5].
// Vocabulary: [PAD]=0 [UNK]=1 [CLS]=2 [SEP]=3 alpha=4 beta=5 gamma=6 delta=7.
const tiny = tinyModelRoot({
  dims: 4,
  row: (id) => [id, 1, -id, 0.5],
  maxTokens: 5,
  id: 'tiny-hand',
});
let model: OnnxModel;
beforeAll(async () => {
  model = await OnnxModel.load(tiny.dir, { threads: 1 });
});
afterAll(async () => {
  await model.close();
  rmSync(tiny.root, { recursive: true, force: true });
});

const norm = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
};

describe('OnnxModel on the tiny model', () => {
  it('tokenises with the model tokenizer.json: lower-cases, adds [CLS]/[SEP], pads to the longest', () => {
    const e = model.encode(['Alpha BETA', 'gamma'], 'passage');
    expect(e.batch).toBe(2);
    expect(e.seq).toBe(4);
    expect(Array.from(e.ids, Number)).toEqual([2, 4, 5, 3, 2, 6, 3, 0]);
    expect(Array.from(e.mask, Number)).toEqual([1, 1, 1, 1, 1, 1, 1, 0]);
    expect(Array.from(e.types, Number)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('truncates to max_tokens and keeps the closing [SEP]', () => {
    const e = model.encode(['alpha beta gamma delta alpha'], 'passage');
    expect(Array.from(e.ids, Number)).toEqual([2, 4, 5, 6, 3]);
  });

  it('mean-pools over the mask and normalises, as worked out by hand', async () => {
    const [a, b, unknown] = await model.embed(['alpha beta', 'gamma', 'zebra'], 'passage');
    // alpha beta: rows 2, 4, 5, 3 → mean [3.5, 1, −3.5, 0.5]
    norm([3.5, 1, -3.5, 0.5]).forEach((x, i) => expect(a![i]).toBeCloseTo(x, 6));
    // gamma (padded in its batch): rows 2, 6, 3 → mean [11/3, 1, −11/3, 0.5]; the pad is ignored
    norm([11 / 3, 1, -11 / 3, 0.5]).forEach((x, i) => expect(b![i]).toBeCloseTo(x, 6));
    // an unknown word is [UNK] = 1: rows 2, 1, 3 → mean [2, 1, −2, 0.5]
    norm([2, 1, -2, 0.5]).forEach((x, i) => expect(unknown![i]).toBeCloseTo(x, 6));
    expect(dot(a!, a!)).toBeCloseTo(1, 6);
  });

  it('is deterministic and independent of batching', async () => {
    const together = await model.embed(['alpha', 'beta gamma', 'delta'], 'passage');
    const again = await model.embed(['alpha', 'beta gamma', 'delta'], 'passage');
    const alone = await model.embed(['beta gamma'], 'passage');
    expect(together.map((v) => Array.from(v))).toEqual(again.map((v) => Array.from(v)));
    Array.from(alone[0]!).forEach((x, i) => expect(together[1]![i]).toBeCloseTo(x, 6));
  });

  it('applies the query prefix to queries only, and CLS pooling when the manifest says so', async () => {
    const prefixed = tinyModelRoot({
      dims: 4,
      row: (id) => [id, 1, -id, 0.5],
      queryPrefix: 'delta ',
      pooling: 'cls',
      id: 'tiny-prefix',
    });
    const m = await OnnxModel.load(prefixed.dir, { threads: 1 });
    try {
      expect(Array.from(m.encode(['alpha'], 'query').ids, Number)).toEqual([2, 7, 4, 3]);
      expect(Array.from(m.encode(['alpha'], 'passage').ids, Number)).toEqual([2, 4, 3]);
      const [v] = await m.embed(['alpha'], 'passage');
      // CLS pooling: row 2 → [2, 1, −2, 0.5]
      norm([2, 1, -2, 0.5]).forEach((x, i) => expect(v![i]).toBeCloseTo(x, 6));
    } finally {
      await m.close();
      rmSync(prefixed.root, { recursive: true, force: true });
    }
  });
});

const real = realModelDir();
describe.runIf(real)(
  'OnnxModel on the real all-MiniLM-L6-v2 export (present on this machine)',
  () => {
    it('matches the fp32 PyTorch reference to within int8 quantisation error', async () => {
      const reference = JSON.parse(readFileSync(`${real}/reference.json`, 'utf8')) as {
        sentences: string[];
        embeddings: number[][];
      };
      const m = await OnnxModel.load(real as string, { threads: 1 });
      try {
        const vectors = await m.embed(reference.sentences, 'passage');
        vectors.forEach((v, i) =>
          expect(dot(v, Float32Array.from(reference.embeddings[i]!))).toBeGreaterThan(0.98),
        );
      } finally {
        await m.close();
      }
    });
  },
);
