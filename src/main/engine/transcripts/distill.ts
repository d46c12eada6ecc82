// What distillation keeps of a journal, inside the import's (or the proposal's)
// transaction: the gate's passes written at once (policy `direct`) or proposed to the
// review inbox as kind `distill`, the refusals kept with their reasons — each candidate a
// row of journal_candidate beside its journal.
import { createHash } from 'node:crypto';
import type {
  Actor,
  DistillCounts,
  JournalCandidateView,
  JournalProposeResult,
} from '../../../shared/api';
import { LIMITS, type TurnClass } from '../../../shared/constants';
import { insertProposals } from '../dream/review';
import { createLink } from '../memory/links';
import { rehearseMemories } from '../memory/state';
import type { ProposalDraft } from '../dream/types';
import { actorName } from '../memory/model';
import { insertMemories, type CreatedMemory, type prepareMemories } from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import type { ExtractedCandidate } from './extract';
import { gateCandidate, type GateTurn, type GateVerdict } from './gate';
import type { JournalRow } from './journals';
import { nearestRelation } from './neighbours';
import type { ProposedMemory } from './prompt';

export interface Distilled {
  candidate: ExtractedCandidate;
  verdict: GateVerdict;
}

export /** A candidate's quotes as a memory's evidence, each pointing at its turn. */
function evidenceOf(journalId: string, verdict: GateVerdict) {
  return verdict.quotes.map((q) => ({
    quote: q.quote.slice(0, LIMITS.evidenceQuoteMaxChars),
    class: q.class,
    source: `journal:${journalId}#${q.seq}`,
  }));
}

/**
 * Inside the import's transaction: the gate's passes written (policy `direct`) or
 * proposed to the review inbox, the refusals kept with their reasons — each candidate a
 * row of journal_candidate.
 */
export interface CandidateWrite {
  store: OpenStore;
  journalRid: number;
  journalId: string;
  format: string;
  session: string | undefined;
  distilled: Distilled[];
  /** The `direct` passes, prepared (scanned, gated) in order before the transaction. */
  preparedDirect: Awaited<ReturnType<typeof prepareMemories>>;
  actor: Actor;
  now: number;
  newId: () => string;
  /** New memories are added here (the caller announces them after the commit). */
  created: CreatedMemory[];
  /** The number of the first candidate (after those the journal has). */
  first?: number;
}

export function writeCandidates({
  store,
  journalRid,
  journalId,
  format,
  session,
  distilled,
  preparedDirect,
  actor,
  now,
  newId,
  created,
  first = 0,
}: CandidateWrite): { counts: DistillCounts; proposals: string[] } {
  const counts: DistillCounts = { written: 0, proposed: 0, duplicate: 0, rejected: 0 };
  const proposals: string[] = [];
  const add = stmt(
    store.db,
    `INSERT INTO journal_candidate (journal_rid, n, extractor, content, quotes, status, reasons, memory_id, review_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let direct = 0;
  distilled.forEach(({ candidate, verdict }, n) => {
    let status: JournalCandidateView['status'];
    let memoryId: string | null = null;
    let reviewId: string | null = null;
    const prepared =
      verdict.accepted && candidate.policy === 'direct' ? preparedDirect[direct++] : undefined;
    const near = verdict.accepted ? nearestRelation(store, actor, candidate.content) : null;
    if (!verdict.accepted) {
      status = 'rejected';
    } else if (near?.relation === 'equivalent') {
      // Said before: the memory that says it is reinforced (a use), not written twice.
      rehearseMemories(store.db, [near.rid], now);
      memoryId = near.id;
      status = 'duplicate';
    } else if (candidate.policy === 'direct') {
      const inserted = insertMemories(store, prepared ? [prepared] : [], actor, {
        newId: () => newId(),
        now,
      });
      const r = inserted.results[0];
      created.push(...inserted.created);
      memoryId = r?.id ?? null;
      status = r?.duplicate ? 'duplicate' : 'written';
      // Written as the person said it, beside what it contradicts (for them to settle).
      if (memoryId && !r?.duplicate && near?.relation === 'conflicting') {
        for (const to of near.ids) {
          createLink(store, actor, { from: memoryId, to, type: 'contradicts', weight: 0.5 }, now);
        }
      }
    } else {
      const conflicts =
        near?.relation === 'conflicting'
          ? near.ids.flatMap((id) => {
              const m = stmt(store.db, 'SELECT id, title, content FROM memory WHERE id = ?').get(
                id,
              ) as { id: string; title: string; content: string } | undefined;
              return m ? [m] : [];
            })
          : [];
      const draft: ProposalDraft = {
        kind: 'distill',
        title: `From a ${format} session${conflicts.length ? ' (contradicts a memory)' : ''}: ${candidate.title}`,
        proposal: {
          title: candidate.title,
          content: candidate.content,
          kind: candidate.kind,
          tags: verdict.judgement ? [...candidate.tags, 'agent-judgement'] : candidate.tags,
          evidence: evidenceOf(journalId, verdict),
          ...(session ? { session } : {}),
          journal: journalId,
          extractor: candidate.extractor,
          ...(conflicts.length ? { contradicts: conflicts.map((c) => c.id) } : {}),
        },
        evidence: [
          ...verdict.quotes.map((q) => ({
            id: null,
            title: `${q.class} · turn ${q.seq}, line ${q.line}`,
            excerpt: q.quote.slice(0, 500),
            note: candidate.extractor,
          })),
          ...conflicts.map((c) => ({
            id: c.id,
            title: `Contradicts: ${c.title}`,
            excerpt: c.content.slice(0, 500),
            note: 'accepting links the two `contradicts`; neither is changed',
          })),
        ],
        diff: null,
        source: `journal:${format}`,
        fingerprint: createHash('sha256')
          .update(`distill\0${candidate.extractor}\0${candidate.content.toLowerCase()}`)
          .digest('hex'),
      };
      const [proposed] = insertProposals(
        store,
        [draft],
        journalId,
        now,
        () => newId(),
        actorName(actor),
      );
      reviewId = proposed?.id ?? null;
      status = proposed ? 'proposed' : 'duplicate';
      if (proposed) proposals.push(proposed.id);
    }
    counts[status]++;
    add.run(
      journalRid,
      first + n,
      candidate.extractor,
      candidate.content,
      JSON.stringify(
        verdict.quotes.length ? verdict.quotes : candidate.quotes.map((quote) => ({ quote })),
      ),
      status,
      JSON.stringify(verdict.accepted ? [] : verdict.reasons),
      memoryId,
      reviewId,
    );
  });
  return { counts, proposals };
}

/** A journal's turns as the gate reads them. */
export function journalTurns(store: OpenStore, rid: number): GateTurn[] {
  return (
    stmt(
      store.db,
      'SELECT seq, line, class, text, quarantined FROM journal_turn WHERE journal_rid = ? ORDER BY seq',
    ).all(rid) as {
      seq: number;
      line: number;
      class: TurnClass;
      text: string;
      quarantined: number;
    }[]
  ).map((t) => ({ ...t, quarantined: t.quarantined === 1 }));
}

export interface ProposeHost {
  now(): number;
  newId(): string;
  autoAccept(store: OpenStore, reviewIds: string[], actor: Actor): Promise<void>;
}

/**
 * Candidates proposed for a journal after its import (by an agent, the client's model
 * or the configured one), gated against its turns and kept beside it; what passes waits
 * in the review inbox. One transaction.
 */
export async function keepProposed(
  host: ProposeHost,
  store: OpenStore,
  row: JournalRow,
  proposed: readonly ProposedMemory[],
  extractor: ExtractedCandidate['extractor'],
  actor: Actor,
): Promise<JournalProposeResult['results']> {
  if (proposed.length === 0) return [];
  const turns = journalTurns(store, row.rid);
  const distilled: Distilled[] = proposed.map((c) => {
    const candidate: ExtractedCandidate = {
      extractor,
      title: (c.title ?? c.content).replace(/\s+/g, ' ').slice(0, 100),
      content: c.content,
      kind: c.kind ?? 'semantic',
      tags: [...new Set(['distilled', ...(c.tags ?? [])])],
      quotes: c.quotes,
      policy: 'review',
    };
    return { candidate, verdict: gateCandidate(turns, candidate) };
  });
  const first = (
    stmt(
      store.db,
      'SELECT COALESCE(MAX(n) + 1, 0) AS n FROM journal_candidate WHERE journal_rid = ?',
    ).get(row.rid) as { n: number }
  ).n;
  const outcome = store.db.transaction(() =>
    writeCandidates({
      store,
      journalRid: row.rid,
      journalId: row.id,
      format: row.format,
      session: row.session ?? undefined,
      distilled,
      preparedDirect: [],
      actor,
      now: host.now(),
      newId: () => host.newId(),
      created: [],
      first,
    }),
  )();
  if (outcome.proposals.length) await host.autoAccept(store, outcome.proposals, actor);
  const rows = stmt(
    store.db,
    'SELECT n, status, reasons, memory_id, review_id FROM journal_candidate WHERE journal_rid = ? AND n >= ? ORDER BY n',
  ).all(row.rid, first) as {
    n: number;
    status: JournalCandidateView['status'];
    reasons: string;
    memory_id: string | null;
    review_id: string | null;
  }[];
  return rows.map((r) => ({ ...r, reasons: JSON.parse(r.reasons) as string[] }));
}
