// The one real model on disk, all-MiniLM-L6-v2 (int8 ONNX, with its tokenizer), laid out
// where each Python system looks for it, so that none of them reaches for a model hub:
// - mcp-memory-service (ONNX): ~/.cache/mcp_memory/onnx_models/all-MiniLM-L6-v2/onnx/;
// - basic-memory (FastEmbed, ONNX): a Hugging Face cache folder for Qdrant/all-MiniLM-L6-v2-onnx;
// - cerebro-cortex (sentence-transformers on PyTorch): a Hugging Face cache folder for
//   sentence-transformers/all-MiniLM-L6-v2 whose weights are the int8 file's, dequantized
//   to float32 here into safetensors (PyTorch cannot read ONNX).
// Files are symbolic links where the layout allows; the converted weights are written once
// into .bench-cache/models and reused.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { miniLmDir, opts } from './common';

const { onnx } = onnxProto;
const FILES = ['model.onnx', 'tokenizer.json', 'tokenizer_config.json'] as const;
// A commit-shaped name: the hub's cache lookups take only those for a revision.
const REVISION = createHash('sha1').update('loci bench:peers local copy').digest('hex');

/** Throws, saying what is missing, unless the model's files are there. */
export function requireMiniLm(): void {
  const missing = FILES.filter((f) => !existsSync(join(miniLmDir, f)));
  if (missing.length)
    throw new Error(`needs all-MiniLM-L6-v2 at ${miniLmDir}; missing ${missing.join(', ')}`);
}

function link(files: readonly string[], into: string): void {
  mkdirSync(into, { recursive: true });
  for (const f of files) {
    rmSync(join(into, f), { force: true });
    symlinkSync(join(miniLmDir, f), join(into, f));
  }
}

/** A Hugging Face hub cache entry for `repo`, pointing at snapshot REVISION; returns the snapshot folder. */
function hubEntry(cache: string, repo: string): string {
  const entry = join(cache, `models--${repo.replace('/', '--')}`);
  mkdirSync(join(entry, 'refs'), { recursive: true });
  writeFileSync(join(entry, 'refs/main'), REVISION);
  return join(entry, 'snapshots', REVISION);
}

/** mcp-memory-service's ONNX model folder under `home` (its model path is fixed under ~). */
export function arrangeMcpMemoryServiceHome(home: string): void {
  link(FILES, join(home, '.cache/mcp_memory/onnx_models/all-MiniLM-L6-v2/onnx'));
}

/** FastEmbed's cache with sentence-transformers/all-MiniLM-L6-v2 in it; returns the cache folder. */
export function arrangeFastEmbedCache(): string {
  const cache = join(opts.cache, 'models/fastembed');
  link(FILES, hubEntry(cache, 'Qdrant/all-MiniLM-L6-v2-onnx'));
  return cache;
}

/** The hub cache sentence-transformers loads "all-MiniLM-L6-v2" from; returns the cache folder. */
export function arrangeSentenceTransformersCache(): string {
  const cache = join(opts.cache, 'models/hf-hub');
  const snap = hubEntry(cache, 'sentence-transformers/all-MiniLM-L6-v2');
  link(['tokenizer.json', 'tokenizer_config.json'], snap);
  const source = createHash('sha256')
    .update(readFileSync(join(miniLmDir, 'model.onnx')))
    .digest('hex');
  const stamp = join(snap, 'converted-from.txt');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== source) {
    writeFileSync(
      join(snap, 'model.safetensors'),
      dequantizedSafetensors(join(miniLmDir, 'model.onnx')),
    );
    writeFileSync(stamp, `${source}\n`);
  }
  const json = (file: string, value: unknown) => {
    mkdirSync(join(snap, file, '..'), { recursive: true });
    writeFileSync(join(snap, file), `${JSON.stringify(value, null, 2)}\n`);
  };
  // The architecture of all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT) and the three modules
  // of its sentence-transformers pipeline: the encoder, mean pooling, normalisation.
  json('config.json', {
    architectures: ['BertModel'],
    model_type: 'bert',
    vocab_size: 30522,
    hidden_size: 384,
    num_hidden_layers: 6,
    num_attention_heads: 12,
    intermediate_size: 1536,
    hidden_act: 'gelu',
    hidden_dropout_prob: 0.1,
    attention_probs_dropout_prob: 0.1,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    initializer_range: 0.02,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
    position_embedding_type: 'absolute',
  });
  json('modules.json', [
    { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
    { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
    { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
  ]);
  json('sentence_bert_config.json', { max_seq_length: 256, do_lower_case: false });
  json('1_Pooling/config.json', {
    word_embedding_dimension: 384,
    pooling_mode_cls_token: false,
    pooling_mode_mean_tokens: true,
    pooling_mode_max_tokens: false,
    pooling_mode_mean_sqrt_len_tokens: false,
  });
  mkdirSync(join(snap, '2_Normalize'), { recursive: true });
  return cache;
}

type Tensor = onnxProto.onnx.ITensorProto;

function floats(t: Tensor): Float32Array {
  if (t.rawData?.length) {
    const b = t.rawData;
    return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  }
  return Float32Array.from(t.floatData ?? []);
}

function int8s(t: Tensor): Int8Array {
  if (t.rawData?.length)
    return new Int8Array(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
  return Int8Array.from(t.int32Data ?? []);
}

/**
 * The model's weights as float32 safetensors under the names PyTorch's BertModel uses.
 * Float initializers already carry those names; each dynamically quantized MatMul weight
 * (int8 [in, out] with a per-column scale and zero point) is dequantized and transposed
 * to a Linear's [out, in], named after its node (`/encoder/layer.0/attention/self/query/
 * MatMul_quant` → `encoder.layer.0.attention.self.query.weight`; the pooler's is a Gemm).
 */
function dequantizedSafetensors(file: string): Buffer {
  const graph = onnx.ModelProto.decode(readFileSync(file)).graph;
  if (!graph?.initializer || !graph.node) throw new Error(`${file}: no graph`);
  const init = new Map(graph.initializer.map((t) => [t.name ?? '', t]));
  const tensors = new Map<string, { shape: number[]; data: Float32Array }>();
  for (const t of graph.initializer)
    if (
      t.dataType === onnx.TensorProto.DataType.FLOAT &&
      /^(embeddings|encoder|pooler)\..*\.(weight|bias)$/.test(t.name ?? '')
    )
      tensors.set(t.name ?? '', { shape: (t.dims ?? []).map(Number), data: floats(t) });
  for (const n of graph.node) {
    const path = /^\/(.+)\/(?:Gemm_)?MatMul_quant$/.exec(n.name ?? '')?.[1];
    if (n.opType !== 'MatMulInteger' || !path) continue;
    const qName = n.input?.[1] ?? '';
    const q = init.get(qName);
    const zp = init.get(n.input?.[3] ?? '');
    const scale = init.get(qName.replace(/_quantized$/, '_scale'));
    if (!q || !zp || !scale) continue;
    const [rows, cols] = (q.dims ?? []).map(Number) as [number, number];
    const qs = int8s(q);
    const zs = int8s(zp);
    const ss = floats(scale);
    const w = new Float32Array(rows * cols);
    for (let k = 0; k < rows; k++)
      for (let j = 0; j < cols; j++) w[j * rows + k] = (qs[k * cols + j]! - zs[j]!) * ss[j]!;
    const name = `${path.replaceAll('/', '.')}.weight`;
    tensors.set(name, { shape: [cols, rows], data: w });
  }
  const layers = [...tensors.keys()].filter((k) => /^encoder\.layer\.\d+\..*\.weight$/.test(k));
  if (layers.length < 6 * 8)
    throw new Error(`${file}: found ${layers.length} encoder weights, expected 48`);
  // safetensors: an 8-byte little-endian header length, a JSON header, then the data.
  const header: Record<string, unknown> = {};
  let offset = 0;
  const parts: Buffer[] = [];
  for (const [name, t] of [...tensors].sort(([a], [b]) => a.localeCompare(b))) {
    header[name] = {
      dtype: 'F32',
      shape: t.shape,
      data_offsets: [offset, offset + t.data.byteLength],
    };
    parts.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    offset += t.data.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([len, Buffer.from(json), ...parts]);
}
