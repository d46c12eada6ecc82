// Files and folders dropped on the window (their real paths, from the preload) or on the
// tray icon (macOS) are imported with `ingest.files {paths}`: the engine reads them from
// disk in its parser worker. Nothing is uploaded; the window shows the Ingest view.
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Tray } from 'electron';
import type { CallContext, IngestReport } from '../../shared/api';
import { LIMITS } from '../../shared/schemas';
import type { Dispatcher } from './ipc';

export interface DropIngestOptions {
  handlers: Dispatcher;
  /** Shows the window on the Ingest view (its recent imports follow the batch). */
  showIngest: () => void;
  /** Tells the person why nothing was imported, or what failed. */
  notify: (message: string) => void;
}

export type DropSource = 'window' | 'tray';

/** The paths worth sending: absolute, existing, each once. Returns why when none is. */
export function checkDroppedPaths(paths: readonly string[]): {
  paths: string[];
  refused: string[];
} {
  const seen = new Set<string>();
  const ok: string[] = [];
  const refused: string[] = [];
  for (const p of paths) {
    if (seen.has(p)) continue;
    seen.add(p);
    let exists = false;
    try {
      exists = isAbsolute(p) && p.length <= 4096 && !p.includes('\0') && Boolean(statSync(p));
    } catch {
      exists = false;
    }
    (exists ? ok : refused).push(p);
  }
  return { paths: ok, refused };
}

export function createDropIngest(options: DropIngestOptions) {
  return async function ingestDropped(
    paths: readonly string[],
    source: DropSource,
    /** The store the window shows (the engine's default when absent). */
    store?: string,
  ): Promise<IngestReport | null> {
    const checked = checkDroppedPaths(paths);
    if (checked.paths.length === 0) {
      options.notify(
        'Nothing to import: what was dropped is not a file or folder on this computer.',
      );
      return null;
    }
    if (checked.paths.length > LIMITS.ingestPathsMax) {
      options.notify(
        `Too many items dropped at once (${checked.paths.length}; at most ${LIMITS.ingestPathsMax}): drop their folder instead.`,
      );
      return null;
    }
    options.showIngest();
    const ctx: CallContext = {
      actor: { kind: 'ui', transport: source === 'tray' ? 'tray' : 'ipc' },
    };
    try {
      return (await options.handlers.dispatch(
        'ingest.files',
        store ? { store, paths: checked.paths } : { paths: checked.paths },
        ctx,
      )) as IngestReport;
    } catch (err) {
      options.notify(`The import failed: ${(err as Error).message}`);
      return null;
    }
  };
}

export type DropIngest = ReturnType<typeof createDropIngest>;

/** macOS: files dropped on the menu-bar icon are imported the same way. */
export function acceptTrayDrops(
  tray: Pick<Tray, 'on'>,
  ingest: DropIngest,
  platform = process.platform,
): boolean {
  if (platform !== 'darwin') return false;
  tray.on('drop-files', (_event, files: string[]) => void ingest(files, 'tray'));
  return true;
}
