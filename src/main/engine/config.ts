// The user's settings, kept in <data dir>/config.json and validated on every load so a
// typo is reported by name instead of silently ignored. Written atomically.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LociError } from '../../shared/errors';
import { describeIssues } from '../../shared/validation';

export const RankingWeightsSchema = z.strictObject({
  relevance: z.number().min(0).max(1).default(0.75),
  activation: z.number().min(0).max(1).default(0.08),
  retrievability: z.number().min(0).max(1).default(0.07),
  salience: z.number().min(0).max(1).default(0.05),
  pinned: z.number().min(0).max(1).default(0.05),
});

export const ConfigSchema = z.strictObject({
  embedding: z
    .strictObject({
      /** `auto`: the catalogue's default if installed, else the first installed model. */
      model: z.string().min(1).default('auto'),
      threads: z.number().int().min(1).max(64).optional(),
      batch_size: z.number().int().min(1).max(256).default(32),
    })
    .prefault({}),
  recall: z
    .strictObject({
      weights: RankingWeightsSchema.prefault({}),
      rrf_k: z.number().int().min(1).max(1000).default(60),
      spread_hops: z.number().int().min(0).max(2).default(2),
      spread_decay: z.number().min(0).max(1).default(0.6),
      spread_nodes: z.number().int().min(0).max(50).default(50),
      mmr_lambda: z.number().min(0).max(1).default(0.7),
      /** Re-calibrate abstention when the store has grown by this factor since the last time. */
      recalibrate_growth: z.number().min(1.1).max(100).default(2),
      /** Stages that can be switched off, for comparisons (`npm run eval`) and diagnosis. */
      use_vectors: z.boolean().default(true),
      use_recognizer: z.boolean().default(true),
    })
    .prefault({}),
  ingest: z
    .strictObject({
      /** Folders the MCP tool ingest_file may read from (absolute; Settings or `loci ingest allow`). */
      allowed_folders: z.array(z.string().min(1).max(4096)).max(100).default([]),
    })
    .prefault({}),
});

export type Config = z.output<typeof ConfigSchema>;

export function configPath(dataDir: string): string {
  return join(dataDir, 'config.json');
}

export function loadConfig(dataDir: string): Config {
  const file = configPath(dataDir);
  let raw: unknown = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new LociError(
        'invalid-args',
        `${file} is not valid JSON. Fix it or remove it to use the defaults.`,
      );
    }
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new LociError('invalid-args', `${file}: ${describeIssues(parsed.error.issues)}`);
  }
  return parsed.data;
}

/** Applies a change to the stored config (validated before it is written). */
export function updateConfig(
  dataDir: string,
  change: (raw: Record<string, unknown>) => void,
): Config {
  const file = configPath(dataDir);
  const raw = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)
    : {};
  change(raw);
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw new LociError('invalid-args', `config: ${describeIssues(parsed.error.issues)}`);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return parsed.data;
}
