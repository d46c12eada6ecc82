// Walks what was dropped or named: files as they are, folders recursively. Honours
// .gitignore and .lociignore files at every level; skips hidden entries, links that
// lead outside the root (by real path), anything that is not a regular file, and
// files past the size limit. Every skip is listed with its reason.
import { lstat, readFile, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { formatBytes } from '../../../shared/format';

export interface WalkedFile {
  /** Absolute path to read. */
  abs: string;
  /** Path as the report shows it (absolute, or relative to an upload's root). */
  display: string;
  bytes: number;
}

export interface WalkSkip {
  display: string;
  bytes: number;
  reason: string;
}

export interface WalkOptions {
  maxFileBytes: number;
  maxFiles: number;
  /** How paths are shown: `absolute`, or relative to this folder (uploads). */
  displayRoot?: string;
  shouldStop?: () => boolean;
  onFound?: (files: number) => void;
}

const IGNORE_FILES = ['.gitignore', '.lociignore'];
/** Never worth reading, whatever the ignore files say. */
const ALWAYS_SKIPPED = new Set(['node_modules', '__pycache__']);

interface IgnoreScope {
  dir: string;
  rules: Ignore;
}

function within(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
}

export async function walk(
  roots: string[],
  options: WalkOptions,
): Promise<{ files: WalkedFile[]; skipped: WalkSkip[] }> {
  const files: WalkedFile[] = [];
  const skipped: WalkSkip[] = [];
  const seen = new Set<string>();
  const show = (abs: string) =>
    options.displayRoot ? relative(options.displayRoot, abs).split(sep).join('/') : abs;

  const addFile = (abs: string, real: string, size: number) => {
    if (seen.has(real)) {
      skipped.push({
        display: show(abs),
        bytes: size,
        reason: 'the same file as another one here (a link to it)',
      });
      return;
    }
    seen.add(real);
    if (size > options.maxFileBytes) {
      skipped.push({
        display: show(abs),
        bytes: size,
        reason: `too large: ${formatBytes(size)} (the largest file read is ${formatBytes(options.maxFileBytes)})`,
      });
      return;
    }
    if (files.length >= options.maxFiles) {
      skipped.push({
        display: show(abs),
        bytes: size,
        reason: `not read: one import takes at most ${options.maxFiles} files`,
      });
      return;
    }
    files.push({ abs, display: show(abs), bytes: size });
    options.onFound?.(files.length);
  };

  const loadScope = async (dir: string): Promise<IgnoreScope | null> => {
    let rules: Ignore | null = null;
    for (const name of IGNORE_FILES) {
      try {
        const text = await readFile(join(dir, name), 'utf8');
        rules ??= ignore();
        rules.add(text);
      } catch {
        /* no such ignore file here */
      }
    }
    return rules ? { dir, rules } : null;
  };

  const ignoredBy = (scopes: IgnoreScope[], abs: string, isDir: boolean): boolean =>
    scopes.some((s) => {
      const rel = relative(s.dir, abs).split(sep).join('/');
      return rel !== '' && !rel.startsWith('..') && s.rules.ignores(isDir ? `${rel}/` : rel);
    });

  const walkDir = async (dir: string, rootReal: string, scopes: IgnoreScope[]) => {
    if (options.shouldStop?.()) return;
    const scope = await loadScope(dir);
    const here = scope ? [...scopes, scope] : scopes;
    let entries: string[];
    try {
      entries = (await readdir(dir)).sort();
    } catch (err) {
      skipped.push({
        display: show(dir),
        bytes: 0,
        reason: `folder not readable: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      });
      return;
    }
    for (const name of entries) {
      if (options.shouldStop?.()) return;
      const abs = join(dir, name);
      let info;
      try {
        info = await lstat(abs);
      } catch {
        continue; // gone since the listing
      }
      if (name.startsWith('.')) {
        if (!IGNORE_FILES.includes(name))
          skipped.push({
            display: show(abs),
            bytes: info.isFile() ? info.size : 0,
            reason: info.isDirectory() ? 'hidden folder' : 'hidden file',
          });
        continue;
      }
      let target = info;
      let real = abs;
      if (info.isSymbolicLink()) {
        try {
          real = await realpath(abs);
          target = await stat(real);
        } catch {
          skipped.push({ display: show(abs), bytes: 0, reason: 'broken link' });
          continue;
        }
        if (!within(rootReal, real)) {
          skipped.push({
            display: show(abs),
            bytes: 0,
            reason: 'a link leading outside the dropped folder: not followed',
          });
          continue;
        }
      }
      const isDir = target.isDirectory();
      if (ALWAYS_SKIPPED.has(name) && isDir) {
        skipped.push({ display: show(abs), bytes: 0, reason: `${name} folder: not read` });
        continue;
      }
      if (ignoredBy(here, abs, isDir)) {
        skipped.push({
          display: show(abs),
          bytes: target.isFile() ? target.size : 0,
          reason: `ignored by ${isDir ? 'an ignore rule (folder)' : 'an ignore rule'} (.gitignore or .lociignore)`,
        });
        continue;
      }
      if (isDir) {
        if (seen.has(real)) continue; // a link back into a folder already walked
        seen.add(real);
        await walkDir(abs, rootReal, here);
      } else if (target.isFile()) {
        addFile(
          abs,
          info.isSymbolicLink() ? real : await realpath(abs).catch(() => abs),
          target.size,
        );
      } else {
        skipped.push({
          display: show(abs),
          bytes: 0,
          reason: 'not a regular file (a device, socket or pipe)',
        });
      }
    }
  };

  for (const root of roots) {
    if (options.shouldStop?.()) break;
    let real: string;
    let info;
    try {
      real = await realpath(root);
      info = await stat(real);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      skipped.push({
        display: show(root),
        bytes: 0,
        reason:
          code === 'ENOENT'
            ? 'no such file or folder'
            : `not readable (${code ?? (err as Error).message})`,
      });
      continue;
    }
    if (info.isDirectory()) {
      if (seen.has(real)) continue;
      seen.add(real);
      await walkDir(root, real, []);
    } else if (info.isFile()) {
      addFile(root, real, info.size);
    } else {
      skipped.push({
        display: show(root),
        bytes: 0,
        reason: 'not a regular file (a device, socket or pipe)',
      });
    }
  }
  return { files, skipped };
}
