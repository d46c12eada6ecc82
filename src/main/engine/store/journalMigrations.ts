// The schema of agent sessions (versions 10 and 11): journals, their turns, and what
// distillation drew from them. Part of MIGRATIONS (migrations.ts), in order.
import type { Migration } from './migrations';

export const JOURNAL_MIGRATIONS: Migration[] = [
  {
    version: 10,
    name: 'journals: agent sessions read from their transcripts, turn by turn, with who said what',
    up(db) {
      // A journal is one session of an agent (a transcript file); `digest` (sha256 of the
      // file's bytes) makes a re-import of the same file a no-op, and a session read again
      // after it grew replaces its journal. Turns keep the raw text (clipped to the turn
      // budget) with their class: USER the person, TOOL a tool's output, ACT an
      // invocation, SELF the agent; `quarantined` marks a turn with a credential in it.
      db.exec(`
        CREATE TABLE journal (
          rid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          source TEXT NOT NULL,
          format TEXT NOT NULL,
          session TEXT,
          digest TEXT NOT NULL,
          cwd TEXT,
          started_at INTEGER,
          ended_at INTEGER,
          lines INTEGER NOT NULL,
          accounting TEXT NOT NULL,
          episode_rid INTEGER REFERENCES memory(rid) ON DELETE SET NULL,
          imported_at INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX journal_digest ON journal(digest);
        CREATE INDEX journal_session ON journal(format, session) WHERE session IS NOT NULL;
        CREATE INDEX journal_started ON journal(started_at, rid);
        CREATE TABLE journal_turn (
          journal_rid INTEGER NOT NULL REFERENCES journal(rid) ON DELETE CASCADE,
          seq INTEGER NOT NULL,
          line INTEGER NOT NULL,
          class TEXT NOT NULL CHECK (class IN ('USER', 'TOOL', 'ACT', 'SELF')),
          at INTEGER,
          tool TEXT,
          text TEXT NOT NULL,
          exit_code INTEGER,
          quarantined INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (journal_rid, seq)
        ) STRICT, WITHOUT ROWID;
      `);
    },
  },
  {
    version: 11,
    name: 'journal candidates: what distillation drew from a session, and what the gate said',
    up(db) {
      // One row per candidate memory an extractor drew from a journal, with the gate's
      // verdict: `written` (a memory now, memory_id), `proposed` (in the review inbox,
      // review_id), `duplicate` (an equal memory exists and was reinforced) or `rejected`
      // (reasons). Kept with the journal, so the Journals view shows where a memory came
      // from and why a candidate was refused.
      db.exec(`
        CREATE TABLE journal_candidate (
          journal_rid INTEGER NOT NULL REFERENCES journal(rid) ON DELETE CASCADE,
          n INTEGER NOT NULL,
          extractor TEXT NOT NULL,
          content TEXT NOT NULL,
          quotes TEXT NOT NULL CHECK (json_valid(quotes)),
          status TEXT NOT NULL CHECK (status IN ('written', 'proposed', 'duplicate', 'rejected')),
          reasons TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(reasons)),
          memory_id TEXT,
          review_id TEXT,
          PRIMARY KEY (journal_rid, n)
        ) STRICT, WITHOUT ROWID;
        -- Who imported a journal: an agent may read and distil the sessions it imported.
        ALTER TABLE journal ADD COLUMN imported_by TEXT;
      `);
    },
  },
];
