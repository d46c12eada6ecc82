// Which models exist: the catalogue Loci can install (models/manifest.json) and the
// model directories found on disk — installed ones in <data dir>/models, and read-only
// ones on LOCI_MODEL_PATH (a packaged app's bundled models, a developer's exports).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import catalogueJson from '../../../../models/manifest.json';
import { LociError } from '../../../shared/errors';
import {
  CatalogueSchema,
  readModelDir,
  type Catalogue,
  type CatalogueEntry,
  type ModelManifest,
} from './manifest';

let catalogueCache: Catalogue | null = null;

export function catalogue(): Catalogue {
  catalogueCache ??= CatalogueSchema.parse(catalogueJson);
  return catalogueCache;
}

export function catalogueEntry(id: string): CatalogueEntry {
  const entry = catalogue().models.find((m) => m.id === id);
  if (!entry) {
    throw new LociError(
      'not-found',
      `There is no model "${id}" in the catalogue. Known models: ${catalogue()
        .models.map((m) => m.id)
        .join(', ')}.`,
    );
  }
  return entry;
}

export function installDir(dataDir: string): string {
  return join(dataDir, 'models');
}

/** The directories searched for models: installed ones first, then LOCI_MODEL_PATH. */
export function modelSearchPath(
  dataDir: string,
  env: Record<string, string | undefined> = process.env,
): string[] {
  const extra = (env.LOCI_MODEL_PATH ?? '')
    .split(delimiter)
    .filter((p) => p.trim() !== '')
    .map((p) => resolve(p));
  return [installDir(dataDir), ...extra];
}

export interface FoundModel {
  manifest: ModelManifest;
  dir: string;
  /** True when the model is in <data dir>/models (and so may be removed). */
  removable: boolean;
}

export function findModels(
  dataDir: string,
  env?: Record<string, string | undefined>,
): FoundModel[] {
  const found: FoundModel[] = [];
  const seen = new Set<string>();
  for (const [i, root] of modelSearchPath(dataDir, env).entries()) {
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const dir = join(root, entry.name);
      if (!existsSync(join(dir, 'manifest.json'))) continue;
      try {
        const manifest = readModelDir(dir);
        if (seen.has(manifest.id)) continue;
        seen.add(manifest.id);
        found.push({ manifest, dir, removable: i === 0 });
      } catch {
        // A broken model directory is reported by `loci models list` and the doctor,
        // never loaded.
      }
    }
  }
  return found;
}

export function findModel(
  dataDir: string,
  id: string,
  env?: Record<string, string | undefined>,
): FoundModel | null {
  return findModels(dataDir, env).find((m) => m.manifest.id === id) ?? null;
}

/**
 * The model to use for a configured choice: `none` (the hashing fallback), an id, or
 * `auto` — the catalogue's default if installed, else the first model found.
 */
export function chooseModel(
  dataDir: string,
  configured: string,
  env?: Record<string, string | undefined>,
): { model: FoundModel | null; note: string | null } {
  if (configured === 'none')
    return { model: null, note: 'embedding.model is "none" in the configuration' };
  const all = findModels(dataDir, env);
  if (configured !== 'auto') {
    const chosen = all.find((m) => m.manifest.id === configured) ?? null;
    return chosen
      ? { model: chosen, note: null }
      : {
          model: null,
          note: `the configured model "${configured}" is not installed (\`loci models install ${configured}\`)`,
        };
  }
  const preferred = all.find((m) => m.manifest.id === catalogue().default) ?? all[0] ?? null;
  return preferred
    ? { model: preferred, note: null }
    : { model: null, note: 'no embedding model is installed' };
}

export function removeModel(dataDir: string, id: string): { dir: string } {
  const found = findModel(dataDir, id);
  if (!found) throw new LociError('not-found', `The model "${id}" is not installed.`);
  if (!found.removable) {
    throw new LociError(
      'forbidden',
      `The model "${id}" comes from ${found.dir} (LOCI_MODEL_PATH), which Loci does not manage.`,
    );
  }
  rmSync(found.dir, { recursive: true, force: true });
  return { dir: found.dir };
}
