// The folders agents may ingest from (the MCP tool ingest_file): kept in config.json,
// changed only by a person, checked by real path so that a link cannot lead out.
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import { LociError } from '../../../shared/errors';

export const ALLOW_HINT =
  'The user can allow a folder in the observatory (Settings → allowed folders) or with `loci ingest allow <folder>`.';

export function isWithin(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** Absolute, existing folders, normalised and without repeats. */
export async function validateFolders(folders: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of folders) {
    if (!isAbsolute(f)) {
      throw new LociError(
        'invalid-args',
        `"${f}" is not an absolute path: give the whole path of the folder`,
        { field: 'folders' },
      );
    }
    const info = await stat(f).catch(() => null);
    if (!info)
      throw new LociError('invalid-args', `the folder "${f}" does not exist`, { field: 'folders' });
    if (!info.isDirectory())
      throw new LociError('invalid-args', `"${f}" is a file, not a folder`, { field: 'folders' });
    const normal = resolve(f);
    if (!out.includes(normal)) out.push(normal);
  }
  return out;
}

/**
 * Throws `forbidden` unless every path is inside an allowed folder (both by real path).
 * The caller is an agent: a path outside the folders gets the same answer whether or not
 * it exists, and the answer does not list the folders (it would map the disk for it).
 */
export async function checkAllowed(paths: string[], allowed: string[]): Promise<void> {
  const real: string[] = [];
  for (const a of allowed) {
    const r = await realpath(a).catch(() => null);
    if (r) real.push(r);
  }
  const outside = (p: string) =>
    new LociError(
      'forbidden',
      `"${p}" is outside the folders agents may ingest from${allowed.length ? '' : ' (none is allowed yet)'}. ${ALLOW_HINT}`,
      { path: p },
    );
  for (const p of paths) {
    // As written first (no look at the disk), then by real path (a link cannot lead out).
    const given = resolve(p);
    if (!real.some((a) => isWithin(a, given)) && !allowed.some((a) => isWithin(resolve(a), given)))
      throw outside(p);
    const r = await realpath(p).catch(() => null);
    if (r === null) {
      throw new LociError('not-found', `There is no file or folder at "${p}".`, { path: p });
    }
    if (!real.some((a) => isWithin(a, r))) throw outside(p);
  }
}
