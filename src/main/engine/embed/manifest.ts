// What a model is: a directory with manifest.json (id, dims, pooling, max tokens,
// query/passage prefixes, licence, source, sha256 of each file), tokenizer.json (+ its
// config) and model.onnx. The same schema, plus download URLs, describes the models
// Loci knows how to install (models/manifest.json, "the catalogue").
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LociError } from '../../../shared/errors';
import { describeIssues } from '../../../shared/validation';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 is 64 lowercase hex digits');
export const REQUIRED_FILES = ['model.onnx', 'tokenizer.json'] as const;

const ModelIdSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,80}$/,
    'a model id is lowercase letters, digits, ".", "-" and "_"',
  );

const common = {
  id: ModelIdSchema,
  name: z.string().min(1),
  dims: z.number().int().min(2).max(4096),
  pooling: z.enum(['mean', 'cls']),
  normalize: z.literal(true).default(true),
  max_tokens: z.number().int().min(2).max(8192),
  query_prefix: z.string().default(''),
  passage_prefix: z.string().default(''),
  license: z.string().min(1),
  source_url: z.string(),
};

export const ModelManifestSchema = z.object({
  ...common,
  files: z.record(
    z.string(),
    z.object({
      sha256: Sha256,
      size: z.number().int().nonnegative().optional(),
      /** False when the catalogue had no hash and the one here was taken at download. */
      pinned: z.boolean().optional(),
    }),
  ),
  installed_at: z.string().optional(),
});

export type ModelManifest = z.output<typeof ModelManifestSchema>;

export const CatalogueEntrySchema = z.object({
  ...common,
  description: z.string(),
  languages: z.array(z.string()).min(1),
  /** Cosine similarity below which recall abstains until the store is calibrated. */
  abstain_below: z.number().min(0).max(1),
  /**
   * About how many bytes the download is, for people deciding whether to install, when a
   * file's exact size is not pinned (a size in `files` is checked; this one only shown).
   */
  approx_bytes: z.number().int().positive().optional(),
  files: z.record(
    z.string(),
    z.object({
      url: z.url(),
      /** null: the upstream file's hash is not pinned yet (see the catalogue's notes). */
      sha256: Sha256.nullable(),
      size: z.number().int().positive().nullable(),
    }),
  ),
});

export const CatalogueSchema = z.object({
  version: z.literal(1),
  default: z.string(),
  models: z.array(CatalogueEntrySchema).min(1),
});

export type CatalogueEntry = z.output<typeof CatalogueEntrySchema>;
export type Catalogue = z.output<typeof CatalogueSchema>;

/** Reads and validates a model directory's manifest; checks the required files exist. */
export function readModelDir(dir: string): ModelManifest {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) throw new LociError('not-found', `No model manifest at ${file}.`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new LociError('invalid-args', `The model manifest ${file} is not valid JSON.`);
  }
  const parsed = ModelManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new LociError(
      'invalid-args',
      `The model manifest ${file} is invalid: ${describeIssues(parsed.error.issues)}`,
    );
  }
  for (const name of REQUIRED_FILES) {
    if (!parsed.data.files[name]) {
      throw new LociError('invalid-args', `The model manifest ${file} does not list ${name}.`);
    }
    if (!existsSync(join(dir, name))) {
      throw new LociError('not-found', `The model ${parsed.data.id} is missing ${name} in ${dir}.`);
    }
  }
  return parsed.data;
}

export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

export interface FileCheck {
  file: string;
  ok: boolean;
  problem?: string;
}

/** Checks every file a manifest lists against its size and sha256. */
export async function verifyModelDir(dir: string, manifest: ModelManifest): Promise<FileCheck[]> {
  const checks: FileCheck[] = [];
  for (const [name, expected] of Object.entries(manifest.files)) {
    const path = join(dir, name);
    if (!existsSync(path)) {
      checks.push({ file: name, ok: false, problem: 'missing' });
      continue;
    }
    const size = statSync(path).size;
    if (expected.size !== undefined && size !== expected.size) {
      checks.push({ file: name, ok: false, problem: `size ${size}, expected ${expected.size}` });
      continue;
    }
    const actual = await sha256File(path);
    checks.push(
      actual === expected.sha256
        ? { file: name, ok: true }
        : {
            file: name,
            ok: false,
            problem: `sha256 ${actual.slice(0, 12)}…, expected ${expected.sha256.slice(0, 12)}…`,
          },
    );
  }
  return checks;
}
