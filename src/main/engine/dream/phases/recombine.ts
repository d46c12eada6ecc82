// Recombine: memories that say similar things but sit far apart in the graph (not
// linked, not in one cluster) get a `related` link proposed, at most `max_new_links`
// per cycle, the most similar first. Through the review inbox unless auto-accepted.
import type { DreamChange } from '../../../../shared/api';
import { stmt } from '../../store/statements';
import type { DreamPhase, ProposalDraft } from '../types';
import { excerpt } from '../text';
import { findClusters } from './cluster';
import { similarPairs } from './similar';

export const recombine: DreamPhase<null> = {
  name: 'recombine',
  async plan(ctx) {
    const cfg = ctx.config;
    const notes: string[] = [];
    if (cfg.max_new_links === 0) {
      return {
        examined: 0,
        changes: [],
        proposals: [],
        notes: ['dream.max_new_links is 0: nothing to do.'],
        data: null,
      };
    }
    const clusters = ctx.shared.clusters ?? (await findClusters(ctx)).clusters;
    const clusterOf = new Map<string, string>();
    for (const c of clusters) for (const m of c.members) clusterOf.set(m, c.key);
    const { pairs, examined } = await similarPairs(ctx, cfg.recombine_similarity);
    const linked = stmt(
      ctx.store.db,
      'SELECT 1 FROM link WHERE (src = ? AND dst = ?) OR (src = ? AND dst = ?) LIMIT 1',
    );
    const known = stmt(ctx.store.db, 'SELECT 1 FROM review_item WHERE fingerprint = ? LIMIT 1');
    const proposals: ProposalDraft[] = [];
    const changes: DreamChange[] = [];
    for (const p of pairs) {
      if (proposals.length >= cfg.max_new_links) break;
      if (p.score >= cfg.merge_similarity) continue; // the merge phase's business
      const ca = clusterOf.get(p.a.id);
      if (ca !== undefined && ca === clusterOf.get(p.b.id)) continue;
      if (linked.get(p.a.rid, p.b.rid, p.b.rid, p.a.rid)) continue;
      const fingerprint = `link:${p.a.id}:${p.b.id}`;
      if (known.get(fingerprint)) continue;
      const weight = Math.round(Math.min(0.5, p.score) * 100) / 100;
      proposals.push({
        kind: 'link',
        title: `Link “${p.a.title}” and “${p.b.title}”`,
        proposal: { from: p.a.id, to: p.b.id, type: 'related', weight, similarity: p.score },
        evidence: [p.a, p.b].map((m) => ({
          id: m.id,
          title: m.title,
          excerpt: excerpt(m.content),
          note: null,
        })),
        diff: null,
        source: 'dream:recombine',
        fingerprint,
      });
      changes.push({
        kind: 'proposal',
        target: `${p.a.id}->${p.b.id}`,
        before: null,
        after: { kind: 'link', type: 'related', weight },
        note: `similarity ${p.score}, in different clusters`,
      });
    }
    notes.push(
      `${examined} memories compared, ${pairs.length} similar pairs (≥ ${cfg.recombine_similarity}); at most ${cfg.max_new_links} links per cycle.`,
    );
    return { examined, changes, proposals, notes, data: null };
  },
  apply(_ctx, plan) {
    return plan.changes;
  },
};
