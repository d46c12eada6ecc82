// Token accounting for recall answers: how much of a budget each result takes, and
// cutting the answer to fit. Counting is tokenCounter.ts (the o200k tokenizer, in a
// worker thread).
import type { TokenCounter } from './tokenCounter';

export type { TokenCounter } from './tokenCounter';

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
export async function applyBudget<
  T extends { title: string; content: string; tags: string[]; truncated: boolean },
>(items: T[], maxTokens: number | null, counter: TokenCounter): Promise<Budgeted<T>> {
  // Every result's parts in one round trip.
  const n = await counter.count(
    items.flatMap((item) => [item.title, item.content, item.tags.join(', ')]),
  );
  const part = (i: number, k: number) => n[i * 3 + k] as number;
  let used = ANSWER_OVERHEAD_TOKENS;
  const kept: T[] = [];
  for (const [i, item] of items.entries()) {
    const c = RESULT_OVERHEAD_TOKENS + part(i, 0) + part(i, 1) + part(i, 2);
    if (maxTokens === null || used + c <= maxTokens) {
      kept.push(item);
      used += c;
      continue;
    }
    if (kept.length === 0) {
      const fixed = c - part(i, 1);
      const room = maxTokens - used - fixed;
      if (room >= MIN_CONTENT_TOKENS) {
        // Shrink by characters until the count fits (tokens ≈ chars / 4 to start).
        const countOne = async (text: string) => (await counter.count([text]))[0] as number;
        let chars = room * 4;
        let shrunk = truncateText(item.content, chars);
        let tokens = await countOne(shrunk.text);
        while (tokens > room && chars > 8) {
          chars = Math.floor(chars * 0.8);
          shrunk = truncateText(item.content, chars);
          tokens = await countOne(shrunk.text);
        }
        const fitted = { ...item, content: shrunk.text, truncated: true };
        kept.push(fitted);
        used += fixed + tokens;
      }
    }
    break;
  }
  return { kept, omitted: items.length - kept.length, used };
}
