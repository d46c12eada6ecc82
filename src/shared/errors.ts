// The one error shape that crosses every boundary (IPC, HTTP, MCP, CLI) as plain data.
// Anything that is not a LociError becomes `internal` with a generic message: no stack
// traces, paths of our own code or secret values leave the engine.

export const ERROR_CODES = [
  /** The arguments do not fit the method's schema or a documented limit. */
  'invalid-args',
  /** The memory, link or other object named does not exist (or is not visible to the caller). */
  'not-found',
  /** The change conflicts with the current state (stale version, wrong state for the action). */
  'conflict',
  /** No store of that name exists. Never silently replaced by the default store. */
  'store-not-found',
  /** A store of that name exists already. */
  'store-exists',
  /** The store's database failed its integrity check and was moved aside. */
  'store-corrupt',
  /** Another process owns the data directory (one writer per data directory). */
  'store-locked',
  /** The store is encrypted and no key for it is reachable (a passphrase not given yet, a missing key file). */
  'key-required',
  /** The key or passphrase given is not the store's. Never taken for a damaged file. */
  'wrong-key',
  /** The environment cannot run Loci safely (SQLite version, pragmas, extensions). */
  'environment',
  /** A downloaded or stored file does not match its expected size or checksum. */
  'integrity',
  /** The caller may not do this. */
  'forbidden',
  /** A method name that does not exist. */
  'unknown-method',
  /** The caller cancelled the call; what was finished before (whole files, whole phases) is kept. */
  'cancelled',
  /** The engine is shutting down or a dependency is unavailable. */
  'unavailable',
  /** Anything unexpected. The message never carries internals. */
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface LociErrorData {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

export class LociError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'LociError';
    this.code = code;
    this.data = data;
  }

  toData(): LociErrorData {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

export function isLociErrorData(value: unknown): value is LociErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return isErrorCode(v.code) && typeof v.message === 'string';
}

/** Turns anything thrown into the public error shape. */
export function toErrorData(err: unknown): LociErrorData {
  if (err instanceof LociError) return err.toData();
  if (isLociErrorData(err))
    return { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) };
  return {
    code: 'internal',
    message: 'Internal error in the Loci engine; see the engine log for details.',
  };
}

/** Rebuilds a throwable error on the receiving side of a transport. */
export function fromErrorData(data: LociErrorData): LociError {
  return new LociError(data.code, data.message, data.data);
}
