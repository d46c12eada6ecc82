// Tier zero of recall (DESIGN.md §6): a deterministic recogniser over each memory's
// title and the head of its body. It answers only a question that *names* a memory —
// the best candidate must clear an absolute bar and beat the runner-up by a margin —
// and otherwise stays silent so the question falls through to the full pipeline.
//
// Score of memory d for query q (each part normalised by what it could have matched):
//   exact   1 when the normalised query equals d's normalised title;
//   qcov    Σ idf(t) over query tokens found in d  /  Σ idf(t) over query tokens;
//   tcov    Σ idf(t) over query tokens found in d's title  /  Σ idf(t) over title tokens;
//   grams   share of the query's character trigrams found in d, over-common ones
//           (in more than 10 % of memories) dropped;
//   score = exact ? 1 : 0.45·qcov + 0.35·tcov + 0.20·grams,  idf(t) = ln(1 + N / df(t)).
// Besides the bar and the margin, a non-exact answer needs qcov ≥ 0.8 and tcov ≥ 0.6.
import { eng as englishStopwords } from 'stopword';

export const RECOGNIZER_BAR = 0.72;
export const RECOGNIZER_MARGIN = 0.15;
/** A question names a memory only if it covers most of the title and the title most of it. */
export const RECOGNIZER_MIN_TITLE_COVER = 0.6;
export const RECOGNIZER_MIN_QUERY_COVER = 0.8;
export const HEAD_CHARS = 160;
const COMMON_GRAM_SHARE = 0.1;
/** Tokens in more memories than this do not generate candidates (they still score). */
const MAX_POSTINGS_FOR_CANDIDATES = 5000;

const STOPWORDS = new Set([
  ...englishStopwords,
  'does',
  'when',
  'why',
  'please',
  'tell',
  'me',
  'you',
  'your',
]);

export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Words, plus identifiers and dotted numbers as written (`max_pool_size`, `1.2.3`). */
export function recognizerTokens(text: string): string[] {
  const lower = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const out = new Set<string>();
  for (const word of lower.match(/[\p{L}\p{N}]+/gu) ?? []) if (!STOPWORDS.has(word)) out.add(word);
  for (const ident of lower.match(/[\p{L}\p{N}]+(?:[._/-][\p{L}\p{N}]+)+/gu) ?? []) out.add(ident);
  return [...out];
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

export function trigrams(text: string): number[] {
  const s = `_${normalizeName(text).replace(/ /g, '_')}_`;
  const out = new Set<number>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(fnv1a(s.slice(i, i + 3)));
  return [...out];
}

interface Doc {
  title: string;
  tokens: Int32Array;
  titleTokens: Int32Array;
  grams: Int32Array;
}

export interface Recognition {
  rid: number;
  score: number;
  runnerUp: number;
  /** The best few candidates and their scores, for explanations. */
  considered: { rid: number; score: number }[];
}

const sortedUnique = (values: number[]) =>
  Int32Array.from([...new Set(values)].sort((a, b) => a - b));

function has(sorted: Int32Array, value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid] as number;
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export class Recognizer {
  private readonly docs = new Map<number, Doc>();
  private readonly tokenIds = new Map<string, number>();
  private readonly tokenDf: number[] = [];
  private readonly postings: number[][] = [];
  private readonly gramDf = new Map<number, number>();
  private readonly titles = new Map<string, number[]>();

  get size(): number {
    return this.docs.size;
  }

  private intern(token: string): number {
    let id = this.tokenIds.get(token);
    if (id === undefined) {
      id = this.tokenDf.length;
      this.tokenIds.set(token, id);
      this.tokenDf.push(0);
      this.postings.push([]);
    }
    return id;
  }

  add(rid: number, title: string, content: string): void {
    if (this.docs.has(rid)) this.remove(rid);
    const head = content.slice(0, HEAD_CHARS);
    const titleTokens = sortedUnique(recognizerTokens(title).map((t) => this.intern(t)));
    const tokens = sortedUnique([
      ...titleTokens,
      ...recognizerTokens(head).map((t) => this.intern(t)),
    ]);
    const grams = Int32Array.from(new Set([...trigrams(title), ...trigrams(head)])).sort();
    for (const t of tokens) {
      this.tokenDf[t] = (this.tokenDf[t] as number) + 1;
      (this.postings[t] as number[]).push(rid);
    }
    for (const g of grams) this.gramDf.set(g, (this.gramDf.get(g) ?? 0) + 1);
    const name = normalizeName(title);
    const list = this.titles.get(name);
    if (list) list.push(rid);
    else this.titles.set(name, [rid]);
    this.docs.set(rid, { title: name, tokens, titleTokens, grams });
  }

  remove(rid: number): void {
    const doc = this.docs.get(rid);
    if (!doc) return;
    this.docs.delete(rid);
    for (const t of doc.tokens) this.tokenDf[t] = (this.tokenDf[t] as number) - 1;
    for (const g of doc.grams) {
      const n = (this.gramDf.get(g) ?? 1) - 1;
      if (n <= 0) this.gramDf.delete(g);
      else this.gramDf.set(g, n);
    }
    const list = this.titles.get(doc.title);
    if (list) {
      const rest = list.filter((r) => r !== rid);
      if (rest.length === 0) this.titles.delete(doc.title);
      else this.titles.set(doc.title, rest);
    }
    // Postings are cleaned lazily: a rid whose doc is gone is skipped when read.
  }

  private idf(token: number): number {
    return Math.log(1 + this.docs.size / Math.max(1, this.tokenDf[token] ?? 0));
  }

  /**
   * The memory the query names, if one clears the bar and the margin among those
   * `accept` lets through (the caller's filters: visibility, trust, kinds…).
   */
  recognize(
    query: string,
    accept: (rid: number) => boolean,
  ): { hit: Recognition | null; best: Recognition | null } {
    const n = this.docs.size;
    if (n === 0) return { hit: null, best: null };
    const qTokens = [
      ...new Set(
        recognizerTokens(query)
          .map((t) => this.tokenIds.get(t))
          .filter((t): t is number => t !== undefined),
      ),
    ];
    const qUnknown = recognizerTokens(query).length - qTokens.length;
    const qWeight = qTokens.reduce((s, t) => s + this.idf(t), 0) + qUnknown * Math.log(1 + n);
    if (qWeight === 0) return { hit: null, best: null };
    const qGrams = trigrams(query).filter(
      (g) => (this.gramDf.get(g) ?? 0) <= Math.max(1, n * COMMON_GRAM_SHARE),
    );

    const candidates = new Set<number>(this.titles.get(normalizeName(query)) ?? []);
    for (const t of qTokens) {
      const list = this.postings[t] as number[];
      if (list.length > MAX_POSTINGS_FOR_CANDIDATES) continue;
      for (const rid of list) candidates.add(rid);
    }
    const exactName = normalizeName(query);
    const scored: { rid: number; score: number; named: boolean }[] = [];
    for (const rid of candidates) {
      const doc = this.docs.get(rid);
      if (!doc) continue;
      let score: number;
      let named = true;
      if (doc.title === exactName && exactName.length > 0) score = 1;
      else {
        let matched = 0;
        let matchedTitle = 0;
        for (const t of qTokens) {
          if (has(doc.tokens, t)) matched += this.idf(t);
          if (has(doc.titleTokens, t)) matchedTitle += this.idf(t);
        }
        let titleWeight = 0;
        for (const t of doc.titleTokens) titleWeight += this.idf(t);
        const qcov = matched / qWeight;
        const tcov = titleWeight > 0 ? Math.min(1, matchedTitle / titleWeight) : 0;
        const grams =
          qGrams.length > 0 ? qGrams.filter((g) => has(doc.grams, g)).length / qGrams.length : qcov;
        score = 0.45 * qcov + 0.35 * tcov + 0.2 * grams;
        named = qcov >= RECOGNIZER_MIN_QUERY_COVER && tcov >= RECOGNIZER_MIN_TITLE_COVER;
      }
      scored.push({ rid, score, named });
    }
    scored.sort((a, b) => b.score - a.score);
    // The caller's filters decide only among the best few: checking them costs a query each.
    const accepted: { rid: number; score: number; named: boolean }[] = [];
    for (const s of scored.slice(0, 50)) {
      if (accept(s.rid)) accepted.push(s);
      if (accepted.length === 5) break;
    }
    const [first, second] = accepted;
    if (!first) return { hit: null, best: null };
    const best: Recognition = {
      rid: first.rid,
      score: first.score,
      runnerUp: second?.score ?? 0,
      considered: accepted.map(({ rid, score }) => ({ rid, score })),
    };
    const hit =
      first.named && best.score >= RECOGNIZER_BAR && best.score - best.runnerUp >= RECOGNIZER_MARGIN
        ? best
        : null;
    return { hit, best };
  }
}
