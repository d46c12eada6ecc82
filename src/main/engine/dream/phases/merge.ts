// Merge near-duplicates: two memories of the same kind whose words overlap at least
// `merge_similarity` are proposed as one — the more used (or older) one keeps its id and
// takes the other's missing lines as a new version (its text before is kept as a
// version), the other's title becomes an alias, and the other is forgotten (softly) with
// a `supersedes` link. Pinned memories are never merged, nor two that contradict each
// other (the contradict phase runs first). Through the review inbox unless auto-accepted.
import type { DreamChange } from '../../../../shared/api';
import { stmt } from '../../store/statements';
import type { DreamPhase, ProposalDraft } from '../types';
import { excerpt, lineDiff, mergeTexts } from '../text';
import { similarPairs } from './similar';

export const merge: DreamPhase<null> = {
  name: 'merge',
  async plan(ctx) {
    const { pairs, examined } = await similarPairs(ctx, ctx.config.merge_similarity);
    const known = stmt(ctx.store.db, 'SELECT 1 FROM review_item WHERE fingerprint = ? LIMIT 1');
    const pendingFor = stmt(
      ctx.store.db,
      `SELECT 1 FROM review_item WHERE kind = 'merge' AND state = 'pending'
         AND (json_extract(proposal, '$.keep') IN (?, ?) OR json_extract(proposal, '$.drop') IN (?, ?)) LIMIT 1`,
    );
    // Two memories that disagree are not duplicates: a pair with a conflict (open or
    // decided, but not dismissed) is never proposed as one.
    const disagree = stmt(
      ctx.store.db,
      `SELECT 1 FROM conflict c JOIN memory a ON a.rid = c.older JOIN memory b ON b.rid = c.newer
        WHERE c.state != 'dismissed' AND ((a.id = ? AND b.id = ?) OR (a.id = ? AND b.id = ?)) LIMIT 1`,
    );
    const used = new Set<string>();
    const proposals: ProposalDraft[] = [];
    const changes: DreamChange[] = [];
    for (const p of pairs) {
      if (p.a.kind !== p.b.kind || p.a.pinned || p.b.pinned) continue;
      if (used.has(p.a.id) || used.has(p.b.id)) continue;
      if (disagree.get(p.a.id, p.b.id, p.b.id, p.a.id)) continue;
      const [keep, drop] = p.b.uses > p.a.uses ? [p.b, p.a] : [p.a, p.b];
      const fingerprint = `merge:${keep.id}@${keep.version}:${drop.id}@${drop.version}`;
      if (known.get(fingerprint) || pendingFor.get(keep.id, drop.id, keep.id, drop.id)) continue;
      used.add(keep.id);
      used.add(drop.id);
      const content = mergeTexts(keep.content, drop.content);
      proposals.push({
        kind: 'merge',
        title: `Merge “${drop.title}” into “${keep.title}”`,
        proposal: {
          keep: keep.id,
          drop: drop.id,
          keep_version: keep.version,
          drop_version: drop.version,
          title: keep.title,
          content,
          alias: drop.title,
          similarity: p.score,
        },
        evidence: [keep, drop].map((m) => ({
          id: m.id,
          title: m.title,
          excerpt: excerpt(m.content),
          note: `${m === keep ? 'kept' : 'merged in and forgotten'} (used ${m.uses} time${m.uses === 1 ? '' : 's'})`,
        })),
        diff: lineDiff(keep.content, content),
        source: 'dream:merge',
        fingerprint,
      });
      changes.push({
        kind: 'proposal',
        target: `${drop.id}->${keep.id}`,
        before: { keep: keep.title, drop: drop.title },
        after: { kind: 'merge', title: keep.title, alias: drop.title },
        note: `similarity ${p.score}`,
      });
    }
    return {
      examined,
      changes,
      proposals,
      notes: [
        `${examined} memories compared; near-duplicates share ≥ ${ctx.config.merge_similarity} of their words.`,
      ],
      data: null,
    };
  },
  apply(_ctx, plan) {
    return plan.changes;
  },
};
