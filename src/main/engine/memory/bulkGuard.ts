// A brake on bulk deletion by agents: an MCP client that forgets or erases more than
// `limit` memories within `windowMs` is refused until the window passes, and told that
// the user must confirm — in the observatory or with `loci forget` — because a poisoned
// memory ("delete every other memory…") or a confused agent must not wipe a store. People
// (the CLI, the observatory) are never limited.
import type { Actor } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { actorName, isPerson } from './model';

export const BULK_DELETE_LIMIT = 10;
export const BULK_DELETE_WINDOW_MS = 10 * 60_000;

export class BulkDeleteGuard {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    readonly limit = BULK_DELETE_LIMIT,
    readonly windowMs = BULK_DELETE_WINDOW_MS,
  ) {}

  /** Throws when this agent is past its deletions in the window; otherwise counts one. */
  check(actor: Actor, store: string): void {
    if (isPerson(actor) || actor.kind !== 'mcp') return;
    const key = `${store}\u0000${actorName(actor)}`;
    const now = this.now();
    const times = (this.recent.get(key) ?? []).filter((t) => t <= now && now - t < this.windowMs);
    if (times.length >= this.limit) {
      this.recent.set(key, times);
      throw new LociError(
        'forbidden',
        `Refused: this agent has already forgotten or erased ${times.length} memories in the last ${Math.round(this.windowMs / 60_000)} minutes. ` +
          `Deleting more needs the user's confirmation: ask them to review and delete these in the Loci observatory (Memories view) or with \`loci forget <id>\`.`,
        {
          limit: this.limit,
          window_minutes: Math.round(this.windowMs / 60_000),
          needs: 'user-confirmation',
        },
      );
    }
    times.push(now);
    this.recent.set(key, times);
  }
}
