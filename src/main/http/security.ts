// Request checks for the HTTP server, applied before any body is read: the Host header
// (DNS-rebinding defence: only loopback names, or the configured host, with our port),
// the Origin header (only our own pages and the desktop app), and the bearer token
// (compared in constant time). What it does not do: rate limiting and body parsing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ClientGrant } from '../../shared/api';

export const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]', '::1'];

export function isLoopbackHost(host: string): boolean {
  return (
    host === '127.0.0.1' ||
    host === 'localhost' ||
    host === '::1' ||
    host === '[::1]' ||
    host.startsWith('127.')
  );
}

export interface SecurityPolicy {
  port: () => number;
  /** A non-loopback name the server was bound to (then also accepted in Host). */
  boundHost?: string | undefined;
  /** Extra origins allowed to call (the desktop app's `app://loci`). */
  origins: string[];
  token: () => string | null;
  /** A client token's grant (engine/access), or null when the token is none of theirs. */
  clientGrant?: (token: string) => ClientGrant | null;
}

function hostPart(value: string): { host: string; port: string | null } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(value.trim().toLowerCase());
  return m ? { host: m[1] as string, port: m[2] ?? null } : { host: '', port: null };
}

export function checkHost(req: IncomingMessage, policy: SecurityPolicy): boolean {
  const header = req.headers.host;
  if (!header) return false;
  const { host, port } = hostPart(header);
  if (port !== String(policy.port())) return false;
  return (
    LOOPBACK_NAMES.includes(host) ||
    (policy.boundHost !== undefined && host === policy.boundHost.toLowerCase())
  );
}

export function checkOrigin(
  req: IncomingMessage,
  policy: SecurityPolicy,
): { ok: boolean; reason?: string } {
  const origin = req.headers.origin;
  if (origin === undefined) {
    // Agents and the CLI send no Origin. A browser does on cross-site requests; one that
    // says the request is cross-site but hides the origin is refused.
    return req.headers['sec-fetch-site'] === 'cross-site'
      ? { ok: false, reason: 'cross-site request without an Origin' }
      : { ok: true };
  }
  if (origin === 'null') return { ok: false, reason: 'Origin "null" (a sandboxed or file page)' };
  if (policy.origins.includes(origin)) return { ok: true };
  try {
    const url = new URL(origin);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const host = url.hostname.startsWith('[')
      ? url.hostname
      : url.hostname.includes(':')
        ? `[${url.hostname}]`
        : url.hostname;
    if ((url.protocol === 'http:' || url.protocol === 'https:') && port === String(policy.port())) {
      if (
        LOOPBACK_NAMES.includes(host) ||
        (policy.boundHost && host === policy.boundHost.toLowerCase())
      )
        return { ok: true };
    }
  } catch {
    return { ok: false, reason: 'malformed Origin' };
  }
  return { ok: false, reason: `foreign Origin ${origin}` };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of the request's bearer token with ours. */
export function checkToken(req: IncomingMessage, policy: SecurityPolicy): boolean {
  return authenticate(req, policy)?.kind === 'owner';
}

export type Caller = { kind: 'owner' } | { kind: 'client'; grant: ClientGrant };

/**
 * Who the bearer token says the caller is: the owner (the daemon's token, compared in
 * constant time), a client with a token of its own, or nobody (null).
 */
export function authenticate(req: IncomingMessage, policy: SecurityPolicy): Caller | null {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  const given = m?.[1] ?? '';
  const expected = policy.token();
  if (expected === null && given === '') return { kind: 'owner' };
  if (expected !== null && timingSafeEqual(digest(given), digest(expected)))
    return { kind: 'owner' };
  const grant = given ? (policy.clientGrant?.(given) ?? null) : null;
  if (grant) return { kind: 'client', grant };
  return expected === null ? { kind: 'owner' } : null;
}
