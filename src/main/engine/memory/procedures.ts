// Procedures that compete (DESIGN.md §7, skill competition): agents report whether a
// procedural memory worked; find_procedures puts the ones with the best record first,
// judged by the lower bound of the 95 % Wilson interval of their success rate, per niche.
import type { Actor, FindProceduresResult, OutcomeResult, RecallResult } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { actorName } from './model';
import { loadRow, requireRow } from './read';

/** Lower bound of the Wilson score interval (z = 1.96); 0 with no trials. */
export function wilsonLower(successes: number, trials: number, z = 1.96): number {
  if (trials === 0) return 0;
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p) + z2 / (4 * trials)) / trials);
  return Math.max(0, (centre - margin) / (1 + z2 / trials));
}

/** The whole Wilson score interval (z = 1.96): [0, 1] with no trials. */
export function wilsonInterval(successes: number, trials: number, z = 1.96): [number, number] {
  if (trials === 0) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p) + z2 / (4 * trials)) / trials);
  return [wilsonLower(successes, trials, z), Math.min(1, (centre + margin) / (1 + z2 / trials))];
}

export function outcomes(
  store: OpenStore,
  rid: number,
  niche: string | null,
): { successes: number; failures: number } {
  const row = stmt(
    store.db,
    `SELECT COALESCE(SUM(success), 0) AS s, COUNT(*) AS n FROM procedure_outcome
      WHERE rid = ? AND (? IS NULL OR niche = ?)`,
  ).get(rid, niche, niche) as { s: number; n: number };
  return { successes: row.s, failures: row.n - row.s };
}

export function recordOutcome(
  store: OpenStore,
  actor: Actor,
  args: { id: string; success: boolean; niche?: string | undefined },
  now: number,
): OutcomeResult {
  const row = requireRow(store, actor, args.id);
  if (row.kind !== 'procedural') {
    throw new LociError(
      'conflict',
      `Memory ${args.id} is ${row.kind}; outcomes are recorded for procedural memories (how-tos, runbooks). Change its kind first if it is one.`,
      { id: args.id, kind: row.kind },
    );
  }
  const niche = args.niche ?? null;
  store.db.transaction(() => {
    stmt(
      store.db,
      'INSERT INTO procedure_outcome (rid, at, success, niche, actor) VALUES (?, ?, ?, ?, ?)',
    ).run(row.rid, now, args.success ? 1 : 0, niche, actorName(actor));
    store.audit.append(
      {
        actor: actorName(actor),
        action: 'procedure.outcome',
        target: args.id,
        data: { success: args.success, niche },
      },
      now,
    );
  })();
  const o = outcomes(store, row.rid, niche);
  return {
    id: args.id,
    niche,
    ...o,
    wilson_lower: Math.round(wilsonLower(o.successes, o.successes + o.failures) * 1e4) / 1e4,
  };
}

/**
 * Whether the last dream's skill competition made this procedure the champion of the
 * niche (outcomes without a niche compete in ''); without a niche, of any niche.
 */
export function isChampion(store: OpenStore, rid: number, niche: string | null): boolean {
  return (
    stmt(
      store.db,
      `SELECT 1 FROM procedure_standing WHERE rid = ? AND champion = 1 AND (? IS NULL OR niche = ?) LIMIT 1`,
    ).get(rid, niche, niche) !== undefined
  );
}

/**
 * Procedures relevant to a task, the proven ones first: the champions of the last
 * dream's skill competition (in the niche; without one, in any), then 0.7 × relevance
 * + 0.3 × the lower bound of the Wilson interval of their success rate (in the niche).
 * `found` is a recall of procedural memories, about three times `limit` deep.
 */
export function rankProcedures(
  store: OpenStore,
  found: RecallResult,
  niche: string | null,
  limit: number,
): FindProceduresResult {
  const ranked = found.results
    .map((hit) => {
      const rid = loadRow(store, hit.id)?.rid ?? 0;
      const o = outcomes(store, rid, niche);
      const wilson = wilsonLower(o.successes, o.successes + o.failures);
      return {
        ...hit,
        ...o,
        wilson_lower: Math.round(wilson * 1e4) / 1e4,
        champion: isChampion(store, rid, niche),
        rank: 0.7 * hit.score + 0.3 * wilson,
      };
    })
    .sort((a, b) => Number(b.champion) - Number(a.champion) || b.rank - a.rank)
    .slice(0, limit)
    .map(({ rank: _rank, ...hit }) => hit);
  return {
    store: store.name,
    abstained: found.abstained,
    degraded: found.degraded,
    results: ranked,
  };
}
