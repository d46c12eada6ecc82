// What a process learns about a data directory without loading the engine: the process
// that owns it (the lock file names its pid, port and token: what `loci hook`, `loci mcp`
// and the CLI read before deciding to forward to a running daemon), and a client token's
// grant. Kept apart from host.ts, which opens an engine.
import type { ClientGrant } from '../../shared/api';
import { ClientGrants } from '../engine/access/grants';
import { isProcessAlive, readLock, type LockInfo } from '../engine/store/lock';

export { resolveDataDir } from '../engine/store/paths';

/** The live process that owns the data directory (its lock names it), if any. */
export function liveOwner(dataDir: string): LockInfo | null {
  const lock = readLock(dataDir);
  return lock && isProcessAlive(lock.pid) ? lock : null;
}

/**
 * The grant of a client token (`loci clients add`) of this data directory, or null: read
 * from its clients file without opening a store, so that `loci mcp` refuses a revoked
 * token at once.
 */
export function verifyClientToken(dataDir: string, token: string): ClientGrant | null {
  return new ClientGrants(dataDir).verify(token);
}
