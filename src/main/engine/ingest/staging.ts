// Browser uploads: a page cannot hand the engine paths, so it stages each file under
// <data dir>/ingest-staging/<upload>/<path>; `ingest.files {upload}` then ingests that
// folder as one root and removes it. Staging folders never ingested go after a day.
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { IngestUploadResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { LIMITS } from '../../../shared/schemas';
import { STAGING_MAX_AGE_MS } from './limits';
import { formatBytes } from '../../../shared/format';

interface Staged {
  sizes: Map<string, number>;
  bytes: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class Staging {
  readonly root: string;
  /** Per upload, what is staged (a promise: parallel calls share the first scan). */
  private readonly uploads = new Map<string, Promise<Staged>>();

  constructor(
    dataDir: string,
    private readonly maxUploadBytes: number,
  ) {
    this.root = join(dataDir, 'ingest-staging');
  }

  /** Removes staging folders older than a day (uploads that were never ingested). */
  sweep(now = Date.now()): void {
    let names: string[];
    try {
      names = readdirSync(this.root);
    } catch {
      return;
    }
    for (const name of names) {
      try {
        if (now - statSync(join(this.root, name)).mtimeMs > STAGING_MAX_AGE_MS) {
          rmSync(join(this.root, name), { recursive: true, force: true });
        }
      } catch {
        /* removed meanwhile */
      }
    }
  }

  dirOf(upload: string): string {
    return join(this.root, upload);
  }

  private load(upload: string): Promise<Staged> {
    let loading = this.uploads.get(upload);
    if (!loading) {
      loading = this.scan(upload);
      this.uploads.set(upload, loading);
    }
    return loading;
  }

  private async scan(upload: string): Promise<Staged> {
    const s: Staged = { sizes: new Map(), bytes: 0 };
    const visit = async (d: string) => {
      for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
        const p = join(d, e.name);
        if (e.isDirectory()) await visit(p);
        else if (e.isFile()) {
          const size = (await stat(p)).size;
          s.sizes.set(p, size);
          s.bytes += size;
        }
      }
    };
    await visit(this.dirOf(upload));
    return s;
  }

  async put(
    upload: string,
    path: string,
    base64: string,
    modified: number | undefined,
  ): Promise<IngestUploadResult> {
    const dir = this.dirOf(upload);
    const target = resolve(dir, ...path.split('/'));
    if (!target.startsWith(dir + sep)) {
      throw new LociError('invalid-args', `upload path "${path}" leads outside its upload`, {
        field: 'path',
      });
    }
    const clean = base64.replace(/\s+/g, '');
    if (clean.length % 4 === 1 || !BASE64.test(clean)) {
      throw new LociError('invalid-args', 'content_base64 is not valid base64', {
        field: 'content_base64',
      });
    }
    const bytes = Buffer.from(clean, 'base64');
    if (bytes.length > LIMITS.uploadFileMaxBytes) {
      throw new LociError(
        'invalid-args',
        `${path} is larger than 32 MiB, the most one upload call takes`,
        { field: 'content_base64' },
      );
    }
    const staged = await this.load(upload);
    const previous = staged.sizes.get(target) ?? 0;
    const total = staged.bytes - previous + bytes.length;
    if (total > this.maxUploadBytes) {
      throw new LociError(
        'invalid-args',
        `this upload would stage ${formatBytes(total)}; one upload may stage at most ${formatBytes(this.maxUploadBytes)}. Ingest the files in several drops.`,
        { field: 'content_base64', bytes: total, max: this.maxUploadBytes },
      );
    }
    // Reserved before the first await, so parallel calls cannot both pass the limit.
    const hadBefore = staged.sizes.has(target);
    staged.sizes.set(target, bytes.length);
    staged.bytes = total;
    const unreserve = () => {
      staged.bytes -= bytes.length - previous;
      if (hadBefore) staged.sizes.set(target, previous);
      else staged.sizes.delete(target);
    };
    try {
      mkdirSync(this.root, { recursive: true, mode: 0o700 });
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      // Hidden and unique: a walk of the upload never sees a half-written file.
      const tmp = join(
        dirname(target),
        `.${basename(target)}.${randomBytes(6).toString('hex')}.part`,
      );
      await writeFile(tmp, bytes, { mode: 0o600 });
      await rename(tmp, target);
      if (modified !== undefined) {
        const t = new Date(modified);
        await utimes(target, t, t);
      }
    } catch (err) {
      unreserve();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST') {
        throw new LociError(
          'invalid-args',
          `upload path "${path}" clashes with a file or folder already staged under that name`,
          { field: 'path' },
        );
      }
      throw err;
    }
    return { upload, path, bytes: bytes.length, files: staged.sizes.size };
  }

  async exists(upload: string): Promise<boolean> {
    return (await stat(this.dirOf(upload)).catch(() => null))?.isDirectory() ?? false;
  }

  /** The upload's top-level names (what was dropped). */
  async topLevel(upload: string): Promise<string[]> {
    return (await readdir(this.dirOf(upload)).catch(() => [])).sort();
  }

  async remove(upload: string): Promise<void> {
    this.uploads.delete(upload);
    await rm(this.dirOf(upload), { recursive: true, force: true });
  }
}
