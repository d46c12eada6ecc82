// Confirmations where the person is: a request an agent may not make on its own (a
// bulk deletion past the limit, an ingest from a folder not allowed) is refused with a
// question and a one-time id. A transport that can ask the person in the client (MCP
// elicitation) asks, and on a yes calls again with the id: that exact request (same
// caller, method and arguments), once, within five minutes. An agent cannot answer for
// the person: the id travels in the call's context, which only a transport sets.
import { randomBytes } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Actor, CallContext } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { actorName } from '../memory/model';

export const CONFIRMATION_TTL_MS = 5 * 60_000;

interface Pending {
  key: string;
  expires: number;
}

export class Confirmations {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly now: () => number) {}

  private keyOf(actor: Actor, method: string, args: unknown): string {
    return `${actorName(actor)}\u0000${method}\u0000${canonicalize(args ?? {}) ?? ''}`;
  }

  /**
   * The refusal that asks: `message` says what to do without a prompt (today's
   * instructions); `question` is what the person is asked in the client.
   */
  needed(
    actor: Actor,
    method: string,
    args: unknown,
    message: string,
    question: string,
    data: Record<string, unknown> = {},
  ): LociError {
    const now = this.now();
    for (const [id, p] of this.pending) if (p.expires <= now) this.pending.delete(id);
    const id = randomBytes(12).toString('base64url');
    this.pending.set(id, {
      key: this.keyOf(actor, method, args),
      expires: now + CONFIRMATION_TTL_MS,
    });
    return new LociError('forbidden', message, {
      ...data,
      needs: 'user-confirmation',
      confirmation: { id, question },
    });
  }

  /** Whether this call carries the person's yes to exactly this request (used up). */
  granted(ctx: CallContext, method: string, args: unknown): boolean {
    const id = ctx.confirmation;
    if (!id) return false;
    const p = this.pending.get(id);
    if (!p || p.expires <= this.now() || p.key !== this.keyOf(ctx.actor, method, args))
      return false;
    this.pending.delete(id);
    return true;
  }
}
