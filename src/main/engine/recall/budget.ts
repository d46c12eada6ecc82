// Token accounting for recall answers. Counts use the o200k tokenizer (gpt-tokenizer),
// a close stand-in for the tokenizers of the models agents run on; the library is
// loaded on first use because its tables take ~130 ms to read.

import { LRUCache } from 'lru-cache';

/** Tokens in a text (the o200k tokenizer). */
export type TokenCounter = (text: string) => number;
type Counter = TokenCounter;
let counter: Counter | null = null;

/**
 * Counts of texts seen lately: recall counts every result it returns, and the same
 * memories come back again and again (a count is ~50 µs for a compact result).
 */
const counted = new LRUCache<string, number>({ max: 20_000 });

export async function loadTokenCounter(): Promise<Counter> {
  if (!counter) {
    const mod = await import('gpt-tokenizer');
    counter = (text: string) => {
      if (text.length < 8) return text.length === 0 ? 0 : mod.countTokens(text);
      let n = counted.get(text);
      if (n === undefined) {
        n = mod.countTokens(text);
        counted.set(text, n);
      }
      return n;
    };
  }
  return counter;
}

/** Fixed cost of a result's framing (id, kind, score, field names) in tokens. */
export const RESULT_OVERHEAD_TOKENS = 24;
/** Fixed cost of the answer's own framing. */
export const ANSWER_OVERHEAD_TOKENS = 24;
/** A result shrunk to fit keeps at least this many tokens of content. */
export const MIN_CONTENT_TOKENS = 16;

/** Cuts text to about `chars` characters at a sentence or word boundary. */
export function truncateText(text: string, chars: number): { text: string; truncated: boolean } {
  if (text.length <= chars) return { text, truncated: false };
  const head = text.slice(0, chars);
  const sentence = Math.max(
    head.lastIndexOf('. '),
    head.lastIndexOf('.\n'),
    head.lastIndexOf('\n\n'),
  );
  const cut =
    sentence > chars * 0.6
      ? sentence + 1
      : head.lastIndexOf(' ') > chars * 0.6
        ? head.lastIndexOf(' ')
        : chars;
  return { text: `${text.slice(0, cut).trimEnd()} …`, truncated: true };
}

export interface Budgeted<T> {
  kept: T[];
  omitted: number;
  used: number;
}

/**
 * Keeps results in rank order while they fit in `maxTokens`. When the first result
 * alone does not fit, its content is shortened to fit instead of returning nothing.
 * Stops at the first result that does not fit, so rank order is never broken.
 */
export function applyBudget<
  T extends { title: string; content: string; tags: string[]; truncated: boolean },
>(items: T[], maxTokens: number | null, count: Counter): Budgeted<T> {
  const cost = (item: T) =>
    RESULT_OVERHEAD_TOKENS + count(item.title) + count(item.content) + count(item.tags.join(', '));
  let used = ANSWER_OVERHEAD_TOKENS;
  const kept: T[] = [];
  for (const item of items) {
    const c = cost(item);
    if (maxTokens === null || used + c <= maxTokens) {
      kept.push(item);
      used += c;
      continue;
    }
    if (kept.length === 0) {
      const fixed = c - count(item.content);
      const room = maxTokens - used - fixed;
      if (room >= MIN_CONTENT_TOKENS) {
        // Shrink by characters until the count fits (tokens ≈ chars / 4 to start).
        let chars = room * 4;
        let shrunk = truncateText(item.content, chars);
        while (count(shrunk.text) > room && chars > 8) {
          chars = Math.floor(chars * 0.8);
          shrunk = truncateText(item.content, chars);
        }
        const fitted = { ...item, content: shrunk.text, truncated: true };
        kept.push(fitted);
        used += fixed + count(shrunk.text);
      }
    }
    break;
  }
  return { kept, omitted: items.length - kept.length, used };
}
