// The Electron composition root (package.json "main"): points the engine at the native
// files made for Electron and at the models bundled with a packaged app, then runs the
// desktop app (src/main/electron/app.ts) around the same daemon as `loci serve`.
// It imports no electron itself (DESIGN.md §3: only src/main/electron does).
import { existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDaemon } from './daemon';

/** Where the app's own files are: resources/ when packaged, the repository otherwise. */
export function nativeRoots(
  resourcesPath: string | undefined,
  here: string = dirname(fileURLToPath(import.meta.url)),
): string[] {
  return [
    ...(resourcesPath ? [resourcesPath] : []),
    // out/main/index.js → the repository (development: `npm start` with Electron installed).
    resolve(here, '..', '..'),
  ];
}

/**
 * better-sqlite3 built for Electron's ABI (scripts/native-electron.mjs, run at packaging):
 * native/electron/better_sqlite3.node. Null when it was not built.
 */
export function findElectronSqliteBinding(roots: string[]): string | null {
  for (const root of roots) {
    const file = join(root, 'native', 'electron', 'better_sqlite3.node');
    if (existsSync(file)) return file;
  }
  return null;
}

export function configureEnvironment(
  env: Record<string, string | undefined>,
  resourcesPath: string | undefined,
): void {
  const binding = findElectronSqliteBinding(nativeRoots(resourcesPath));
  if (binding && !env.LOCI_SQLITE_BINDING) env.LOCI_SQLITE_BINDING = binding;
  // A packaged app bundles its models as extra resources (electron-builder.yml).
  const bundled = resourcesPath ? join(resourcesPath, 'models') : null;
  if (bundled && existsSync(bundled)) {
    const paths = (env.LOCI_MODEL_PATH ?? '').split(delimiter).filter(Boolean);
    if (!paths.includes(bundled)) env.LOCI_MODEL_PATH = [...paths, bundled].join(delimiter);
  }
}

const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
const packaged = Boolean(resourcesPath && /app\.asar/.test(fileURLToPath(import.meta.url)));
if (process.versions.electron) {
  configureEnvironment(process.env, packaged ? resourcesPath : undefined);
  const { runDesktopApp } = await import('./electron/app');
  await runDesktopApp({ startDaemon });
}
