// The store's schema, as numbered migrations. Each runs in its own transaction and is
// recorded in `schema_version`; before migrating a store that already holds data, an
// online backup is taken. A store written by a newer Loci is refused, never "fixed".
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { LINK_TYPES, MEMORY_KINDS } from '../../../shared/schemas';
import { LociError } from '../../../shared/errors';
import type { Db } from './database';
import { FTS_CREATE_SQL, ftsRebuild } from './ftsIndex';
import { JOURNAL_MIGRATIONS } from './journalMigrations';

export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** Dimensions of the version-2 vec0 table (replaced in version 4). */
const VECTOR_DIMS = 384;

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'memories, versions, tags, links and the audit chain',
    up(db) {
      db.exec(`
        CREATE TABLE memory (
          rid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          title TEXT NOT NULL,
          content TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN (${list(MEMORY_KINDS)})),
          layer TEXT NOT NULL DEFAULT 'working' CHECK (layer IN ('working', 'long_term', 'core')),
          source TEXT NOT NULL,
          evidence TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(evidence)),
          trust TEXT NOT NULL DEFAULT 'trusted' CHECK (trust IN ('trusted', 'quarantined')),
          quarantine_reasons TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(quarantine_reasons)),
          visibility TEXT NOT NULL DEFAULT 'shared' CHECK (visibility IN ('shared', 'private')),
          owner TEXT,
          salience REAL NOT NULL DEFAULT 0.5 CHECK (salience BETWEEN 0 AND 1),
          valence REAL NOT NULL DEFAULT 0 CHECK (valence BETWEEN -1 AND 1),
          arousal REAL NOT NULL DEFAULT 0 CHECK (arousal BETWEEN 0 AND 1),
          valid_from INTEGER,
          valid_to INTEGER,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          version INTEGER NOT NULL DEFAULT 1,
          pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
          deleted_at INTEGER,
          content_hash TEXT NOT NULL,
          CHECK (visibility = 'shared' OR owner IS NOT NULL),
          CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_from <= valid_to)
        ) STRICT;
        CREATE INDEX memory_hash ON memory(content_hash);
        CREATE INDEX memory_created ON memory(created_at, rid);
        CREATE INDEX memory_updated ON memory(updated_at, rid);
        CREATE INDEX memory_deleted ON memory(deleted_at) WHERE deleted_at IS NOT NULL;
        CREATE INDEX memory_source ON memory(source);

        CREATE TABLE memory_tag (
          rid INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          tag TEXT NOT NULL,
          PRIMARY KEY (rid, tag)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX memory_tag_by_tag ON memory_tag(tag, rid);

        CREATE TABLE memory_version (
          rid INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          version INTEGER NOT NULL,
          title TEXT NOT NULL,
          content TEXT NOT NULL,
          kind TEXT NOT NULL,
          tags TEXT NOT NULL DEFAULT '[]',
          changed_at INTEGER NOT NULL,
          actor TEXT NOT NULL,
          PRIMARY KEY (rid, version)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE link (
          src INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          dst INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          type TEXT NOT NULL CHECK (type IN (${list(LINK_TYPES)})),
          weight REAL NOT NULL CHECK (weight BETWEEN 0 AND 1),
          traversals INTEGER NOT NULL DEFAULT 0,
          last_traversed INTEGER,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (src, dst, type),
          CHECK (src <> dst)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX link_by_dst ON link(dst, src);

        CREATE TABLE audit (
          seq INTEGER PRIMARY KEY,
          at INTEGER NOT NULL,
          actor TEXT NOT NULL,
          action TEXT NOT NULL,
          target TEXT,
          data TEXT NOT NULL CHECK (json_valid(data)),
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL,
          key_id TEXT NOT NULL
        ) STRICT;
        CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
          BEGIN SELECT RAISE(ABORT, 'audit rows are append-only'); END;
        CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
          BEGIN SELECT RAISE(ABORT, 'audit rows are append-only'); END;
      `);
    },
  },
  {
    version: 2,
    name: 'full-text and vector indexes',
    up(db) {
      db.exec(FTS_CREATE_SQL);
      db.exec(`
        CREATE VIRTUAL TABLE memory_vec USING vec0(
          rid INTEGER PRIMARY KEY,
          embedding float[${VECTOR_DIMS}]
        );
      `);
      // Stores created at version 1 already hold memories: index them now.
      ftsRebuild(db);
    },
  },
  {
    version: 3,
    name: 'access history, FSRS state, procedures, review inbox and dream reports',
    up(db) {
      db.exec(`
        CREATE TABLE access (
          rid INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX access_by_memory ON access(rid, at DESC);

        CREATE TABLE memory_state (
          rid INTEGER PRIMARY KEY REFERENCES memory(rid) ON DELETE CASCADE,
          access_count INTEGER NOT NULL DEFAULT 0,
          last_access INTEGER,
          fsrs_state INTEGER NOT NULL DEFAULT 0,
          stability REAL NOT NULL DEFAULT 0,
          difficulty REAL NOT NULL DEFAULT 0,
          elapsed_days REAL NOT NULL DEFAULT 0,
          scheduled_days REAL NOT NULL DEFAULT 0,
          learning_steps INTEGER NOT NULL DEFAULT 0,
          reps INTEGER NOT NULL DEFAULT 0,
          lapses INTEGER NOT NULL DEFAULT 0,
          due INTEGER NOT NULL,
          last_review INTEGER
        ) STRICT;
        INSERT INTO memory_state (rid, due) SELECT rid, created_at FROM memory;

        CREATE TABLE procedure_outcome (
          id INTEGER PRIMARY KEY,
          rid INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          at INTEGER NOT NULL,
          success INTEGER NOT NULL CHECK (success IN (0, 1)),
          niche TEXT,
          actor TEXT NOT NULL
        ) STRICT;
        CREATE INDEX procedure_outcome_by_memory ON procedure_outcome(rid, at);

        CREATE TABLE review_item (
          id TEXT PRIMARY KEY,
          kind TEXT NOT NULL,
          proposal TEXT NOT NULL CHECK (json_valid(proposal)),
          evidence TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(evidence)),
          diff TEXT,
          state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'rejected')),
          source TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          decided_at INTEGER,
          decided_by TEXT
        ) STRICT;
        CREATE INDEX review_item_pending ON review_item(state, created_at);

        CREATE TABLE dream_report (
          id TEXT PRIMARY KEY,
          started_at INTEGER NOT NULL,
          finished_at INTEGER,
          dry_run INTEGER NOT NULL CHECK (dry_run IN (0, 1)),
          status TEXT NOT NULL,
          phases TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(phases))
        ) STRICT;
      `);
    },
  },
  {
    version: 4,
    name: 'embeddings with their model, binary codes for the vector pre-filter, store settings',
    up(db) {
      // Measured (README, Vector search): the npm build of vec0 has no SIMD path on x86,
      // so an exact vec0 scan takes ~57 ms at 100k × 384 and a vec0 point lookup
      // ~0.2 ms. Vectors therefore live in a plain table: a binary pre-filter runs in
      // memory and candidates are rescored exactly with sqlite-vec's vec_distance_l2.
      db.exec(`
        DROP TABLE memory_vec;
        CREATE TABLE memory_embedding (
          rid INTEGER PRIMARY KEY REFERENCES memory(rid) ON DELETE CASCADE,
          model TEXT NOT NULL,
          dims INTEGER NOT NULL,
          vector BLOB NOT NULL CHECK (length(vector) = dims * 4),
          code BLOB NOT NULL CHECK (length(code) = (dims + 7) / 8),
          embedded_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX memory_embedding_model ON memory_embedding(model);
        CREATE TABLE store_setting (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL CHECK (json_valid(value)),
          updated_at INTEGER NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 5,
    name: 'read log: which MCP client read which memory, and when; audit filter indexes',
    up(db) {
      // Lighter than the audit chain (no hashes, bounded by AccessLog's retention):
      // reads are far more frequent than writes and need no tamper evidence.
      // memory_id is NULL for a call that read an index rather than memories (`map`).
      db.exec(`
        CREATE TABLE read_log (
          id INTEGER PRIMARY KEY,
          at INTEGER NOT NULL,
          client TEXT NOT NULL,
          method TEXT NOT NULL,
          memory_id TEXT
        ) STRICT;
        CREATE INDEX read_log_by_time ON read_log(at);
        CREATE INDEX read_log_by_client ON read_log(client, at);
        -- The Audit view filters and lists the actors and actions present.
        CREATE INDEX audit_by_actor ON audit(actor, seq);
        CREATE INDEX audit_by_action ON audit(action, seq);
        CREATE INDEX audit_by_target ON audit(target, seq) WHERE target IS NOT NULL;
      `);
      // Stores made before the triggers existed get them too (version 1 creates them).
      db.exec(`
        CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
          BEGIN SELECT RAISE(ABORT, 'audit rows are append-only'); END;
        CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
          BEGIN SELECT RAISE(ABORT, 'audit rows are append-only'); END;
      `);
    },
  },
  {
    version: 6,
    name: 'import batches: files ingested together, undone and redone together',
    up(db) {
      // The batch's memories are found by their `batch:<id>` tag; `undone_ids` keeps
      // exactly what an undo forgot, so a redo restores those and nothing else.
      db.exec(`
        CREATE TABLE ingest_batch (
          id TEXT PRIMARY KEY,
          status TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled', 'undone')),
          actor TEXT NOT NULL,
          roots TEXT NOT NULL CHECK (json_valid(roots)),
          started_at INTEGER NOT NULL,
          finished_at INTEGER,
          undone_at INTEGER,
          totals TEXT NOT NULL CHECK (json_valid(totals)),
          files TEXT NOT NULL CHECK (json_valid(files)),
          undone_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(undone_ids)),
          status_before_undo TEXT
        ) STRICT;
        CREATE INDEX ingest_batch_by_start ON ingest_batch(started_at);
      `);
    },
  },
  {
    version: 7,
    name: 'quality lab: recalls marked by a person, and eval runs over them',
    up(db) {
      // A case is a query with the memories that should (`expected`) or should not
      // (`wrong`) come back; ids are memory ids, kept even when the memory is later
      // erased (the run then reports the case as unanswerable). A run keeps its
      // summary and per-case outcomes, so the trend and paired comparisons survive.
      db.exec(`
        CREATE TABLE eval_case (
          id TEXT PRIMARY KEY,
          query TEXT NOT NULL,
          expected TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(expected)),
          wrong TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(wrong)),
          note TEXT,
          source_call INTEGER,
          actor TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX eval_case_query ON eval_case(query);
        CREATE TABLE eval_run (
          id TEXT PRIMARY KEY,
          at INTEGER NOT NULL,
          actor TEXT NOT NULL,
          label TEXT NOT NULL,
          config TEXT NOT NULL CHECK (json_valid(config)),
          cases INTEGER NOT NULL,
          summary TEXT NOT NULL CHECK (json_valid(summary)),
          outcomes TEXT NOT NULL CHECK (json_valid(outcomes))
        ) STRICT;
        CREATE INDEX eval_run_at ON eval_run(at);
      `);
    },
  },
  {
    version: 8,
    name: 'dreams: cycle reports, the review inbox, aliases, procedure standings, fade marks',
    up(db) {
      // dream_report and review_item exist since version 3 (never written before this
      // version): they gain what the cycles and the inbox need. A cycle left `running`
      // by a crash is marked `interrupted` when the store is next used for dreams.
      db.exec(`
        ALTER TABLE dream_report ADD COLUMN trigger TEXT NOT NULL DEFAULT 'manual';
        ALTER TABLE dream_report ADD COLUMN actor TEXT NOT NULL DEFAULT 'system';
        ALTER TABLE dream_report ADD COLUMN error TEXT;
        CREATE INDEX dream_report_by_start ON dream_report(started_at);

        ALTER TABLE review_item ADD COLUMN cycle TEXT;
        ALTER TABLE review_item ADD COLUMN title TEXT NOT NULL DEFAULT '';
        ALTER TABLE review_item ADD COLUMN fingerprint TEXT;
        ALTER TABLE review_item ADD COLUMN result_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(result_ids));
        ALTER TABLE review_item ADD COLUMN reason TEXT;
        CREATE INDEX review_item_fingerprint ON review_item(fingerprint);

        -- A merged memory keeps the title of the one merged into it.
        CREATE TABLE memory_alias (
          rid INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          alias TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (rid, alias)
        ) STRICT, WITHOUT ROWID;

        -- Skill competition: the last standing of each procedure in each niche
        -- ('' for outcomes recorded without one). faded_trials: the trial count at which a
        -- loser last faded, so a standing that did not change fades it only once.
        CREATE TABLE procedure_standing (
          niche TEXT NOT NULL,
          rid INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          successes INTEGER NOT NULL,
          trials INTEGER NOT NULL,
          wilson REAL NOT NULL,
          champion INTEGER NOT NULL CHECK (champion IN (0, 1)),
          faded_trials INTEGER,
          updated_at INTEGER NOT NULL,
          PRIMARY KEY (niche, rid)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX procedure_standing_by_memory ON procedure_standing(rid);

        -- When a dream last cooled a memory's arousal and faded its salience: each cycle
        -- applies only the time since then, so a second cycle right after changes nothing.
        CREATE TABLE dream_mark (
          rid INTEGER PRIMARY KEY REFERENCES memory(rid) ON DELETE CASCADE,
          cooled_at INTEGER,
          faded_at INTEGER
        ) STRICT;
        ALTER TABLE link ADD COLUMN faded_at INTEGER;
      `);
    },
  },
  {
    version: 9,
    name: 'conversations: when a memory happened, its session and its speaker; derived titles out of the title index',
    up(db) {
      // occurred_at: when the thing happened or was said (epoch ms), apart from when it
      // was stored. session: a thread or conversation id; a session's turns are ordered by
      // when they happened (else when stored), then rid: recall reads them as neighbours.
      // speaker: who said it.
      db.exec(`
        ALTER TABLE memory ADD COLUMN occurred_at INTEGER;
        ALTER TABLE memory ADD COLUMN session TEXT;
        ALTER TABLE memory ADD COLUMN speaker TEXT;
        CREATE INDEX memory_session ON memory(session, COALESCE(occurred_at, created_at), rid)
          WHERE session IS NOT NULL;
        CREATE INDEX memory_occurred ON memory(occurred_at, rid) WHERE occurred_at IS NOT NULL;
        CREATE INDEX memory_speaker ON memory(speaker) WHERE speaker IS NOT NULL;
      `);
      // Titles Loci derived from the content are no longer indexed a second time.
      ftsRebuild(db);
    },
  },
  ...JOURNAL_MIGRATIONS,
  {
    version: 12,
    name: 'contradiction candidates: two memories that seem to disagree, and what was decided',
    up(db) {
      // One row per pair (older, newer) the detector found: the spans that differ and its
      // confidence; `state` open until someone decides (superseded, scoped, dismissed).
      // `resolution` keeps the decision and what it changed, so it can be undone. A pair
      // is recorded once: a dismissed one is never proposed again.
      db.exec(`
        CREATE TABLE conflict (
          id TEXT PRIMARY KEY,
          older INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          newer INTEGER NOT NULL REFERENCES memory(rid) ON DELETE CASCADE,
          relation TEXT NOT NULL CHECK (relation IN ('contradicting', 'updating')),
          confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
          spans TEXT NOT NULL CHECK (json_valid(spans)),
          detected_at INTEGER NOT NULL,
          detected_by TEXT NOT NULL,
          state TEXT NOT NULL DEFAULT 'open'
            CHECK (state IN ('open', 'superseded', 'scoped', 'dismissed')),
          resolution TEXT CHECK (resolution IS NULL OR json_valid(resolution)),
          resolved_at INTEGER,
          UNIQUE (older, newer),
          CHECK (older <> newer)
        ) STRICT;
        CREATE INDEX conflict_by_state ON conflict(state, detected_at);
        CREATE INDEX conflict_by_newer ON conflict(newer);
        CREATE INDEX conflict_by_older ON conflict(older);
        -- Where the backlog scan (and the dream phase) last got to.
        CREATE TABLE conflict_scan (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          last_rid INTEGER NOT NULL,
          at INTEGER NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 13,
    name: 'replication log: operations with their clocks, tombstones, what changed since the last capture',
    up(db) {
      // sync_op: every operation of the store's shared log, made here (local = 1) or
      // received, named by its hybrid logical clock `h` (sync/hlc.ts); r1/r2 are the
      // memories it mentions, so a memory arriving late finds its links. sync_dirty is
      // filled by triggers that exist only while the store syncs (sync/capture.ts),
      // in the writing transaction, so no change is missed by a crash before capture.
      db.exec(`
        CREATE TABLE sync_op (
          seq INTEGER PRIMARY KEY,
          h TEXT NOT NULL UNIQUE,
          d TEXT NOT NULL,
          e TEXT NOT NULL,
          r1 TEXT NOT NULL,
          r2 TEXT,
          x INTEGER NOT NULL DEFAULT 0 CHECK (x IN (0, 1)),
          b TEXT NOT NULL CHECK (json_valid(b)),
          local INTEGER NOT NULL CHECK (local IN (0, 1)),
          pushed INTEGER NOT NULL DEFAULT 0 CHECK (pushed IN (0, 1)),
          received_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX sync_op_entity ON sync_op(e, h);
        CREATE INDEX sync_op_r1 ON sync_op(r1);
        CREATE INDEX sync_op_r2 ON sync_op(r2) WHERE r2 IS NOT NULL;
        CREATE INDEX sync_op_unpushed ON sync_op(seq) WHERE local = 1 AND pushed = 0;
        CREATE TABLE sync_tombstone (
          id TEXT PRIMARY KEY,
          h TEXT NOT NULL,
          at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE sync_dirty (
          seq INTEGER PRIMARY KEY,
          kind TEXT NOT NULL CHECK (kind IN ('m', 'l', 'o', 'c')),
          a TEXT,
          b TEXT,
          c TEXT,
          actor TEXT
        ) STRICT;
        -- Which local outcome row an outcome operation is (outcomes only accumulate).
        -- Goes with its outcome row (an erase deletes them): SQLite reuses a deleted last id.
        CREATE TABLE sync_outcome (
          h TEXT PRIMARY KEY,
          outcome INTEGER NOT NULL UNIQUE REFERENCES procedure_outcome(id) ON DELETE CASCADE
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE sync_state (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL CHECK (json_valid(value))
        ) STRICT, WITHOUT ROWID;
      `);
    },
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

export function schemaVersion(db: Db): number {
  const exists = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`)
    .get();
  if (!exists) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as {
    v: number | null;
  };
  return row.v ?? 0;
}

export interface MigrationReport {
  from: number;
  to: number;
  applied: string[];
  backup: string | null;
}

export interface MigrateOptions {
  /** Where to write the pre-migration backup of a store that already holds data. */
  backupPath: (fromVersion: number) => string;
  /** Stop at this version (tests build older schemas with it). */
  target?: number;
  now?: () => number;
}

export async function migrate(db: Db, options: MigrateOptions): Promise<MigrationReport> {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  ) STRICT`);
  const from = schemaVersion(db);
  const target = options.target ?? LATEST_SCHEMA_VERSION;
  if (from > LATEST_SCHEMA_VERSION) {
    throw new LociError(
      'environment',
      `This store was written by a newer Loci (schema ${from}; this Loci knows up to ${LATEST_SCHEMA_VERSION}). Upgrade Loci to open it; nothing was changed.`,
      { schema_version: from, supported: LATEST_SCHEMA_VERSION },
    );
  }
  const pending = MIGRATIONS.filter((m) => m.version > from && m.version <= target);
  if (pending.length === 0) return { from, to: from, applied: [], backup: null };

  let backup: string | null = null;
  if (from > 0) {
    backup = options.backupPath(from);
    if (!existsSync(dirname(backup))) mkdirSync(dirname(backup), { recursive: true });
    await db.backup(backup);
  }
  const now = options.now ?? Date.now;
  const record = db.prepare(
    'INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)',
  );
  for (const migration of pending) {
    db.transaction(() => {
      migration.up(db);
      record.run(migration.version, migration.name, now());
    })();
  }
  return {
    from,
    to: pending[pending.length - 1]?.version ?? from,
    applied: pending.map((m) => m.name),
    backup,
  };
}
