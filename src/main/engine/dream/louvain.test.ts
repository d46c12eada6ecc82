// Clustering in a worker thread gives exactly the communities the Atlas computes in
// this thread, for a graph large enough to use the worker.
import { describe, expect, it } from 'vitest';
import type { AtlasLink } from '../../../shared/api';
import { mulberry32 } from '../../../shared/random';
import { communities } from '../memory/communities';
import { communitiesOffThread } from './louvain';

describe('communitiesOffThread', () => {
  it('matches the in-thread Louvain on 800 memories in 8 groups', async () => {
    const rand = mulberry32(3);
    const ids = Array.from({ length: 800 }, (_, i) => `m${String(i).padStart(4, '0')}`);
    const links: AtlasLink[] = [];
    for (let i = 0; i < 2400; i++) {
      const a = Math.floor(rand() * 800);
      const sameGroup = rand() < 0.9;
      const b = sameGroup ? a - (a % 100) + Math.floor(rand() * 100) : Math.floor(rand() * 800);
      links.push({ from: ids[a]!, to: ids[b]!, type: 'related', weight: 0.5 });
    }
    const here = communities(ids, links);
    const there = await communitiesOffThread(ids, links);
    expect(there.offThread).toBe(true);
    expect(there.count).toBe(here.count);
    expect([...there.community.entries()]).toEqual([...here.community.entries()]);
    expect(here.count).toBeGreaterThanOrEqual(8);
  });
});
