// Contradictions in the backlog: the memories written since the last look (by this phase
// or conflict.scan) compared with their nearest ones, by words and by meaning, with the
// detector (conflicts/find.ts). What it finds becomes an open conflict for a person or an
// agent to decide (the Conflicts view, `loci conflicts`, MCP `resolve`); nothing is
// superseded or changed here. A large backlog is worked through over several cycles.
import type { DreamChange } from '../../../../shared/api';
import { candidatesFor, eligible, FACT_MAX_CHARS, isFact } from '../../conflicts/find';
import { recordCandidates, type Candidate } from '../../conflicts/store';
import { stmt } from '../../store/statements';
import type { DreamPhase } from '../types';

/** Memories compared in one cycle, at most (the rest wait for the next). */
export const CONTRADICT_PER_CYCLE = 2000;

export const contradict: DreamPhase<{ candidates: Candidate[]; last: number | null }> = {
  name: 'contradict',
  async plan(ctx) {
    const db = ctx.store.db;
    const mark = (stmt(db, 'SELECT last_rid FROM conflict_scan WHERE id = 1').pluck().get() ??
      0) as number;
    const rids = stmt(
      db,
      `SELECT m.rid FROM memory m WHERE m.rid > ? AND ${eligible()}
          AND length(m.content) <= ${FACT_MAX_CHARS}
        ORDER BY m.rid LIMIT ?`,
    )
      .pluck()
      .all(mark, CONTRADICT_PER_CYCLE + 1) as number[];
    const more = rids.length > CONTRADICT_PER_CYCLE;
    const todo = rids.slice(0, CONTRADICT_PER_CYCLE);
    const known = stmt(
      db,
      'SELECT 1 FROM conflict WHERE (older = ? AND newer = ?) OR (older = ? AND newer = ?)',
    );
    const idOf = stmt(db, 'SELECT id FROM memory WHERE rid = ?').pluck();
    const candidates: Candidate[] = [];
    const changes: DreamChange[] = [];
    const seen = new Set<string>();
    for (const [i, rid] of todo.entries()) {
      await ctx.yield();
      ctx.progress(i, todo.length);
      const fact = isFact(ctx.store, rid);
      if (!fact) continue;
      for (const c of candidatesFor(ctx.store, fact, {
        nearByMeaning: ctx.nearestTo,
        minConfidence: ctx.minConflictConfidence,
      })) {
        const key = `${c.older}:${c.newer}`;
        if (seen.has(key) || known.get(c.older, c.newer, c.newer, c.older)) continue;
        seen.add(key);
        candidates.push(c);
        changes.push({
          kind: 'conflict',
          target: `${idOf.get(c.newer) as string}->${idOf.get(c.older) as string}`,
          before: null,
          after: {
            relation: c.relation,
            confidence: c.confidence,
            spans: c.spans.map((s) => s.kind),
          },
          note: c.spans.map((s) => `${s.older || '—'} / ${s.newer || '—'}`).join('; '),
        });
      }
    }
    return {
      examined: todo.length,
      changes,
      proposals: [],
      notes: [
        `${todo.length} memor${todo.length === 1 ? 'y' : 'ies'} written since the last look compared with their nearest ones`,
        ...(more ? [`more wait: the next cycle (or conflict.scan) goes on from here`] : []),
      ],
      data: { candidates, last: todo.length ? (todo[todo.length - 1] as number) : null },
    };
  },
  apply(ctx, plan) {
    const recorded = recordCandidates(ctx.store, plan.data.candidates, 'dream', ctx.now, ctx.newId);
    if (plan.data.last !== null) {
      stmt(
        ctx.store.db,
        `INSERT INTO conflict_scan (id, last_rid, at) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET last_rid = MAX(last_rid, excluded.last_rid), at = excluded.at`,
      ).run(plan.data.last, ctx.now);
    }
    const made = new Map(recorded.map((r) => [`${r.candidate.older}:${r.candidate.newer}`, r.id]));
    return plan.changes.flatMap((change, i) => {
      const c = plan.data.candidates[i] as Candidate;
      const id = made.get(`${c.older}:${c.newer}`);
      return id ? [{ ...change, after: { ...(change.after as object), conflict: id } }] : [];
    });
  },
};
