// The recogniser's keys: how a title or a query is folded and cut into tokens and
// character trigrams, a compact counter of trigram frequencies, and the small sorted
// arrays and heap its scoring loop runs on (recognizer.ts holds the scoring itself).
import { eng as englishStopwords } from 'stopword';

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

// eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included
const ASCII = /^[\x00-\x7f]*$/;

/** Lower case without accents (NFKD, combining marks dropped). ASCII needs neither step. */
export function fold(text: string): string {
  return ASCII.test(text)
    ? text.toLowerCase()
    : text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

export function normalizeName(text: string): string {
  const folded = fold(text);
  return (
    ASCII.test(folded)
      ? folded.replace(/[^a-z0-9]+/g, ' ')
      : folded.replace(/[^\p{L}\p{N}]+/gu, ' ')
  ).trim();
}

/** Words, plus identifiers and dotted numbers as written (`max_pool_size`, `1.2.3`). */
export function recognizerTokens(text: string): string[] {
  const lower = fold(text);
  const ascii = ASCII.test(lower);
  const out = new Set<string>();
  for (const word of lower.match(ascii ? /[a-z0-9]+/g : /[\p{L}\p{N}]+/gu) ?? []) {
    if (!STOPWORDS.has(word)) out.add(word);
  }
  const idents = ascii
    ? /[a-z0-9]+(?:[._/-][a-z0-9]+)+/g
    : /[\p{L}\p{N}]+(?:[._/-][\p{L}\p{N}]+)+/gu;
  for (const ident of lower.match(idents) ?? []) out.add(ident);
  return [...out];
}

/**
 * Character trigrams of the normalised text with `_` for spaces and at both ends, each
 * hashed (FNV-1a over its three UTF-16 units): sorted, without duplicates.
 */
export function trigrams(...texts: string[]): Int32Array {
  return uniqueGrams(texts).sort();
}

// Scratch for uniqueGrams: a hash set cleared by bumping a generation, not by zeroing.
let seenKeys = new Int32Array(1024);
let seenGen = new Uint32Array(1024);
let generation = 0;

/** The trigram hashes of the texts, without duplicates, in no particular order. */
export function uniqueGrams(texts: string[]): Int32Array {
  const names = texts.map(normalizeName);
  let size = 0;
  for (const name of names) size += name.length;
  if (size * 2 > seenKeys.length) {
    let cap = seenKeys.length;
    while (size * 2 > cap) cap *= 2;
    seenKeys = new Int32Array(cap);
    seenGen = new Uint32Array(cap);
    generation = 0;
  }
  generation = (generation + 1) >>> 0;
  if (generation === 0) {
    seenGen.fill(0);
    generation = 1;
  }
  const mask = seenKeys.length - 1;
  const out = new Int32Array(size);
  let n = 0;
  for (const name of names) {
    // Over `_name_` with spaces read as `_`, without building that string.
    const len = name.length + 2;
    const at = (i: number) => {
      if (i === 0 || i === len - 1) return 95;
      const c = name.charCodeAt(i - 1);
      return c === 32 ? 95 : c;
    };
    let a = at(0);
    let b = len > 1 ? at(1) : 0;
    for (let i = 2; i < len; i++) {
      const c = at(i);
      let h = 0x811c9dc5;
      h = Math.imul(h ^ a, 0x01000193);
      h = Math.imul(h ^ b, 0x01000193);
      h = Math.imul(h ^ c, 0x01000193);
      a = b;
      b = c;
      let slot = Math.imul(h, 0x9e3779b1) >>> 0;
      for (;;) {
        slot &= mask;
        if (seenGen[slot] !== generation) {
          seenGen[slot] = generation;
          seenKeys[slot] = h;
          out[n++] = h;
          break;
        }
        if (seenKeys[slot] === h) break;
        slot++;
      }
    }
  }
  return out.slice(0, n);
}

/**
 * How many memories hold each trigram: an open-addressing table (linear probing) with
 * integer keys, several times faster than a Map on the write path. A key whose count
 * falls to zero keeps its slot (so probe chains stay intact) until the next rehash.
 */
export class GramCounts {
  private keys = new Int32Array(1 << 12);
  private counts = new Int32Array(1 << 12);
  private occupied = new Uint8Array(1 << 12);
  private used = 0;

  private slot(key: number): number {
    const mask = this.keys.length - 1;
    let i = Math.imul(key, 0x9e3779b1) >>> 0;
    for (;;) {
      i &= mask;
      if (this.occupied[i] === 0 || this.keys[i] === key) return i;
      i++;
    }
  }

  get(key: number): number {
    return this.counts[this.slot(key)] as number;
  }

  add(key: number, delta: number): void {
    const i = this.slot(key);
    if (this.occupied[i] === 0) {
      if (delta <= 0) return;
      this.occupied[i] = 1;
      this.keys[i] = key;
      this.used++;
    }
    this.counts[i] = Math.max(0, (this.counts[i] as number) + delta);
    if (this.used * 2 > this.keys.length) this.rehash();
  }

  private rehash(): void {
    const { keys, counts, occupied } = this;
    let live = 0;
    for (let i = 0; i < counts.length; i++) if ((counts[i] as number) > 0) live++;
    let size = keys.length;
    while (live * 4 > size) size *= 2;
    this.keys = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.occupied = new Uint8Array(size);
    this.used = 0;
    for (let i = 0; i < keys.length; i++) {
      if (occupied[i] === 0 || (counts[i] as number) === 0) continue;
      const j = this.slot(keys[i] as number);
      this.occupied[j] = 1;
      this.keys[j] = keys[i] as number;
      this.counts[j] = counts[i] as number;
      this.used++;
    }
  }
}

export const sortedUnique = (values: number[]) =>
  Int32Array.from([...new Set(values)].sort((a, b) => a - b));

export function has(sorted: Int32Array, value: number): boolean {
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

/** The best `capacity` numbers seen, with the smallest of them at hand. */
export class MinHeap {
  private readonly items: Float64Array;
  private size = 0;
  constructor(private readonly capacity: number) {
    this.items = new Float64Array(capacity);
  }
  get full(): boolean {
    return this.size === this.capacity;
  }
  get min(): number {
    return this.items[0] as number;
  }
  push(value: number): void {
    const a = this.items;
    if (this.size < this.capacity) {
      let i = this.size++;
      a[i] = value;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((a[parent] as number) <= (a[i] as number)) break;
        [a[parent], a[i]] = [a[i] as number, a[parent] as number];
        i = parent;
      }
      return;
    }
    if (value <= (a[0] as number)) return;
    a[0] = value;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && (a[l] as number) < (a[m] as number)) m = l;
      if (r < this.size && (a[r] as number) < (a[m] as number)) m = r;
      if (m === i) return;
      [a[m], a[i]] = [a[i] as number, a[m] as number];
      i = m;
    }
  }
}
