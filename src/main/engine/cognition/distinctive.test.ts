import { describe, expect, it } from 'vitest';
import { distinctiveTerms, nameWords } from './distinctive';

// A store of 200 memories from an ingested README: "loci", "readme" and "md" are in all of
// them; the cluster is the four about database migrations.
const STORE = 200;
const everywhere = new Set(['loci', 'readme', 'memory', 'memories']);
const df = (w: string) =>
  everywhere.has(w) ? STORE : w === 'migrations' ? 6 : w === 'postgres' ? 9 : 20;

const cluster = [
  {
    title: 'README.md — Loci migrations',
    content: 'Loci runs Postgres migrations before the deploy.',
  },
  {
    title: 'README.md — Loci rollback',
    content: 'A failed migrations step rolls back; Postgres keeps the lock.',
  },
  { title: 'README.md — Loci locks', content: 'Migrations take a Postgres advisory lock in Loci.' },
  {
    title: 'README.md — memory of schema changes',
    content: 'Loci memory of every Postgres schema change and its migrations.',
  },
];

describe('distinctiveTerms', () => {
  it('names a cluster by what is frequent in it and rare in the store, never the shared file name', () => {
    const terms = distinctiveTerms(cluster, df, STORE, 3);
    expect(terms.slice(0, 2).sort()).toEqual(['migrations', 'postgres']);
    for (const w of ['loci', 'readme', 'md']) expect(terms).not.toContain(w);
  });

  it('needs a term in two members, and gives nothing for nothing', () => {
    expect(distinctiveTerms([], df, STORE)).toEqual([]);
    const terms = distinctiveTerms(
      [
        { title: 'Kafka retention', content: 'seven days' },
        { title: 'Redis eviction', content: 'allkeys-lru' },
      ],
      df,
      STORE,
    );
    expect(terms).toEqual([]);
  });

  it('reads words without stop words, digits or file extensions', () => {
    expect([...nameWords('The README.md of 2024 is about the Deploy')]).toEqual([
      'readme',
      'deploy',
    ]);
  });
});
