// Failures of the disk under the data directory (full, read-only, I/O errors), turned
// into one clear LociError instead of `internal`: what happened, that the write was not
// saved (every write is one transaction: all or nothing), and what to do.
import { LociError } from '../../../shared/errors';

const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
const READONLY = new Set(['EROFS', 'EACCES', 'EPERM']);

export function storageError(err: unknown): LociError | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (FULL.has(code)) {
    return new LociError(
      'unavailable',
      'The disk holding the Loci data directory is full: the change was not saved (nothing half-written). Free some space and try again.',
      { storage: 'full', cause: code },
    );
  }
  if (code.startsWith('SQLITE_READONLY') || READONLY.has(code)) {
    return new LociError(
      'unavailable',
      'The Loci data directory is read-only: the change was not saved. Make it writable (check its permissions and how the disk is mounted), then try again.',
      { storage: 'read-only', cause: code },
    );
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return new LociError(
      'unavailable',
      'The disk holding the Loci data directory reported an I/O error: the change was not saved. Check the disk (and free space), then try again; `loci doctor` checks the store.',
      { storage: 'io-error', cause: code },
    );
  }
  return null;
}
