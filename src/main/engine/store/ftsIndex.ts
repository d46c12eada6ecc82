// Keeps `memory_fts` in step with the canonical `memory` rows. The FTS table is
// contentless (it stores only the index, not a second copy of the text), so it is
// written explicitly here and can always be rebuilt from `memory`.
import { deriveTitle } from '../cognition/appraisal';
import { identifierTerms } from '../recall/terms';
import type { Db } from './database';
import { stmt } from './statements';

/**
 * Column weights of BM25 (title, content, tags, identifier parts): a title hit counts
 * most. Recall calls `bm25()` with them explicitly — a third faster than the `rank`
 * column, which the table is also configured with for ad-hoc queries.
 */
export const FTS_WEIGHTS = '4.0, 1.0, 2.0, 1.0';

export const FTS_CREATE_SQL = `
CREATE VIRTUAL TABLE memory_fts USING fts5(
  title, content, tags, terms,
  content = '',
  contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
-- Column weights for ORDER BY rank: a title hit counts most, identifier parts least.
INSERT INTO memory_fts(memory_fts, rank) VALUES ('rank', 'bm25(4.0, 1.0, 2.0, 1.0)');
`;

export interface FtsDocument {
  title: string;
  content: string;
  tags: string[];
}

export type FtsColumns = [title: string, content: string, tags: string, terms: string];

/**
 * The four columns a memory is indexed with. `titleDerived` says the title is known to
 * be the one Loci derives from the content (the write path has just derived it), which
 * spares deriving it again to compare.
 */
export function ftsColumns(doc: FtsDocument, titleDerived = false): FtsColumns {
  const tags = doc.tags.join(' ; ');
  // A title Loci derived is the head of the content, which is indexed already: indexing it
  // again, at the title's weight, would count the first words of every note five times.
  // Only a title someone gave is a title to BM25.
  const title = titleDerived || doc.title === deriveTitle(doc.content) ? '' : doc.title;
  // Each field on its own: joining them would turn Latin-1 content into a two-byte
  // string whenever the title has a "…", and V8's Unicode regexes are far slower on those.
  const terms = [identifierTerms(title), identifierTerms(doc.content), identifierTerms(tags)];
  return [title, doc.content, tags, [...new Set(terms.filter(Boolean))].join(' , ')];
}

export function ftsInsert(db: Db, rid: number, doc: FtsDocument): void {
  ftsInsertColumns(db, rid, ftsColumns(doc));
}

/** Indexes a memory whose columns were worked out beforehand (outside the transaction). */
export function ftsInsertColumns(db: Db, rid: number, columns: FtsColumns): void {
  stmt(db, 'INSERT INTO memory_fts(rowid, title, content, tags, terms) VALUES (?, ?, ?, ?, ?)').run(
    rid,
    ...columns,
  );
}

export function ftsRemove(db: Db, rid: number): void {
  stmt(db, 'DELETE FROM memory_fts WHERE rowid = ?').run(rid);
}

export function ftsReplace(db: Db, rid: number, doc: FtsDocument): void {
  ftsRemove(db, rid);
  ftsInsert(db, rid, doc);
}

/** Rebuilds the whole index from the live memories (used by a migration and repairs). */
export function ftsRebuild(db: Db): number {
  db.exec(`DELETE FROM memory_fts`);
  // Paged by rid: better-sqlite3 cannot write while an iterator is open on the connection.
  const page = db.prepare(
    `SELECT m.rid AS rid, m.title AS title, m.content AS content,
            COALESCE((SELECT json_group_array(tag) FROM memory_tag t WHERE t.rid = m.rid), '[]') AS tags
       FROM memory m WHERE m.deleted_at IS NULL AND m.rid > ? ORDER BY m.rid LIMIT 1000`,
  );
  let n = 0;
  let after = 0;
  for (;;) {
    const rows = page.all(after) as { rid: number; title: string; content: string; tags: string }[];
    if (rows.length === 0) return n;
    for (const row of rows) {
      ftsInsert(db, row.rid, {
        title: row.title,
        content: row.content,
        tags: JSON.parse(row.tags) as string[],
      });
      after = row.rid;
      n++;
    }
  }
}
