// Schema: for each stable cluster (found by an earlier cycle and still there), a summary
// memory is proposed through the review inbox — never written directly. Without a
// language model the summary is extractive (the cluster's common words and its members'
// titles); with one, the model writes it and the proposal says so.
import { createHash } from 'node:crypto';
import type { DreamChange, ReviewEvidence } from '../../../../shared/api';
import { distinctiveTerms } from '../../cognition/distinctive';
import { memoryCount, wordDocFrequency } from '../../conflicts/find';
import { stmt } from '../../store/statements';
import type { DreamPhase, PhaseContext, ProposalDraft } from '../types';
import { excerpt, jaccard, words } from '../text';
import { findClusters, storedClusters } from './cluster';

interface Member {
  id: string;
  title: string;
  content: string;
}

function fingerprintOf(members: string[]): string {
  return `schema:${createHash('sha256').update(members.join(',')).digest('hex').slice(0, 32)}`;
}

/** The words most members share, most common first (ties alphabetical). */
function commonWords(members: Member[], n: number): string[] {
  const counts = new Map<string, number>();
  for (const m of members)
    for (const w of words(`${m.title} ${m.title} ${m.content}`))
      counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()]
    .filter(([, c]) => c >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([w]) => w);
}

/**
 * A schema named by its members' most distinctive terms (frequent in the cluster, rare in
 * the store: `distinctiveTerms`), or by their most common words when no store is given.
 */
export function extractiveSummary(
  members: Member[],
  rarity?: { df: (word: string) => number; total: number },
): { title: string; content: string } {
  const top = rarity
    ? distinctiveTerms(members, rarity.df, rarity.total, 3)
    : commonWords(members, 4);
  const topic = top.length ? top.join(', ') : (members[0]?.title ?? 'related memories');
  return {
    title: `Schema: ${topic}`.slice(0, 200),
    content: [
      `${members.length} related memories about ${topic}:`,
      ...members.map((m) => `- ${m.title}`),
    ].join('\n'),
  };
}

export const schema: DreamPhase<null> = {
  name: 'schema',
  async plan(ctx: PhaseContext) {
    const clusters = ctx.shared.clusters ?? (await findClusters(ctx)).clusters;
    const stored = storedClusters(ctx);
    const load = stmt(
      ctx.store.db,
      `SELECT id, title, content FROM memory WHERE id = ? AND deleted_at IS NULL AND trust = 'trusted'`,
    );
    const known = stmt(ctx.store.db, 'SELECT 1 FROM review_item WHERE fingerprint = ? LIMIT 1');
    const notes: string[] = [];
    const proposals: ProposalDraft[] = [];
    const changes: DreamChange[] = [];
    let stable = 0;
    let llmFailed = 0;
    const candidates = clusters.filter((c) => c.members.length >= ctx.config.schema_min_cluster);
    for (const c of candidates) {
      await ctx.yield();
      const prev = stored.find(
        (s) => s.since < ctx.now && jaccard(new Set(s.members), new Set(c.members)) >= 0.6,
      );
      if (!prev) continue;
      stable++;
      const fingerprint = fingerprintOf(c.members);
      if (known.get(fingerprint)) continue;
      const members = c.members
        .map((id) => load.get(id) as Member | undefined)
        .filter((m): m is Member => m !== undefined)
        .slice(0, 40);
      if (members.length < ctx.config.schema_min_cluster) continue;
      let summary = extractiveSummary(members, {
        df: (w) => wordDocFrequency(ctx.store, w),
        total: memoryCount(ctx.store),
      });
      let source = 'dream:schema';
      if (ctx.llm && !ctx.dryRun) {
        try {
          const text = await ctx.llm.complete(
            "You write one concise summary (a schema) of a group of related notes from a developer's long-term memory. First line: a short title. Then 2–6 sentences of what the notes have in common and the key facts. Do not invent facts.",
            members
              .map((m, i) => `Note ${i + 1}: ${m.title}\n${excerpt(m.content, 600)}`)
              .join('\n\n'),
          );
          const [first, ...rest] = text.trim().split('\n');
          const body = rest.join('\n').trim();
          if (first && body) {
            summary = {
              title: first.replace(/^#+\s*|^title:\s*/i, '').slice(0, 200),
              content: body,
            };
            source = `llm:${ctx.llm.model}`;
          }
        } catch (err) {
          llmFailed++;
          if (llmFailed === 1)
            notes.push(
              `The language model failed (${(err as Error).message}); the summary is extractive.`,
            );
        }
      }
      const evidence: ReviewEvidence[] = members.map((m) => ({
        id: m.id,
        title: m.title,
        excerpt: excerpt(m.content),
        note: null,
      }));
      proposals.push({
        kind: 'schema',
        title: `Write a schema memory summarising ${members.length} linked memories`,
        proposal: { title: summary.title, content: summary.content, members: c.members },
        evidence,
        diff: null,
        source,
        fingerprint,
      });
      changes.push({
        kind: 'proposal',
        target: c.key,
        before: null,
        after: { kind: 'schema', title: summary.title, members: c.members.length },
      });
    }
    if (!ctx.llm)
      notes.push('No language model is configured (llm.url): summaries are extractive.');
    else if (ctx.dryRun)
      notes.push(
        `A dry run does not call the language model (${ctx.llm.model}); the summaries shown are extractive.`,
      );
    notes.unshift(
      `${candidates.length} clusters of ${ctx.config.schema_min_cluster}+ memories, ${stable} stable since an earlier cycle.`,
    );
    return { examined: candidates.length, changes, proposals, notes, data: null };
  },
  apply(_ctx, plan) {
    // The proposals go to the inbox (the cycle writes them in this transaction).
    return plan.changes;
  },
};
