// Journals read back: the summary of a session, an import's report of a file, and who may
// read a journal (a person; an agent only the sessions it imported itself).
import type {
  Actor,
  JournalCandidateView,
  JournalListResult,
  JournalSummary,
  JournalView,
  ParsedArgs,
  TranscriptAccounting,
  TranscriptFileReport,
} from '../../../shared/api';
import { EVIDENCE_CLASSES, type TurnClass } from '../../../shared/constants';
import { LociError } from '../../../shared/errors';
import { actorName, isPerson } from '../memory/model';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';

export interface JournalRow {
  rid: number;
  id: string;
  source: string;
  format: JournalSummary['format'];
  session: string | null;
  digest: string;
  cwd: string | null;
  started_at: number | null;
  ended_at: number | null;
  lines: number;
  accounting: string;
  episode_rid: number | null;
  imported_at: number;
  imported_by: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function episodeId(store: OpenStore, rid: number | null): string | null {
  if (rid === null) return null;
  const r = stmt(store.db, 'SELECT id FROM memory WHERE rid = ?').get(rid) as
    { id: string } | undefined;
  return r?.id ?? null;
}
export function summary(store: OpenStore, row: JournalRow): JournalSummary {
  const accounting = JSON.parse(row.accounting) as TranscriptAccounting;
  return {
    id: row.id,
    source: row.source,
    format: row.format,
    session: row.session,
    cwd: row.cwd,
    started_at: iso(row.started_at),
    ended_at: iso(row.ended_at),
    turns: accounting.turns,
    episode_id: episodeId(store, row.episode_rid),
    imported_at: iso(row.imported_at) as string,
  };
}
export function report(
  store: OpenStore,
  row: JournalRow,
  path: string,
  status: TranscriptFileReport['status'],
): TranscriptFileReport {
  return {
    path,
    status,
    format: row.format,
    session: row.session,
    journal_id: row.id,
    episode_id: episodeId(store, row.episode_rid),
    lines: row.lines,
    accounting: JSON.parse(row.accounting) as TranscriptAccounting,
    distilled: null,
  };
}
/** Journals hold raw sessions (a tool's output, a person's words): for a person only. */
export function requirePerson(actor: Actor): void {
  if (!isPerson(actor)) {
    throw new LociError('forbidden', 'Only a person can read journals (they hold raw sessions).');
  }
}
/** The journal named, for a person or the agent that imported it (its own session). */
export function readable(store: OpenStore, id: string, actor: Actor): JournalRow {
  const row = stmt(store.db, 'SELECT * FROM journal WHERE id = ?').get(id) as
    JournalRow | undefined;
  const mine = row !== undefined && row.imported_by === actorName(actor);
  if (!row || (!isPerson(actor) && !mine)) {
    if (!isPerson(actor) && row) {
      throw new LociError(
        'forbidden',
        'An agent may read only the sessions it imported itself; journals hold raw sessions.',
      );
    }
    throw new LociError('not-found', `There is no journal ${id} in "${store.name}".`);
  }
  return row;
}
export function listJournals(
  store: OpenStore,
  args: ParsedArgs<'journal.list'>,
  actor: Actor,
): JournalListResult {
  requirePerson(actor);
  const rows = stmt(
    store.db,
    'SELECT * FROM journal ORDER BY COALESCE(started_at, imported_at) DESC, rid DESC LIMIT ?',
  ).all(args.limit) as JournalRow[];
  return { store: store.name, journals: rows.map((r) => summary(store, r)) };
}

export function getJournal(
  store: OpenStore,
  args: ParsedArgs<'journal.get'>,
  actor: Actor,
): JournalView {
  const row = readable(store, args.id, actor);
  if (args.reveal && !isPerson(actor)) {
    throw new LociError('forbidden', 'Only a person can reveal a quarantined turn.');
  }
  const classes = args.classes ?? [...EVIDENCE_CLASSES];
  const marks = classes.map(() => '?').join(', ');
  const total = (
    stmt(
      store.db,
      `SELECT COUNT(*) AS n FROM journal_turn WHERE journal_rid = ? AND class IN (${marks})`,
    ).get(row.rid, ...classes) as { n: number }
  ).n;
  const turns = stmt(
    store.db,
    `SELECT * FROM journal_turn WHERE journal_rid = ? AND class IN (${marks})
      ORDER BY seq LIMIT ? OFFSET ?`,
  ).all(row.rid, ...classes, args.limit, args.offset) as {
    seq: number;
    line: number;
    class: TurnClass;
    at: number | null;
    tool: string | null;
    text: string;
    exit_code: number | null;
    quarantined: number;
  }[];
  return {
    journal: {
      ...summary(store, row),
      lines: row.lines,
      accounting: JSON.parse(row.accounting) as TranscriptAccounting,
    },
    total,
    candidates: (
      stmt(store.db, 'SELECT * FROM journal_candidate WHERE journal_rid = ? ORDER BY n').all(
        row.rid,
      ) as {
        n: number;
        extractor: string;
        content: string;
        quotes: string;
        status: JournalCandidateView['status'];
        reasons: string;
        memory_id: string | null;
        review_id: string | null;
      }[]
    ).map((c) => ({
      n: c.n,
      extractor: c.extractor,
      content: c.content,
      quotes: JSON.parse(c.quotes) as JournalCandidateView['quotes'],
      status: c.status,
      reasons: JSON.parse(c.reasons) as string[],
      memory_id: c.memory_id,
      review_id: c.review_id,
    })),
    turns: turns.map((t) => ({
      seq: t.seq,
      line: t.line,
      class: t.class,
      at: iso(t.at),
      tool: t.tool,
      text:
        t.quarantined && !args.reveal
          ? '[quarantined: this turn looked like it holds a credential; reveal to read it]'
          : t.text,
      exit: t.exit_code,
      quarantined: t.quarantined === 1,
    })),
  };
}
