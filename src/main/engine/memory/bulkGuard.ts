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

export interface ConfirmHook {
  granted: boolean;
  ask(message: string, question: string, data: Record<string, unknown>): LociError;
}

export class BulkDeleteGuard {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    readonly limit = BULK_DELETE_LIMIT,
    readonly windowMs = BULK_DELETE_WINDOW_MS,
  ) {}

  /**
   * Throws when this agent is past its deletions in the window; otherwise counts one.
   * `confirm`: whether the person already said yes to this deletion in the client, and
   * how to ask them (engine/access/confirm.ts); without it the refusal only instructs.
   */
  check(actor: Actor, store: string, confirm?: ConfirmHook): void {
    if (isPerson(actor) || actor.kind !== 'mcp') return;
    const key = `${store}\u0000${actorName(actor)}`;
    const now = this.now();
    const times = (this.recent.get(key) ?? []).filter((t) => t <= now && now - t < this.windowMs);
    if (times.length >= this.limit && !confirm?.granted) {
      this.recent.set(key, times);
      const minutes = Math.round(this.windowMs / 60_000);
      const message =
        `Refused: this agent has already forgotten or erased ${times.length} memories in the last ${minutes} minutes. ` +
        `Deleting more needs the user's confirmation: ask them to review and delete these in the Loci observatory (Memories view) or with \`loci forget <id>\`.`;
      const data = { limit: this.limit, window_minutes: minutes, needs: 'user-confirmation' };
      throw confirm
        ? confirm.ask(
            message,
            `${actorName(actor)} has already deleted ${times.length} memories from "${store}" in the last ${minutes} minutes and asks to delete one more. Allow it?`,
            data,
          )
        : new LociError('forbidden', message, data);
    }
    times.push(now);
    this.recent.set(key, times);
  }
}
