// The reference the conversational suite measures against: plain Okapi BM25 (k1 1.2,
// b 0.75) over lower-cased words with English stop words dropped, no stemming, no
// tuning — what "a 30-line BM25" means in the issue that asked for this suite.
import { eng as englishStopwords } from 'stopword';

const STOP = new Set(englishStopwords);
const tokenize = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));

export class Bm25 {
  private readonly docs: Map<string, number>[] = [];
  private readonly lengths: number[] = [];
  private readonly df = new Map<string, number>();
  private readonly ids: string[] = [];

  constructor(
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {}

  add(id: string, text: string): void {
    const tf = new Map<string, number>();
    const words = tokenize(text);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
    this.docs.push(tf);
    this.lengths.push(words.length);
    this.ids.push(id);
  }

  search(query: string, limit: number): string[] {
    const n = this.docs.length;
    const avg = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, n);
    const terms = [...new Set(tokenize(query))];
    const scored: { id: string; score: number }[] = [];
    this.docs.forEach((tf, i) => {
      let score = 0;
      for (const t of terms) {
        const f = tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const len = this.lengths[i] as number;
        score += (idf * (f * (this.k1 + 1))) / (f + this.k1 * (1 - this.b + (this.b * len) / avg));
      }
      if (score > 0) scored.push({ id: this.ids[i] as string, score });
    });
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, limit).map((s) => s.id);
  }
}
