// Installing a model from the catalogue: each file is downloaded into a staging folder
// (resuming a partial file with an HTTP Range request, retrying with back-off), checked
// against its size and sha256, the model is test-loaded, and only then is the folder
// moved into place in one rename. Nothing here runs unless a person asked for it.
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { LociError } from '../../../shared/errors';
import { sha256File, type CatalogueEntry, type ModelManifest } from './manifest';
import type { OnnxModel } from './onnxModel';

export interface InstallProgress {
  model: string;
  file: string;
  /** 1-based position of the file among the model's files. */
  index: number;
  files: number;
  received: number;
  total: number | null;
}

export interface InstallOptions {
  fetchImpl?: typeof fetch;
  onProgress?: (p: InstallProgress) => void;
  /** Attempts per file before giving up (network errors and 5xx only). */
  attempts?: number;
  /** Base back-off in ms (doubles per attempt). */
  backoffMs?: number;
  signal?: AbortSignal;
  /** Called once per file whose catalogue entry has no pinned hash. */
  onUnpinned?: (file: string, sha256: string) => void;
}

export interface InstallResult {
  manifest: ModelManifest;
  dir: string;
  /** Files whose hash was recorded at download because the catalogue had none. */
  unpinned: string[];
}

class Retryable extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function downloadOnce(
  url: string,
  part: string,
  fetchImpl: typeof fetch,
  report: (received: number, total: number | null) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const offset = existsSync(part) ? statSync(part).size : 0;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: offset > 0 ? { Range: `bytes=${offset}-` } : {},
      redirect: 'follow',
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (signal?.aborted) throw new LociError('unavailable', 'The download was cancelled.');
    throw new Retryable(`cannot reach ${new URL(url).host}: ${(err as Error).message}`);
  }
  if (response.status === 416 && offset > 0) return; // the part is already whole
  if (response.status >= 500 || response.status === 429)
    throw new Retryable(`HTTP ${response.status} from ${new URL(url).host}`);
  if (response.status !== 200 && response.status !== 206) {
    throw new LociError('unavailable', `Download of ${url} failed: HTTP ${response.status}.`, {
      status: response.status,
    });
  }
  const resumed = response.status === 206;
  const start = resumed ? offset : 0;
  const length = Number(response.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(length) ? start + length : null;
  const out = createWriteStream(part, { flags: resumed ? 'a' : 'w' });
  let received = start;
  report(received, total);
  try {
    if (!response.body) throw new Retryable('empty response body');
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (!out.write(chunk))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      received += chunk.length;
      report(received, total);
    }
  } catch (err) {
    if (err instanceof Retryable) throw err;
    if (signal?.aborted) throw new LociError('unavailable', 'The download was cancelled.');
    throw new Retryable(`the transfer broke off: ${(err as Error).message}`);
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
  }
  if (total !== null && received < total)
    throw new Retryable(`the transfer ended early (${received} of ${total} bytes)`);
}

export async function installModel(
  entry: CatalogueEntry,
  modelsDir: string,
  options: InstallOptions = {},
): Promise<InstallResult> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const attempts = options.attempts ?? 4;
  const backoff = options.backoffMs ?? 500;
  mkdirSync(modelsDir, { recursive: true });
  const staging = join(modelsDir, `.staging-${entry.id}`);
  mkdirSync(staging, { recursive: true });

  const files = Object.entries(entry.files);
  const recorded: ModelManifest['files'] = {};
  const unpinned: string[] = [];
  for (const [index, [name, file]] of files.entries()) {
    const final = join(staging, name);
    const part = `${final}.part`;
    const report = (received: number, total: number | null) =>
      options.onProgress?.({
        model: entry.id,
        file: name,
        index: index + 1,
        files: files.length,
        received,
        total: total ?? file.size,
      });

    const alreadyGood =
      existsSync(final) && file.sha256 !== null && (await sha256File(final)) === file.sha256;
    if (!alreadyGood) {
      for (let attempt = 1; ; attempt++) {
        try {
          await downloadOnce(file.url, part, fetchImpl, report, options.signal);
          break;
        } catch (err) {
          if (!(err instanceof Retryable)) throw err;
          if (attempt >= attempts) {
            throw new LociError(
              'unavailable',
              `Download of ${name} for ${entry.id} failed after ${attempts} attempts: ${err.message}. Run the install again to resume.`,
            );
          }
          await sleep(backoff * 2 ** (attempt - 1));
        }
      }
      const size = statSync(part).size;
      if (file.size !== null && size !== file.size) {
        rmSync(part, { force: true });
        throw new LociError(
          'integrity',
          `${name} for ${entry.id} is ${size} bytes, the catalogue says ${file.size}. Nothing was installed.`,
        );
      }
      const actual = await sha256File(part);
      if (file.sha256 !== null && actual !== file.sha256) {
        rmSync(part, { force: true });
        throw new LociError(
          'integrity',
          `${name} for ${entry.id} does not match its checksum (sha256 ${actual}, expected ${file.sha256}). It was deleted and nothing was installed.`,
        );
      }
      renameSync(part, final);
    }
    const sha256 = file.sha256 ?? (await sha256File(final));
    if (file.sha256 === null) {
      unpinned.push(name);
      options.onUnpinned?.(name, sha256);
    }
    recorded[name] = {
      sha256,
      size: statSync(final).size,
      ...(file.sha256 === null ? { pinned: false } : {}),
    };
  }

  const manifest: ModelManifest = {
    id: entry.id,
    name: entry.name,
    dims: entry.dims,
    pooling: entry.pooling,
    normalize: true,
    max_tokens: entry.max_tokens,
    query_prefix: entry.query_prefix,
    passage_prefix: entry.passage_prefix,
    license: entry.license,
    source_url: entry.source_url,
    files: recorded,
    installed_at: new Date().toISOString(),
  };
  writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  // A file can have the right bytes and still not be this model: load it and embed once.
  let model: OnnxModel | null = null;
  try {
    // ONNX Runtime is loaded only here and in the embedding worker, never at start.
    const { OnnxModel } = await import('./onnxModel');
    model = await OnnxModel.load(staging, { threads: 1 });
    const [vector] = await model.embed(['Loci checks that the model runs.'], 'passage');
    if (!vector || vector.length !== entry.dims) {
      throw new Error(`it produced ${vector?.length ?? 0} dimensions, expected ${entry.dims}`);
    }
  } catch (err) {
    throw new LociError(
      'integrity',
      `The downloaded ${entry.id} does not run: ${(err as Error).message}. It was not installed.`,
    );
  } finally {
    await model?.close();
  }

  const target = join(modelsDir, entry.id);
  const old = `${target}.old-${Date.now()}`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
  return { manifest, dir: target, unpinned };
}
