// What a transport needs of the engine besides calling methods: opening one in this
// process (the CLI and `loci mcp` without a daemon), finding the data directory and the
// process that owns it, the daemon's token, and the one operation that must run with no
// engine open (restoring a store's database from a backup). Transports import the engine
// for its types only; its values reach them through here.
import { LociError } from '../../shared/errors';
import { Engine, type EngineOptions } from '../engine/engine';
import { restoreDatabase, type RestoreResult } from '../engine/store/backup';
import { DataDirLock, describeOwner } from '../engine/store/lock';
import { liveOwner } from './discovery';
import type { LockInfo } from '../engine/store/lock';
import { KeyVault, type KeyVaultOptions } from '../engine/store/keys';
import { StoreRegistry } from '../engine/store/registry';
import { createHandlers, type HandlerRegistry } from './index';

export { liveOwner, resolveDataDir } from './discovery';
export { loadOrCreateToken } from '../engine/store/token';
export type { EngineOptions, LockInfo };

/** An engine opened in this process, with the handlers of every method. */
export async function openEngine(
  options: EngineOptions,
): Promise<{ engine: Engine; handlers: HandlerRegistry }> {
  const engine = await Engine.open(options);
  return { engine, handlers: createHandlers(engine) };
}

/**
 * Replaces a store's database with a backup while no process has the data directory
 * open (the current file is moved aside, not deleted), then opens it once: integrity
 * check and migrations, as on any start.
 */
export async function restoreStoreOffline(
  dataDir: string,
  store: string,
  file: string,
  /** How an encrypted store's key is found (the CLI's environment and prompt). */
  vault: KeyVaultOptions = {},
): Promise<RestoreResult> {
  const owner = liveOwner(dataDir);
  if (owner) {
    throw new LociError(
      'store-locked',
      `Loci is running (${describeOwner(owner)}) and has the store open. Stop it (quit the app or the \`loci serve\` process), then run \`loci backup restore\` again.`,
      { owner: { pid: owner.pid, kind: owner.kind } },
    );
  }
  const lock = DataDirLock.acquire(dataDir, 'cli');
  let result;
  try {
    const registry = new StoreRegistry(dataDir, {}, new KeyVault(dataDir, vault));
    registry.resolve(store);
    const keys = registry.vault.descriptor(store) ? await registry.vault.candidates(store) : [];
    result = await restoreDatabase(dataDir, store, file, Date.now(), keys);
  } finally {
    lock.release();
  }
  const engine = await Engine.open({ dataDir, owner: 'cli', env: {}, keys: vault });
  try {
    await engine.store(store);
  } finally {
    await engine.close();
  }
  return result;
}
