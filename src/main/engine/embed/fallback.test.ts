import { describe, expect, it } from 'vitest';
import { FallbackEmbedder } from './fallback';
import { HashEmbedder } from './hashEmbedder';
import { CachingEmbedder } from './queryCache';

describe('the hashing fallback as the engine runs it', () => {
  it('gives the same vectors from its worker (bulk) as on this thread (queries)', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `memory ${i}: the deploy uses port ${i}`);
    const fallback = new FallbackEmbedder();
    try {
      const bulk = await fallback.embed(texts, 'passage', 'background');
      const here = await new HashEmbedder().embed(texts, 'passage');
      expect(bulk.map((v) => Array.from(v))).toEqual(here.map((v) => Array.from(v)));
      // Released while idle, started again by the next bulk.
      await fallback.release();
      expect((await fallback.embed(texts.slice(0, 20), 'passage', 'background'))[3]).toEqual(
        here[3],
      );
    } finally {
      await fallback.close();
    }
  });

  it('keeps query vectors for queries asked again, and only those', async () => {
    let calls = 0;
    const inner = new HashEmbedder();
    const cached = new CachingEmbedder({
      ...inner,
      id: inner.id,
      dims: inner.dims,
      semantic: false,
      maxTokens: inner.maxTokens,
      embed: (t, k) => {
        calls++;
        return inner.embed(t, k);
      },
      close: () => inner.close(),
    });
    const a = await cached.embed(['where is the deploy script?'], 'query');
    const b = await cached.embed(['where is the deploy script?', 'another'], 'query');
    expect(b[0]).toBe(a[0]);
    expect(calls).toBe(2);
    expect(cached.hits).toBe(1);
    await cached.embed(['a passage'], 'passage');
    await cached.embed(['a passage'], 'passage');
    expect(calls).toBe(4); // passages are never kept
    cached.clear();
    await cached.embed(['where is the deploy script?'], 'query');
    expect(calls).toBe(5);
  });
});
