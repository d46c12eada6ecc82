// Back-pressure against floods: at most N calls in flight per client, counted per MCP
// session (or, before a session exists, per connection), and per API caller (the
// CLI, the observatory). Past the cap a call is answered 429 at once, before its body is
// read, so one runaway agent cannot queue unbounded work in front of the others or of
// the observatory. What it does not do: limit calls per minute (a loop of sequential
// calls is the agent's own business and costs only its own latency).
import type { IncomingMessage } from 'node:http';

export const MAX_IN_FLIGHT_PER_CLIENT = 32;

/** Who is calling, for the in-flight cap. */
export function clientKey(req: IncomingMessage, path: string): string {
  const header = (name: string) => {
    const v = req.headers[name];
    return (Array.isArray(v) ? v[0] : v)?.slice(0, 200);
  };
  if (path === '/mcp') {
    const session = header('mcp-session-id');
    // Before a session exists (initialize), per connection: agents starting together
    // must not share one budget.
    return session
      ? `mcp:${session}`
      : `mcp-new:${req.socket.remoteAddress ?? ''}:${req.socket.remotePort ?? ''}`;
  }
  return header('x-loci-actor') === 'cli' ? 'api:cli' : 'api:ui';
}

export class ClientLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Counts a call in; false when the client is at its cap (then nothing is counted). */
  acquire(key: string): boolean {
    const n = this.inFlight.get(key) ?? 0;
    if (n >= this.max) return false;
    this.inFlight.set(key, n + 1);
    return true;
  }

  release(key: string): void {
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, n);
  }

  get clients(): number {
    return this.inFlight.size;
  }
}
