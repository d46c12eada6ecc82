// What distillation keeps of a journal, inside the import's (or the proposal's)
// transaction: the gate's passes written at once (policy `direct`) or proposed to the
// review inbox as kind `distill`, the refusals kept with their reasons — each candidate a
// row of journal_candidate beside its journal.
import { createHash } from 'node:crypto';
import type { Actor, DistillCounts, JournalCandidateView } from '../../../shared/api';
import { LIMITS } from '../../../shared/constants';
import { insertProposals } from '../dream/review';
import type { ProposalDraft } from '../dream/types';
import { actorName } from '../memory/model';
import { insertMemories, type CreatedMemory, type prepareMemories } from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import type { ExtractedCandidate } from './extract';
import type { GateVerdict } from './gate';

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
    if (!verdict.accepted) {
      status = 'rejected';
    } else if (candidate.policy === 'direct') {
      const prepared = preparedDirect[direct++];
      const inserted = insertMemories(store, prepared ? [prepared] : [], actor, {
        newId: () => newId(),
        now,
      });
      const r = inserted.results[0];
      created.push(...inserted.created);
      memoryId = r?.id ?? null;
      status = r?.duplicate ? 'duplicate' : 'written';
    } else {
      const draft: ProposalDraft = {
        kind: 'distill',
        title: `From a ${format} session: ${candidate.title}`,
        proposal: {
          title: candidate.title,
          content: candidate.content,
          kind: candidate.kind,
          tags: verdict.judgement ? [...candidate.tags, 'agent-judgement'] : candidate.tags,
          evidence: evidenceOf(journalId, verdict),
          ...(session ? { session } : {}),
          journal: journalId,
          extractor: candidate.extractor,
        },
        evidence: verdict.quotes.map((q) => ({
          id: null,
          title: `${q.class} · turn ${q.seq}, line ${q.line}`,
          excerpt: q.quote.slice(0, 500),
          note: candidate.extractor,
        })),
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
