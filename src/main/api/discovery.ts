// Finding the process that owns a data directory, without loading the engine: the lock
// file names its pid, port and token (what `loci hook` and the CLI read before deciding
// to forward to a running daemon). Kept apart from host.ts, which opens an engine.
import { isProcessAlive, readLock, type LockInfo } from '../engine/store/lock';

export { resolveDataDir } from '../engine/store/paths';

/** The live process that owns the data directory (its lock names it), if any. */
export function liveOwner(dataDir: string): LockInfo | null {
  const lock = readLock(dataDir);
  return lock && isProcessAlive(lock.pid) ? lock : null;
}
