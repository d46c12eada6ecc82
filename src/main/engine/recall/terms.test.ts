import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FTS_CREATE_SQL, ftsColumns } from '../store/ftsIndex';
import {
  identifierTerms,
  minimumShouldMatch,
  parseQuery,
  queryPhrase,
  queryTiers,
  splitWord,
} from './terms';

describe('splitWord', () => {
  it('splits camelCase, PascalCase, acronyms and letter/digit joins', () => {
    expect(splitWord('getUserById')).toEqual(['get', 'User', 'By', 'Id']);
    expect(splitWord('HTTPServer')).toEqual(['HTTP', 'Server']);
    expect(splitWord('XMLHttpRequest')).toEqual(['XML', 'Http', 'Request']);
    expect(splitWord('utf8')).toEqual(['utf', '8']);
    expect(splitWord('ipv6Address')).toEqual(['ipv', '6', 'Address']);
    expect(splitWord('plain')).toEqual([]);
    expect(splitWord('ALLCAPS')).toEqual([]);
  });
});

describe('identifierTerms', () => {
  it('lists the parts of identifiers and versions without their v', () => {
    const terms = identifierTerms('Call getUserById (v1.2.3) over utf8');
    expect(terms).toContain('get User By Id');
    expect(terms).toContain('1 2 3');
    expect(terms).toContain('utf 8');
  });
});

describe('parseQuery', () => {
  it('turns identifiers into phrases of their parts and drops stopwords', () => {
    const units = parseQuery('what is the max_tokens default for getUserById?');
    expect(units.map((u) => u.expr)).toEqual([
      '"max tokens"',
      '"default"',
      '("getUserById" OR "get User By Id")',
    ]);
  });

  it('keeps quoted phrases and paths', () => {
    expect(parseQuery('"deploy pipeline" src/main/cli.ts').map((u) => u.expr)).toEqual([
      '"deploy pipeline"',
      '"src main cli ts"',
    ]);
  });

  it('keeps stopwords when nothing else is left', () => {
    expect(parseQuery('who is it').map((u) => u.text)).toEqual(['who', 'is', 'it']);
  });

  it('keeps at most six units, the longest', () => {
    const units = parseQuery('alpha beta gamma delta epsilon zeta etaeta thetatheta');
    expect(units).toHaveLength(6);
    expect(units.map((u) => u.text)).toContain('thetatheta');
  });
});

describe('queryTiers', () => {
  it('never ORs single words together: tiers are at-least-k-of-n groups', () => {
    const units = parseQuery('deploy staging pipeline');
    const tiers = queryTiers(units);
    expect(tiers.map((t) => t.required)).toEqual([3, 2]);
    expect(tiers[0]?.match).toBe('("deploy" AND "staging" AND "pipeline")');
    expect(tiers[1]?.match).toBe(
      '("deploy" AND "staging") OR ("deploy" AND "pipeline") OR ("staging" AND "pipeline")',
    );
  });

  it('requires every unit of one- and two-unit queries', () => {
    expect(minimumShouldMatch(1)).toBe(1);
    expect(minimumShouldMatch(2)).toBe(2);
    expect(minimumShouldMatch(3)).toBe(2);
    expect(minimumShouldMatch(4)).toBe(3);
    expect(minimumShouldMatch(6)).toBe(4);
    expect(queryTiers(parseQuery('staging deploy'))).toHaveLength(1);
  });
});

describe('queries against a real FTS5 index', () => {
  let db: Database.Database;
  beforeAll(() => {
    db = new Database(':memory:');
    db.exec(FTS_CREATE_SQL);
  });
  afterAll(() => db.close());

  const index = (rowid: number, text: string) =>
    db
      .prepare('INSERT INTO memory_fts(rowid, title, content, tags, terms) VALUES (?, ?, ?, ?, ?)')
      .run(rowid, ...ftsColumns({ title: '', content: text, tags: [] }));
  const search = (query: string) => {
    const tiers = queryTiers(parseQuery(query));
    const found = new Set<number>();
    for (const tier of tiers) {
      for (const row of db
        .prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?')
        .all(tier.match) as { rowid: number }[]) {
        found.add(row.rowid);
      }
    }
    return found;
  };

  it('never produces FTS5 syntax errors, whatever the user types (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (query) => {
        for (const tier of queryTiers(parseQuery(query))) {
          db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? LIMIT 1').all(
            tier.match,
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  it('finds any identifier by itself and by its parts (property)', () => {
    const part = fc.stringMatching(/^[a-z]{3,8}$/);
    let rowid = 1000;
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 2, maxLength: 4 }),
        fc.constantFrom('camel', 'snake', 'kebab', 'path'),
        (parts, style) => {
          const ident =
            style === 'camel'
              ? parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join('')
              : parts.join(style === 'snake' ? '_' : style === 'kebab' ? '-' : '/');
          const id = ++rowid;
          index(id, `Some prose mentioning ${ident} in passing.`);
          expect(search(ident).has(id)).toBe(true);
          expect(search(parts.join(' ')).has(id)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('stems English words', () => {
    index(1, 'We were deploying the services on Fridays');
    expect(search('deploy service').has(1)).toBe(true);
  });
});

describe('ASCII fast paths', () => {
  const unicodeSplit = (word: string) => {
    const parts = word
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .replace(/(\p{L})(\p{N})/gu, '$1 $2')
      .replace(/(\p{N})(\p{L})/gu, '$1 $2')
      .split(' ')
      .filter((p) => p.length > 0);
    return parts.length > 1 ? parts : [];
  };

  it('split ASCII words exactly as the Unicode rules do', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{1,24}$/), (word) => {
        expect(splitWord(word)).toEqual(unicodeSplit(word));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('queryPhrase', () => {
  it('quotes the whole query, stopwords and all, from three words on', () => {
    expect(queryPhrase('roll back the release')).toBe('"roll back the release"');
    expect(queryPhrase('ops/deploy.sh --previous flag')).toBe('"ops deploy sh previous flag"');
  });

  it('leaves short, quoted and very long queries alone', () => {
    expect(queryPhrase('deploy staging')).toBeNull();
    expect(queryPhrase('"deploy staging" pipeline now')).toBeNull();
    expect(queryPhrase(Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '))).toBeNull();
  });
});
