import { describe, expect, it } from 'vitest';
import type { AtlasNode } from '../../../shared/api';
import { communityNames } from './atlas';

const node = (i: number, community: number, title: string): AtlasNode => ({
  id: `01J${String(i).padStart(23, '0')}`,
  title,
  kind: 'semantic',
  activation: null,
  retrievability: null,
  pinned: false,
  trust: 'trusted',
  tags: ['batch:01M8XC6PCMGYRRVZWK02DSPW2N'],
  community,
  degree: 1,
});

describe('communityNames', () => {
  it('names each community by what its memories are about, never the import they share', () => {
    const nodes = [
      node(1, 0, 'README.md — Postgres migrations run before deploy'),
      node(2, 0, 'README.md — Migrations take a Postgres advisory lock'),
      node(3, 0, 'README.md — Rolling back failed migrations'),
      node(4, 1, 'README.md — Kafka consumers commit offsets per batch'),
      node(5, 1, 'README.md — Kafka consumer lag alerts'),
      node(6, 2, 'README.md — A memory on its own'),
      ...Array.from({ length: 14 }, (_, i) => node(10 + i, 3 + i, `README.md — note ${i}`)),
    ];
    const names = communityNames(nodes);
    expect(names['0']).toMatch(/migrations/);
    expect(names['0']).toMatch(/postgres/);
    expect(names['1']).toMatch(/kafka/);
    expect(names['2']).toBeUndefined(); // one memory: no community to name
    for (const name of Object.values(names)) {
      expect(name).not.toMatch(/readme|batch|01M8/i);
    }
  });
});
