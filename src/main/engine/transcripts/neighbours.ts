// A candidate against what the store already holds: an equivalent memory (the same words,
// the same values) is reinforced instead of written twice; a conflicting one (the same
// subject, other values: a number, a version or a negation that differs) is named so the
// candidate is linked to it `contradicts` for a person to settle — never overwritten.
// A narrow, model-free test on the nearest memories by BM25; it errs towards "neither".
import type { Actor } from '../../../shared/api';
import { visibilityFilter } from '../memory/model';
import { setJaccard, wordSet } from '../recall/ranking';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';

/** Word-set similarity at or above which two memories say the same thing. */
export const EQUIVALENT = 0.8;
/** …and above which, with other values, they speak of the same subject. */
export const SAME_SUBJECT = 0.45;
/** Nearest memories compared. */
const NEAREST = 8;

const NUMBER = /\d+(?:[.,]\d+)*/g;
const NEGATION =
  /\b(?:not|never|no|don't|doesn't|isn't|aren't|won't|cannot|can't|forbidden|disallowed|without)\b/i;
/** Words that carry no subject: left out of the FTS query. */
const STOP = new Set(
  'the a an and or of to in on for with is are was were be been it this that from by at as use uses used'.split(
    ' ',
  ),
);

export type Neighbour =
  | { relation: 'equivalent'; id: string; rid: number }
  | { relation: 'conflicting'; ids: string[] }
  | null;

const numbers = (text: string) => new Set(text.match(NUMBER) ?? []);
const sameSet = (a: Set<string>, b: Set<string>) =>
  a.size === b.size && [...a].every((x) => b.has(x));

/** Whether two texts on one subject hold different values. */
export function differInValue(a: string, b: string): boolean {
  const na = numbers(a);
  const nb = numbers(b);
  if (na.size && nb.size && !sameSet(na, nb)) return true;
  return NEGATION.test(a) !== NEGATION.test(b);
}

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
    const differ = differInValue(content, r.content);
    if (similarity >= EQUIVALENT && !differ)
      return { relation: 'equivalent', id: r.id, rid: r.rid };
    if (similarity >= SAME_SUBJECT && differ) conflicting.push(r.id);
  }
  return conflicting.length ? { relation: 'conflicting', ids: conflicting.slice(0, 3) } : null;
}
