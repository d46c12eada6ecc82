// The contract by domain (callers): who calls: the actor and the context of a call, and
// the documented port.
import type { ClientPolicy } from './security';

/** The daemon's documented port (it falls back to a free one when this is taken). */
export const DEFAULT_PORT = 4747;

// ---------------------------------------------------------------- callers

/** Who is calling: decides the audit actor, the memory source and what is visible. */
export interface Actor {
  /** `dream`: a consolidation cycle writing on its own (audited as actor `dream`). */
  kind: 'ui' | 'cli' | 'mcp' | 'system' | 'dream';
  /** For MCP: the client's name (clientInfo or `Mcp-Client-Id`), e.g. `cursor`. */
  client?: string;
  /** How the call arrived: `ipc`, `http`, `stdio`, `in-process`, … */
  transport?: string;
  /**
   * A client that called with a token of its own (`loci clients add`): its name is the
   * client's, and every call is held to its policy. Absent: the owner's token.
   */
  grant?: ClientGrant;
}

/** The client a token belongs to, and what it may do. */
export interface ClientGrant {
  id: string;
  name: string;
  policy: ClientPolicy;
}

export interface CallContext {
  actor: Actor;
  /**
   * The person's yes, asked in the client by the transport (MCP elicitation), to a
   * request the engine refused with a confirmation id. Only transports set it.
   */
  confirmation?: string;
  /**
   * Told how a long call (an import, a dream, the doctor) moves along: at most a few
   * times a second, `done` only ever growing. Set by transports that relay it (MCP
   * progress notifications).
   */
  progress?: (p: CallProgress) => void;
  /** Aborted when the caller gives up (MCP cancellation): a long call stops soon after. */
  signal?: AbortSignal;
  /** The daemon's warnings about this call, for its caller (MCP log notifications). */
  log?: (level: CallLogLevel, message: string) => void;
}

/** Where a long call is: `done` of `total` (when known), and what it is doing now. */
export interface CallProgress {
  done: number;
  total?: number;
  message?: string;
}

/** The levels a caller is told things at (syslog's, as MCP logging uses them). */
export type CallLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error';
