// The CLI's exit codes, documented in the README: one per kind of failure, and two for a
// command that ran but found a problem.
import type { ErrorCode } from '../../shared/errors';

/** Exit codes by error code. */
export const EXIT_CODES: Record<ErrorCode | 'usage', number> = {
  internal: 1,
  usage: 2,
  'invalid-args': 2,
  'unknown-method': 2,
  'not-found': 3,
  'store-not-found': 3,
  conflict: 4,
  'store-exists': 4,
  forbidden: 4,
  'store-locked': 5,
  unavailable: 5,
  'store-corrupt': 6,
  environment: 7,
  integrity: 8,
  'key-required': 10,
  'wrong-key': 10,
  // As a shell reports a command stopped by Ctrl-C (128 + SIGINT).
  cancelled: 130,
};

/** `loci audit verify` found the chain broken. */
export const EXIT_BROKEN_CHAIN = 8;

/** A check (`loci setup check`, `loci doctor`) ran and found something to fix. */
export const EXIT_FINDINGS = 9;
