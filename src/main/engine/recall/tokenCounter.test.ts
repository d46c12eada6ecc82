import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { releaseTokenCounter, tokenCounter } from './tokenCounter';

const TEXTS = [
  '',
  'hello world',
  'The deploy script lives in tools/deploy.sh and needs the VPN.',
  'Incident 2031: the cache filled the disk at 03:14 UTC; see https://example.org/p/42',
  '日本語のテキストも数えます。',
];

describe('the token counter', () => {
  it('counts as the o200k tokenizer does, in a worker, and again after a release', async () => {
    const want = TEXTS.map((t) => (t ? countTokens(t) : 0));
    expect(await tokenCounter().count(TEXTS)).toEqual(want);
    // Repeated and cached texts come back in the caller's order.
    expect(
      await tokenCounter().count([TEXTS[3] as string, TEXTS[1] as string, TEXTS[3] as string]),
    ).toEqual([want[3], want[1], want[3]]);
    await releaseTokenCounter();
    expect(await tokenCounter().count(TEXTS)).toEqual(want);
  });

  it('answers many concurrent callers, each with its own counts', async () => {
    const batches = Array.from({ length: 20 }, (_, i) => [`memory ${i} ${'word '.repeat(i)}`]);
    const got = await Promise.all(batches.map((b) => tokenCounter().count(b)));
    expect(got).toEqual(batches.map((b) => b.map((t) => countTokens(t))));
  });
});
