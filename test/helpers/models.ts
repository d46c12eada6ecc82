// Model directories for tests: the tiny ONNX model the project builds itself, and the
// real all-MiniLM-L6-v2 export when a developer has one (never required).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildTinyModel, type TinyModelOptions } from '../../scripts/models/tinyModel';
import { tempDir } from './engine';

/** Builds a tiny model into a fresh folder `<root>/<id>` and returns the root. */
export function tinyModelRoot(options: TinyModelOptions = {}): {
  root: string;
  dir: string;
  id: string;
} {
  const root = tempDir('loci-models-');
  const id = options.id ?? `tiny-${options.dims ?? 8}`;
  const dir = join(root, id);
  buildTinyModel(dir, { ...options, id });
  return { root, dir, id };
}

/** A vocabulary of everyday English words for tiny models used in recall tests. */
export const TEST_WORDS =
  'the a deploy deploys deployed staging production cluster pipeline billing service orders api database connections pool size cache ttl minutes on call rotation monday phone drawer coffee machine floor vpn config ops profile release notes branch cron scheduler host certificate tls postgres replication backups nightly lunch office channel queue consumer stalled incident review ingest worker dashboard depth runbook restart check'.split(
    ' ',
  );

/** The real model exported by scripts/models/export_sentence_transformer.py, if present. */
export function realModelDir(): string | null {
  const candidates = [
    process.env.LOCI_TEST_MODEL,
    resolve(__dirname, '../../../shared/models/all-minilm-l6-v2-int8'),
  ].filter((p): p is string => Boolean(p));
  return (
    candidates.find(
      (p) => existsSync(join(p, 'manifest.json')) && existsSync(join(p, 'reference.json')),
    ) ?? null
  );
}
