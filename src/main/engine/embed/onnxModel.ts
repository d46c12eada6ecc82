// Runs one model directory: tokenises with the model's own tokenizer.json (Hugging
// Face's tokenizers.js), runs the ONNX graph on the CPU with onnxruntime-node, pools
// and normalises. This module does the work; embed/worker.ts runs it off the thread
// that answers recalls.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { readModelDir, type ModelManifest } from './manifest';
import { clsPool, l2Normalize, meanPool } from './pooling';
import type { EmbedKind } from './types';

export interface OnnxModelOptions {
  /** Intra-op threads for onnxruntime (default: cores − 1, at least 1, at most 4). */
  threads?: number;
  /** Texts per forward pass. */
  batchSize?: number;
}

export interface Encoded {
  ids: BigInt64Array;
  mask: BigInt64Array;
  types: BigInt64Array;
  batch: number;
  seq: number;
}

export class OnnxModel {
  private constructor(
    readonly manifest: ModelManifest,
    private readonly tokenizer: Tokenizer,
    private readonly session: ort.InferenceSession,
    private readonly batchSize: number,
    private readonly padId: number,
  ) {}

  static async load(
    dir: string,
    options: OnnxModelOptions = {},
    availableCores = 2,
  ): Promise<OnnxModel> {
    const manifest = readModelDir(dir);
    const tokenizerJson = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as object;
    const configPath = join(dir, 'tokenizer_config.json');
    const tokenizerConfig = existsSync(configPath)
      ? (JSON.parse(readFileSync(configPath, 'utf8')) as object)
      : {};
    const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    const threads = options.threads ?? Math.max(1, Math.min(4, availableCores - 1));
    const session = await ort.InferenceSession.create(join(dir, 'model.onnx'), {
      executionProviders: ['cpu'],
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const padId = tokenizer.token_to_id('[PAD]') ?? tokenizer.token_to_id('<pad>') ?? 0;
    return new OnnxModel(manifest, tokenizer, session, options.batchSize ?? 32, padId);
  }

  /**
   * Token ids for a batch, truncated to max_tokens (the final special token kept) and
   * padded to the longest text of the batch.
   */
  encode(texts: readonly string[], kind: EmbedKind): Encoded {
    const prefix = kind === 'query' ? this.manifest.query_prefix : this.manifest.passage_prefix;
    const max = this.manifest.max_tokens;
    const rows = texts.map((text) => {
      const ids = this.tokenizer.encode(prefix + text).ids;
      return ids.length <= max ? ids : [...ids.slice(0, max - 1), ids[ids.length - 1] as number];
    });
    const seq = Math.max(1, ...rows.map((r) => r.length));
    const batch = rows.length;
    const ids = new BigInt64Array(batch * seq).fill(BigInt(this.padId));
    const mask = new BigInt64Array(batch * seq);
    rows.forEach((row, b) => {
      row.forEach((id, s) => {
        ids[b * seq + s] = BigInt(id);
        mask[b * seq + s] = 1n;
      });
    });
    return { ids, mask, types: new BigInt64Array(batch * seq), batch, seq };
  }

  async embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      out.push(...(await this.embedBatch(texts.slice(i, i + this.batchSize), kind)));
    }
    return out;
  }

  private async embedBatch(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    const e = this.encode(texts, kind);
    const shape = [e.batch, e.seq];
    const feeds: Record<string, ort.Tensor> = {};
    for (const name of this.session.inputNames) {
      if (name === 'input_ids') feeds[name] = new ort.Tensor('int64', e.ids, shape);
      else if (name === 'attention_mask') feeds[name] = new ort.Tensor('int64', e.mask, shape);
      else if (name === 'token_type_ids') feeds[name] = new ort.Tensor('int64', e.types, shape);
      else throw new Error(`model input "${name}" is not one Loci knows how to fill`);
    }
    const results = await this.session.run(feeds);
    const outputName = this.session.outputNames.includes('last_hidden_state')
      ? 'last_hidden_state'
      : (this.session.outputNames[0] as string);
    const output = results[outputName] as ort.Tensor;
    const data = output.data as Float32Array;
    const dims = this.manifest.dims;
    let vectors: Float32Array[];
    if (output.dims.length === 2) {
      // Already pooled by the graph (a sentence-embedding output).
      vectors = Array.from({ length: e.batch }, (_, b) => data.slice(b * dims, (b + 1) * dims));
    } else {
      if (output.dims[2] !== dims) {
        throw new Error(
          `model output has ${String(output.dims[2])} dimensions, the manifest says ${dims}`,
        );
      }
      vectors =
        this.manifest.pooling === 'cls'
          ? clsPool(data, e.batch, e.seq, dims)
          : meanPool(data, e.mask, e.batch, e.seq, dims);
    }
    return vectors.map(l2Normalize);
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
