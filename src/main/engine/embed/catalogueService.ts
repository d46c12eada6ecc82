// The embedding models a person can choose from: the catalogue and what is installed,
// the offer of the default model while none is, and installing, removing and choosing
// one (config.json `embedding.model`). A model change re-embeds through Semantic.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelInfo, ModelListResult, ModelOffer } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { updateConfig, type Config } from '../config';
import type { EngineEvents } from '../events';
import type { OpenStore } from '../store/registry';
import { installModel, type InstallProgress } from './install';
import { catalogue, catalogueEntry, findModels, installDir, removeModel } from './models';
import type { EmbeddingService } from './service';

export interface ModelCatalogueDeps {
  dataDir: string;
  config: Config;
  events: EngineEvents;
  env?: Record<string, string | undefined>;
  embedding: EmbeddingService;
  /** After a change: the embedder and the open stores' indexes follow the new choice. */
  reconfigure(configured: string, openStores: OpenStore[]): Promise<void>;
}

export class ModelCatalogue {
  constructor(private readonly deps: ModelCatalogueDeps) {}

  listModels(): ModelListResult {
    const found = findModels(this.deps.dataDir, this.deps.env);
    const status = this.deps.embedding.status();
    const models: ModelInfo[] = [];
    const fileSize = (files: Record<string, { size?: number | null | undefined }>) => {
      const sizes = Object.values(files).map((f) => f.size);
      return sizes.every((s) => typeof s === 'number')
        ? sizes.reduce<number>((a, b) => a + (b as number), 0)
        : null;
    };
    // An installed model's size is what its files take on disk (a manifest written by hand
    // may give no sizes).
    const onDisk = (dir: string, files: Record<string, unknown>) => {
      let total = 0;
      for (const name of Object.keys(files)) {
        try {
          total += statSync(join(dir, name)).size;
        } catch {
          return null;
        }
      }
      return total;
    };
    const installedSize = (local: {
      dir: string;
      manifest: { files: Record<string, { size?: number | null }> };
    }) => onDisk(local.dir, local.manifest.files) ?? fileSize(local.manifest.files);
    for (const entry of catalogue().models) {
      const local = found.find((f) => f.manifest.id === entry.id);
      models.push({
        id: entry.id,
        name: entry.name,
        dims: entry.dims,
        languages: entry.languages,
        license: entry.license,
        description: entry.description,
        installed: Boolean(local),
        active: status.semantic && status.model === entry.id,
        dir: local?.dir ?? null,
        pinned: local
          ? Object.values(local.manifest.files).every((f) => f.pinned !== false)
          : Object.values(entry.files).every((f) => f.sha256 !== null),
        size_bytes: local ? installedSize(local) : fileSize(entry.files),
      });
    }
    for (const local of found.filter(
      (f) => !catalogue().models.some((m) => m.id === f.manifest.id),
    )) {
      models.push({
        id: local.manifest.id,
        name: local.manifest.name,
        dims: local.manifest.dims,
        languages: [],
        license: local.manifest.license,
        description: `A model found at ${local.dir}.`,
        installed: true,
        active: status.semantic && status.model === local.manifest.id,
        dir: local.dir,
        pinned: Object.values(local.manifest.files).every((f) => f.pinned !== false),
        size_bytes: installedSize(local),
      });
    }
    return {
      models,
      active: status.model,
      semantic: status.semantic ? 'on' : 'off',
      note: status.note,
      offer: this.offer(found.length > 0),
    };
  }

  /** The default model to offer a person, or null (one is installed, "none" chosen, declined). */
  private offer(anyInstalled: boolean): ModelOffer | null {
    const embedding = this.deps.config.embedding;
    if (anyInstalled || embedding.offer === 'declined' || embedding.model === 'none') return null;
    const cat = catalogue();
    const entry = cat.models.find((m) => m.id === cat.default);
    if (!entry) return null;
    const sizes = Object.values(entry.files).map((f) => f.size);
    const exact = sizes.every((x) => typeof x === 'number');
    return {
      id: entry.id,
      name: entry.name,
      license: entry.license,
      description: entry.description,
      size_bytes: exact
        ? sizes.reduce<number>((a, b) => a + (b as number), 0)
        : (entry.approx_bytes ?? null),
      approximate: !exact,
      reason:
        'Without a model recall matches words and spelling only: a question worded differently from the memory may miss it.',
    };
  }

  /** A person said "not now" to the offer: remembered in config.json, so nobody asks again. */
  declineOffer(): ModelListResult {
    const config = updateConfig(this.deps.dataDir, (raw) => {
      const embedding = (raw.embedding as Record<string, unknown> | undefined) ?? {};
      embedding.offer = 'declined';
      raw.embedding = embedding;
    });
    this.deps.config.embedding.offer = config.embedding.offer;
    return this.listModels();
  }

  async installModel(
    id: string,
    openStores: OpenStore[],
    onProgress?: (p: InstallProgress) => void,
  ): Promise<ModelInfo> {
    const entry = catalogueEntry(id);
    await installModel(entry, installDir(this.deps.dataDir), {
      onProgress: (p) => {
        onProgress?.(p);
        this.deps.events.emit('models.progressed', p);
      },
      onUnpinned: (file, sha) =>
        process.emitWarning(
          `the catalogue pins no hash for ${file} of ${id}; recorded ${sha} from this download`,
        ),
    });
    await this.deps.reconfigure(this.deps.config.embedding.model, openStores);
    return this.listModels().models.find((m) => m.id === id) as ModelInfo;
  }

  async removeModel(id: string, openStores: OpenStore[]): Promise<void> {
    const active = this.deps.embedding.modelId === id;
    if (active) await this.deps.embedding.close();
    removeModel(this.deps.dataDir, id);
    await this.deps.reconfigure(this.deps.config.embedding.model, openStores);
  }

  async useModel(id: string, openStores: OpenStore[]): Promise<ModelListResult> {
    if (
      id !== 'auto' &&
      id !== 'none' &&
      !findModels(this.deps.dataDir, this.deps.env).some((m) => m.manifest.id === id)
    ) {
      throw new LociError(
        'not-found',
        `The model "${id}" is not installed. Install it with \`loci models install ${id}\`.`,
      );
    }
    const config = updateConfig(this.deps.dataDir, (raw) => {
      const embedding = (raw.embedding as Record<string, unknown> | undefined) ?? {};
      embedding.model = id;
      raw.embedding = embedding;
    });
    this.deps.config.embedding.model = config.embedding.model;
    await this.deps.reconfigure(id, openStores);
    return this.listModels();
  }
}
