// Skill competition: procedures compete per niche (as recorded with record_outcome; ''
// for outcomes without one) by the lower bound of the Wilson interval of their success
// rate. The best is the niche's champion (find_procedures lists champions first); a
// procedure clearly behind it (3+ trials) fades — its salience drops once per new
// record — and is never deleted. With a language model, a losing procedure gets a
// refined text proposed through the review inbox.
import type { DreamChange } from '../../../../shared/api';
import { wilsonLower } from '../../memory/procedures';
import { stmt } from '../../store/statements';
import type { DreamPhase, ProposalDraft } from '../types';
import { excerpt, lineDiff } from '../text';

const MIN_TRIALS = 3;
const FADE = 0.8;
const FLOOR = 0.05;

interface Standing {
  niche: string;
  rid: number;
  id: string;
  title: string;
  content: string;
  version: number;
  pinned: number;
  salience: number;
  successes: number;
  trials: number;
  wilson: number;
  champion: boolean;
  fade: boolean;
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export const compete: DreamPhase<{
  standings: Standing[];
  stale: { niche: string; rid: number }[];
}> = {
  name: 'compete',
  async plan(ctx) {
    const db = ctx.store.db;
    const rows = stmt(
      db,
      `SELECT COALESCE(po.niche, '') AS niche, m.rid, m.id, m.title, m.content, m.version, m.pinned,
          m.salience, SUM(po.success) AS successes, COUNT(*) AS trials
         FROM procedure_outcome po JOIN memory m ON m.rid = po.rid
        WHERE m.deleted_at IS NULL AND m.kind = 'procedural'
        GROUP BY COALESCE(po.niche, ''), m.rid ORDER BY 1, m.rid`,
    ).all() as Omit<Standing, 'wilson' | 'champion' | 'fade'>[];
    const stored = new Map(
      (
        stmt(
          db,
          'SELECT niche, rid, successes, trials, champion, faded_trials FROM procedure_standing',
        ).all() as {
          niche: string;
          rid: number;
          successes: number;
          trials: number;
          champion: number;
          faded_trials: number | null;
        }[]
      ).map((s) => [`${s.niche}\u0000${s.rid}`, s]),
    );
    await ctx.yield();
    const byNiche = new Map<string, Standing[]>();
    for (const r of rows) {
      const s: Standing = {
        ...r,
        wilson: round(wilsonLower(r.successes, r.trials)),
        champion: false,
        fade: false,
      };
      const list = byNiche.get(r.niche);
      if (list) list.push(s);
      else byNiche.set(r.niche, [s]);
    }
    const standings: Standing[] = [];
    const changes: DreamChange[] = [];
    const proposals: ProposalDraft[] = [];
    const notes: string[] = [];
    const known = stmt(db, 'SELECT 1 FROM review_item WHERE fingerprint = ? LIMIT 1');
    let refineSkipped = 0;
    for (const [niche, list] of byNiche) {
      list.sort((a, b) => b.wilson - a.wilson || b.trials - a.trials || a.rid - b.rid);
      const best = list[0] as Standing;
      if (best.wilson > 0) best.champion = true;
      for (const s of list) {
        const prev = stored.get(`${niche}\u0000${s.rid}`);
        const loser =
          !s.champion && best.champion && s.trials >= MIN_TRIALS && s.wilson < best.wilson;
        s.fade = loser && !s.pinned && prev?.faded_trials !== s.trials && s.salience > FLOOR;
        standings.push(s);
        const label = niche === '' ? 'any niche' : `niche “${niche}”`;
        if (
          !prev ||
          prev.successes !== s.successes ||
          prev.trials !== s.trials ||
          (prev.champion === 1) !== s.champion
        ) {
          changes.push({
            kind: 'standing',
            target: s.id,
            before: prev
              ? { successes: prev.successes, trials: prev.trials, champion: prev.champion === 1 }
              : null,
            after: {
              successes: s.successes,
              trials: s.trials,
              wilson_lower: s.wilson,
              champion: s.champion,
            },
            note: `${label}${s.champion ? ': champion' : ''}`,
          });
        }
        if (s.fade) {
          changes.push({
            kind: 'salience',
            target: s.id,
            before: s.salience,
            after: Math.max(FLOOR, round(s.salience * FADE)),
            note: `behind “${best.title}” in ${label} (${s.wilson} vs ${best.wilson}); kept, faded`,
          });
        }
        if (loser && s.trials - s.successes > 0) {
          const fingerprint = `refine:${s.id}:${niche}:${s.trials}`;
          if (!ctx.llm || ctx.dryRun) {
            refineSkipped++;
            continue;
          }
          if (known.get(fingerprint)) continue;
          try {
            const text = (
              await ctx.llm.complete(
                "You improve a procedure (a how-to) from a developer's memory that failed more often than a better one. Reply with the full improved procedure text only, keeping what works and fixing what the better one does differently.",
                `Procedure that fails more often (${s.successes}/${s.trials} successes):\n${s.content}\n\nBetter procedure (${best.successes}/${best.trials}):\n${best.content}`,
              )
            ).trim();
            if (text.length >= 10 && text !== s.content) {
              proposals.push({
                kind: 'refine',
                title: `Refine the procedure “${s.title}”`,
                proposal: {
                  id: s.id,
                  base_version: s.version,
                  title: s.title,
                  content: text,
                  niche,
                },
                evidence: [
                  {
                    id: s.id,
                    title: s.title,
                    excerpt: excerpt(s.content),
                    note: `${s.successes}/${s.trials} successes`,
                  },
                  {
                    id: best.id,
                    title: best.title,
                    excerpt: excerpt(best.content),
                    note: `champion, ${best.successes}/${best.trials}`,
                  },
                ],
                diff: lineDiff(s.content, text),
                source: `llm:${ctx.llm.model}`,
                fingerprint,
              });
              changes.push({
                kind: 'proposal',
                target: s.id,
                before: null,
                after: { kind: 'refine' },
              });
            }
          } catch (err) {
            notes.push(
              `The language model failed to refine “${s.title}”: ${(err as Error).message}`,
            );
          }
        }
      }
    }
    const live = new Set(standings.map((s) => `${s.niche}\u0000${s.rid}`));
    const stale = [...stored.values()].filter((s) => !live.has(`${s.niche}\u0000${s.rid}`));
    notes.unshift(
      `${rows.length} procedure standings in ${byNiche.size} niches (Wilson lower bound, 95 %).`,
    );
    if (!ctx.llm && refineSkipped)
      notes.push(
        `Refining ${refineSkipped} losing procedures skipped: no language model is configured (llm.url).`,
      );
    else if (ctx.dryRun && refineSkipped)
      notes.push(
        `A dry run does not call the language model: ${refineSkipped} losing procedures would be sent for refinement.`,
      );
    return { examined: rows.length, changes, proposals, notes, data: { standings, stale } };
  },
  apply(ctx, plan) {
    const db = ctx.store.db;
    const upsert = stmt(
      db,
      `INSERT INTO procedure_standing (niche, rid, successes, trials, wilson, champion, faded_trials, updated_at)
       VALUES (@niche, @rid, @successes, @trials, @wilson, @champion, NULL, @now)
       ON CONFLICT (niche, rid) DO UPDATE SET successes = excluded.successes, trials = excluded.trials,
         wilson = excluded.wilson, champion = excluded.champion, updated_at = excluded.updated_at`,
    );
    const fade = stmt(
      db,
      'UPDATE memory SET salience = MAX(?, salience * ?) WHERE rid = ? AND pinned = 0 AND salience = ?',
    );
    const faded = stmt(
      db,
      'UPDATE procedure_standing SET faded_trials = ? WHERE niche = ? AND rid = ?',
    );
    const drop = stmt(db, 'DELETE FROM procedure_standing WHERE niche = ? AND rid = ?');
    for (const s of plan.data.standings) {
      upsert.run({
        niche: s.niche,
        rid: s.rid,
        successes: s.successes,
        trials: s.trials,
        wilson: s.wilson,
        champion: s.champion ? 1 : 0,
        now: ctx.now,
      });
      if (s.fade && fade.run(FLOOR, FADE, s.rid, s.salience).changes > 0)
        faded.run(s.trials, s.niche, s.rid);
    }
    for (const s of plan.data.stale) drop.run(s.niche, s.rid);
    return plan.changes;
  },
};
