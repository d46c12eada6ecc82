// What a group of memories is about, in its own words: the terms that are frequent in the
// group and rare in the store (class-based TF-IDF, as BERTopic names its topics: a term's
// share of the group's members times log(1 + store size / memories holding it)). Used to
// name dream schemas and the Atlas's communities, never by batch tags or file names that
// every memory of an import shares.
import { eng as englishStopwords } from 'stopword';

/** Words that name nothing on their own, beside the English stop words. */
const STOP_WORDS = new Set([
  ...englishStopwords,
  'also',
  'use',
  'uses',
  'used',
  'using',
  'one',
  'two',
  'new',
  'get',
  'set',
  'can',
  'will',
  'must',
  'should',
  'like',
  'see',
]);

export interface TermDocs {
  title: string;
  content: string;
}

/** Words of a text as the names use them: lower case, letters and digits, no stop words. */
export function nameWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)) {
    if (w.length < 3 || STOP_WORDS.has(w) || /^\d+$/.test(w)) continue;
    out.add(w);
  }
  return out;
}

/**
 * The `n` most distinctive terms of `members`, best first. `df` says how many memories of
 * the whole store (`total`) hold a word; a term must be in at least two members (or the
 * only one). Ties go to the word seen first in the titles.
 */
export function distinctiveTerms(
  members: readonly TermDocs[],
  df: (word: string) => number,
  total: number,
  n = 3,
): string[] {
  if (members.length === 0) return [];
  const inMembers = new Map<string, number>();
  const inTitles = new Map<string, number>();
  let order = 0;
  const firstSeen = new Map<string, number>();
  for (const m of members) {
    const title = nameWords(m.title);
    for (const w of title) inTitles.set(w, (inTitles.get(w) ?? 0) + 1);
    for (const w of new Set([...title, ...nameWords(m.content)])) {
      inMembers.set(w, (inMembers.get(w) ?? 0) + 1);
      if (!firstSeen.has(w)) firstSeen.set(w, order++);
    }
  }
  const need = Math.min(2, members.length);
  const scored: { w: string; score: number }[] = [];
  for (const [w, count] of inMembers) {
    if (count < need) continue;
    const held = Math.max(count, df(w));
    // A word most of the store holds (an import's file name, the product's name) describes
    // the store, not this group.
    if (total >= 10 && held / total > 0.5) continue;
    // A title word says more of what a memory is about than a word of its body.
    const tf = (count + (inTitles.get(w) ?? 0)) / members.length;
    scored.push({ w, score: tf * Math.log(1 + Math.max(1, total) / held) });
  }
  scored.sort(
    (a, b) => b.score - a.score || (firstSeen.get(a.w) as number) - (firstSeen.get(b.w) as number),
  );
  return scored.slice(0, n).map((s) => s.w);
}
