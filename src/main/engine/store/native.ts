// Where the native pieces of the store are found when Loci runs inside the desktop app:
// better-sqlite3 is a Node addon built for one ABI, so the app loads its own Electron
// build (LOCI_SQLITE_BINDING, set by src/main/index.ts) while plain Node (the CLI, tests)
// keeps the one in node_modules. sqlite-vec is a SQLite extension, not a Node addon: the
// same file serves both, but the dynamic loader cannot read inside app.asar.
import { sep } from 'node:path';

/** better-sqlite3's `nativeBinding` option under Electron; nothing under Node. */
export function sqliteBindingOptions(
  versions: NodeJS.ProcessVersions = process.versions,
  env: Record<string, string | undefined> = process.env,
): { nativeBinding?: string } {
  if (!versions.electron) return {};
  const binding = env.LOCI_SQLITE_BINDING;
  return binding ? { nativeBinding: binding } : {};
}

/** A file packed in app.asar is on disk under app.asar.unpacked (asarUnpack). */
export function unpackedPath(path: string): string {
  const packed = `${sep}app.asar${sep}`;
  return path.includes(packed) ? path.replace(packed, `${sep}app.asar.unpacked${sep}`) : path;
}
