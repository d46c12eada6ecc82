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

import {
  GramCounts,
  has,
  MinHeap,
  normalizeName,
  recognizerTokens,
  sortedUnique,
  trigrams,
  uniqueGrams,
} from './recognizerKeys';

export { GramCounts, normalizeName, recognizerTokens, trigrams } from './recognizerKeys';

export const RECOGNIZER_BAR = 0.72;
export const RECOGNIZER_MARGIN = 0.15;
/** A question names a memory only if it covers most of the title and the title most of it. */
export const RECOGNIZER_MIN_TITLE_COVER = 0.6;
export const RECOGNIZER_MIN_QUERY_COVER = 0.8;
export const HEAD_CHARS = 160;
const COMMON_GRAM_SHARE = 0.1;
/** Tokens in more memories than this do not generate candidates (they still score). */
const MAX_POSTINGS_FOR_CANDIDATES = 5000;

interface Doc {
  title: string;
  tokens: Int32Array;
  titleTokens: Int32Array;
  /** Trigram hashes of title and head, unique, unsorted (read only when scoring). */
  grams: Int32Array;
}

/** A memory's recognition keys (Recognizer.keysOf). */
export interface RecognizerKeys {
  name: string;
  titleTokens: string[];
  headTokens: string[];
  grams: Int32Array;
}

export interface Recognition {
  rid: number;
  score: number;
  runnerUp: number;
  /** The best few candidates and their scores, for explanations. */
  considered: { rid: number; score: number }[];
}

export class Recognizer {
  private readonly docs = new Map<number, Doc>();
  private readonly tokenIds = new Map<string, number>();
  private readonly tokenDf: number[] = [];
  private readonly postings: number[][] = [];
  private readonly gramDf = new GramCounts();
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

  /**
   * What the recogniser reads of a memory, computed without touching the index: a batch
   * write works these out while the credential scan of the same batch runs (write path).
   */
  static keysOf(title: string, content: string): RecognizerKeys {
    const head = content.slice(0, HEAD_CHARS);
    return {
      name: normalizeName(title),
      titleTokens: recognizerTokens(title),
      headTokens: recognizerTokens(head),
      grams: uniqueGrams([title, head]),
    };
  }

  add(rid: number, title: string, content: string, keys?: RecognizerKeys): void {
    if (this.docs.has(rid)) this.remove(rid);
    const k = keys ?? Recognizer.keysOf(title, content);
    const titleTokens = sortedUnique(k.titleTokens.map((t) => this.intern(t)));
    const tokens = sortedUnique([...titleTokens, ...k.headTokens.map((t) => this.intern(t))]);
    const grams = k.grams;
    for (const t of tokens) {
      this.tokenDf[t] = (this.tokenDf[t] as number) + 1;
      (this.postings[t] as number[]).push(rid);
    }
    for (const g of grams) this.gramDf.add(g, 1);
    const name = k.name;
    const list = this.titles.get(name);
    if (list) list.push(rid);
    else this.titles.set(name, [rid]);
    this.docs.set(rid, { title: name, tokens, titleTokens, grams });
  }

  remove(rid: number): void {
    const doc = this.docs.get(rid);
    if (!doc) return;
    this.docs.delete(rid);
    for (const t of doc.tokens) {
      this.tokenDf[t] = (this.tokenDf[t] as number) - 1;
      // Posting order does not matter: swap the last one in (recent rids sit at the end).
      const list = this.postings[t] as number[];
      const at = list.lastIndexOf(rid);
      if (at >= 0) {
        list[at] = list[list.length - 1] as number;
        list.pop();
      }
    }
    for (const g of doc.grams) {
      this.gramDf.add(g, -1);
    }
    const list = this.titles.get(doc.title);
    if (list) {
      const rest = list.filter((r) => r !== rid);
      if (rest.length === 0) this.titles.delete(doc.title);
      else this.titles.set(doc.title, rest);
    }
  }

  private idf(token: number): number {
    return Math.log(1 + this.docs.size / Math.max(1, this.tokenDf[token] ?? 0));
  }

  /** idf of every token, computed once per store size (a write changes them all a little). */
  private idfCache = new Float64Array(0);
  private idfCacheSize = -1;
  private cachedIdf(token: number): number {
    if (this.idfCacheSize !== this.docs.size || this.idfCache.length < this.tokenDf.length) {
      this.idfCache = new Float64Array(Math.max(this.tokenDf.length, 64)).fill(Number.NaN);
      this.idfCacheSize = this.docs.size;
    }
    let v = this.idfCache[token] as number;
    if (Number.isNaN(v)) {
      v = this.idf(token);
      this.idfCache[token] = v;
    }
    return v;
  }

  /**
   * @param shortlist how many of the best candidates the caller's filters decide among
   *   (checking them costs a query each).
   */
  constructor(private readonly shortlist = 50) {}

  /**
   * The memory the query names, if one clears the bar and the margin among those
   * `accept` lets through (the caller's filters: visibility, trust, kinds…). `best` (the
   * top candidates, for explanations) is left out when no memory could be named, unless
   * `explain` asks for it.
   *
   * Exactly as if every candidate were scored, but cheaper: query and title coverage come
   * from one pass over the postings, which bounds each score from above (the trigram
   * share, which needs the memory's grams, counts as its maximum); only candidates whose
   * bound can still reach the shortlist's scores are scored in full.
   */
  recognize(
    query: string,
    accept: (rid: number) => boolean,
    options: { explain?: boolean } = {},
  ): { hit: Recognition | null; best: Recognition | null } {
    const n = this.docs.size;
    if (n === 0) return { hit: null, best: null };
    const words = recognizerTokens(query);
    const qTokens = [
      ...new Set(
        words.map((t) => this.tokenIds.get(t)).filter((t): t is number => t !== undefined),
      ),
    ];
    const qUnknown = words.length - qTokens.length;
    const qWeight = qTokens.reduce((s, t) => s + this.cachedIdf(t), 0) + qUnknown * Math.log(1 + n);
    if (qWeight === 0) return { hit: null, best: null };
    const qGrams = trigrams(query).filter(
      (g) => this.gramDf.get(g) <= Math.max(1, n * COMMON_GRAM_SHARE),
    );
    const qGramSet = new Set(qGrams);
    const exactName = normalizeName(query);

    // Matched query weight per candidate, from the postings of the selective tokens; the
    // common ones (too many postings to walk) are checked per candidate below.
    const matched = new Map<number, number>();
    const common: number[] = [];
    for (const t of qTokens) {
      const list = this.postings[t] as number[];
      if (list.length > MAX_POSTINGS_FOR_CANDIDATES) {
        common.push(t);
        continue;
      }
      const w = this.cachedIdf(t);
      for (const rid of list) matched.set(rid, (matched.get(rid) ?? 0) + w);
    }
    for (const rid of this.titles.get(exactName) ?? []) if (!matched.has(rid)) matched.set(rid, 0);

    interface Partial {
      rid: number;
      doc: Doc;
      exact: boolean;
      qcov: number;
      tcov: number;
      bound: number;
    }
    const titleCover = (doc: Doc) => {
      let matchedTitle = 0;
      let titleWeight = 0;
      for (const t of doc.titleTokens) {
        const w = this.cachedIdf(t);
        titleWeight += w;
        if (qTokens.includes(t)) matchedTitle += w;
      }
      return titleWeight > 0 ? Math.min(1, matchedTitle / titleWeight) : 0;
    };
    const partials: Partial[] = [];
    let nameable = false;
    for (const [rid, selective] of matched) {
      const doc = this.docs.get(rid);
      if (!doc) continue;
      let m = selective;
      for (const t of common) if (has(doc.tokens, t)) m += this.cachedIdf(t);
      const qcov = m / qWeight;
      const exact = doc.title === exactName && exactName.length > 0;
      const p: Partial = { rid, doc, exact, qcov, tcov: Number.NaN, bound: 1 };
      if (exact) nameable = true;
      else if (qcov >= RECOGNIZER_MIN_QUERY_COVER) {
        p.tcov = titleCover(doc);
        if (p.tcov >= RECOGNIZER_MIN_TITLE_COVER) nameable = true;
      }
      partials.push(p);
    }
    // Most questions name no memory: then there is nothing to answer, and the ranking of
    // the rest matters only to an explanation.
    if (!nameable && !options.explain) return { hit: null, best: null };
    for (const p of partials) {
      if (p.exact) continue;
      if (Number.isNaN(p.tcov)) p.tcov = titleCover(p.doc);
      p.bound = 0.45 * p.qcov + 0.35 * p.tcov + 0.2;
    }

    const scored: { rid: number; score: number; named: boolean }[] = [];
    const score = (p: Partial) => {
      if (p.exact) {
        scored.push({ rid: p.rid, score: 1, named: true });
        return;
      }
      let hits = 0;
      for (const g of p.doc.grams) if (qGramSet.has(g)) hits++;
      const grams = qGrams.length > 0 ? hits / qGrams.length : p.qcov;
      scored.push({
        rid: p.rid,
        score: 0.45 * p.qcov + 0.35 * p.tcov + 0.2 * grams,
        named: p.qcov >= RECOGNIZER_MIN_QUERY_COVER && p.tcov >= RECOGNIZER_MIN_TITLE_COVER,
      });
    };
    const K = this.shortlist;
    if (partials.length <= K) {
      for (const p of partials) score(p);
    } else {
      // In order of bound, until the bound falls below the K-th best score so far (a
      // min-heap of the best K scores): nothing after that can enter the shortlist.
      partials.sort((a, b) => b.bound - a.bound);
      const heap = new MinHeap(K);
      for (const p of partials) {
        if (heap.full && p.bound < heap.min) break;
        score(p);
        heap.push((scored[scored.length - 1] as { score: number }).score);
      }
    }
    scored.sort((a, b) => b.score - a.score);
    // The caller's filters decide only among the best few: checking them costs a query each.
    const accepted: { rid: number; score: number; named: boolean }[] = [];
    for (const s of scored.slice(0, K)) {
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
