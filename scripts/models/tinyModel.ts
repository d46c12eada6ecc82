// Builds a tiny but complete embedding model directory that Loci loads exactly like a
// real one: an ONNX graph (token embeddings looked up with Gather, plus token-type
// embeddings — the shape of a BERT encoder's first layer, without the layers), a
// WordPiece tokenizer.json with BERT normalisation and [CLS]/[SEP] template, and a
// manifest with sha256s. Tests use it to check shapes, pooling and determinism against
// hand-computed values; benchmarks use a 384-dimension one to time the model path.
//
//   node --import tsx scripts/models/tinyModel.ts OUT_DIR [--dims 384] [--words 2000]
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { mulberry32 } from '../../src/shared/random';

const { onnx } = onnxProto;

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const;

export interface TinyModelOptions {
  id?: string;
  dims?: number;
  /** Vocabulary after the four special tokens (ids 4, 5, …). */
  words?: string[];
  /** Row of the embedding table for a token id; default: seeded pseudo-random. */
  row?: (id: number, dims: number) => number[];
  seed?: number;
  maxTokens?: number;
  queryPrefix?: string;
  pooling?: 'mean' | 'cls';
}

/** Uniform in [−0.5, 0.5), seeded. */
function seeded(seed: number): () => number {
  const r = mulberry32(seed);
  return () => r() - 0.5;
}

function tensorInfo(name: string, elemType: number, dims: (string | number)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType,
        shape: {
          dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })),
        },
      },
    },
  });
}

export function tinyModelBytes(
  vocabSize: number,
  dims: number,
  row: (id: number) => number[],
): Uint8Array {
  const embedding: number[] = [];
  for (let id = 0; id < vocabSize; id++) {
    const r = row(id);
    if (r.length !== dims) throw new Error(`row ${id} has ${r.length} values, expected ${dims}`);
    embedding.push(...r);
  }
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT64 = onnx.TensorProto.DataType.INT64;
  const graph = onnx.GraphProto.create({
    name: 'loci-tiny-encoder',
    input: [
      tensorInfo('input_ids', INT64, ['batch', 'sequence']),
      tensorInfo('attention_mask', INT64, ['batch', 'sequence']),
      tensorInfo('token_type_ids', INT64, ['batch', 'sequence']),
    ],
    output: [tensorInfo('last_hidden_state', FLOAT, ['batch', 'sequence', dims])],
    initializer: [
      onnx.TensorProto.create({
        name: 'word_embeddings',
        dataType: FLOAT,
        dims: [vocabSize, dims],
        floatData: embedding,
      }),
      onnx.TensorProto.create({
        name: 'token_type_embeddings',
        dataType: FLOAT,
        dims: [2, dims],
        floatData: new Array(2 * dims).fill(0),
      }),
    ],
    node: [
      onnx.NodeProto.create({
        opType: 'Gather',
        input: ['word_embeddings', 'input_ids'],
        output: ['words'],
        name: 'words',
      }),
      onnx.NodeProto.create({
        opType: 'Gather',
        input: ['token_type_embeddings', 'token_type_ids'],
        output: ['types'],
        name: 'types',
      }),
      onnx.NodeProto.create({
        opType: 'Add',
        input: ['words', 'types'],
        output: ['last_hidden_state'],
        name: 'sum',
      }),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'loci-tiny-model',
    opsetImport: [{ domain: '', version: 14 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

export function tinyTokenizerJson(vocab: Record<string, number>) {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** Writes the model directory and returns its manifest. */
export function buildTinyModel(dir: string, options: TinyModelOptions = {}) {
  const dims = options.dims ?? 8;
  const words = options.words ?? ['alpha', 'beta', 'gamma', 'delta'];
  const vocab: Record<string, number> = {};
  [...SPECIAL_TOKENS, ...words].forEach((token, id) => (vocab[token] = id));
  const random = seeded(options.seed ?? 7);
  const row =
    options.row ?? ((_id: number, d: number) => Array.from({ length: d }, () => random()));
  mkdirSync(dir, { recursive: true });
  const model = tinyModelBytes(Object.keys(vocab).length, dims, (id) => row(id, dims));
  const tokenizer = JSON.stringify(tinyTokenizerJson(vocab));
  const config = JSON.stringify({
    do_lower_case: true,
    model_max_length: options.maxTokens ?? 32,
    tokenizer_class: 'BertTokenizer',
    unk_token: '[UNK]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
  });
  writeFileSync(join(dir, 'model.onnx'), model);
  writeFileSync(join(dir, 'tokenizer.json'), tokenizer);
  writeFileSync(join(dir, 'tokenizer_config.json'), config);
  const manifest = {
    id: options.id ?? `tiny-${dims}`,
    name: `Tiny test encoder (${dims} dimensions)`,
    dims,
    pooling: options.pooling ?? 'mean',
    normalize: true,
    max_tokens: options.maxTokens ?? 32,
    query_prefix: options.queryPrefix ?? '',
    passage_prefix: '',
    license: 'MIT',
    source_url: 'scripts/models/tinyModel.ts',
    files: {
      'model.onnx': { sha256: sha256(model), size: model.length },
      'tokenizer.json': { sha256: sha256(tokenizer), size: Buffer.byteLength(tokenizer) },
      'tokenizer_config.json': { sha256: sha256(config), size: Buffer.byteLength(config) },
    },
  };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** A 384-dimension model over a real English word list, for benchmarks. */
export function buildBenchModel(dir: string, wordsFile?: string) {
  const words = wordsFile
    ? readFileSync(wordsFile, 'utf8').split(/\s+/).filter(Boolean)
    : Array.from({ length: 5000 }, (_, i) => `w${i}`);
  return buildTinyModel(dir, {
    id: 'tiny-384',
    dims: 384,
    words: [...new Set(words.map((w) => w.toLowerCase()))],
    maxTokens: 256,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: tinyModel.ts OUT_DIR [--dims N]');
    process.exit(2);
  }
  const dimsArg = process.argv.indexOf('--dims');
  const manifest = buildTinyModel(
    out,
    dimsArg > 0 ? { dims: Number(process.argv[dimsArg + 1]) } : {},
  );
  console.log(JSON.stringify(manifest, null, 2));
}
