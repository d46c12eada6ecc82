// A candidate against what the store already holds: an equivalent memory (the same words,
// the same values) is reinforced instead of written twice; a conflicting one (the same
// subject, other values: conflicts/detect.ts) is named so the candidate is linked to it
// `contradicts` for a person to settle — never overwritten. The nearest memories are
// found by BM25; it errs towards "neither".
import type { Actor } from '../../../shared/api';
import { comparePair } from '../conflicts/detect';
import { visibilityFilter } from '../memory/model';
import { setJaccard, wordSet } from '../recall/ranking';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';

/** Word-set similarity at or above which two memories say the same thing. */
export const EQUIVALENT = 0.8;
/** Nearest memories compared. */
const NEAREST = 8;

/** Words that carry no subject: left out of the FTS query. */
const STOP = new Set(
  'the a an and or of to in on for with is are was were be been it this that from by at as use uses used'.split(
    ' ',
  ),
);

const isConflict = (r: string) => r === 'contradicting' || r === 'updating';

export type Neighbour =
  | { relation: 'equivalent'; id: string; rid: number }
  | { relation: 'conflicting'; ids: string[] }
  | null;

export function nearestRelation(store: OpenStore, actor: Actor, content: string): Neighbour {
  const words = [...wordSet(content)].filter((w) => w.length > 1 && !STOP.has(w)).slice(0, 24);
  if (words.length === 0) return null;
  const match = words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
  const vis = visibilityFilter(actor);
  const rows = stmt(
    store.db,
    `SELECT m.rid, m.id, m.content FROM memory_fts f JOIN memory m ON m.rid = f.rowid
      WHERE memory_fts MATCH ? AND m.deleted_at IS NULL AND m.kind != 'episodic' AND ${vis.sql}
      ORDER BY bm25(memory_fts) LIMIT ?`,
  ).all(match, ...vis.params, NEAREST) as { rid: number; id: string; content: string }[];
  const mine = wordSet(content);
  const conflicting: string[] = [];
  for (const r of rows) {
    const similarity = setJaccard(mine, wordSet(r.content));
    const differ = isConflict(comparePair(r.content, content).relation);
    if (similarity >= EQUIVALENT && !differ)
      return { relation: 'equivalent', id: r.id, rid: r.rid };
    if (differ) conflicting.push(r.id);
  }
  return conflicting.length ? { relation: 'conflicting', ids: conflicting.slice(0, 3) } : null;
}
