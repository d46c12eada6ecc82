// Where Loci keeps its data. The desktop app, `loci serve` and the CLI must agree, so
// this mirrors Electron's `app.getPath('userData')` for an app named "Loci" instead of
// asking Electron (which the CLI does not load). `LOCI_HOME` overrides it.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_NAME = 'Loci';

export interface PathEnv {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
}

const defaultPathEnv = (): PathEnv => ({
  env: process.env,
  platform: process.platform,
  home: homedir(),
});

/** Electron's appData folder for this platform (before the app name is appended). */
export function appDataDir({ env, platform, home }: PathEnv): string {
  if (platform === 'win32') return env.APPDATA ?? join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/')
    ? env.XDG_CONFIG_HOME
    : join(home, '.config');
}

export function resolveDataDir(pathEnv: PathEnv = defaultPathEnv()): string {
  const override = pathEnv.env.LOCI_HOME;
  if (override && override.trim() !== '') return resolve(override);
  return join(appDataDir(pathEnv), APP_NAME);
}

export const STORE_FILE = 'loci.db';
export const STORE_META_FILE = 'store.json';
export const CORRUPT_MARKER_FILE = 'CORRUPTED.json';

export function storesDir(dataDir: string): string {
  return join(dataDir, 'stores');
}

export function storeDir(dataDir: string, name: string): string {
  return join(storesDir(dataDir), name);
}

export function keysDir(dataDir: string): string {
  return join(dataDir, 'keys');
}

export function lockFile(dataDir: string): string {
  return join(dataDir, 'loci.lock');
}
