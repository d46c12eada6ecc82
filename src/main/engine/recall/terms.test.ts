import Database from 'better-sqlite3-multiple-ciphers';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FTS_CREATE_SQL, ftsColumns } from '../store/ftsIndex';
import { identifierTerms, parseQuery, queryPhrase, splitWord } from './terms';

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

  it('keeps at most twelve units, the longest', () => {
    const units = parseQuery(
      'alpha beta gamma delta epsilon zeta etaeta thetatheta iota kappa lambda mu nu xi omicronomicron',
    );
    expect(units).toHaveLength(12);
    expect(units.map((u) => u.text)).toContain('omicronomicron');
    expect(units.map((u) => u.text)).not.toContain('mu');
  });

  it('lists the spellings of each unit as words', () => {
    expect(parseQuery('getUserById max_tokens cache').map((u) => u.alternatives)).toEqual([
      [['getUserById'], ['get', 'User', 'By', 'Id']],
      [['max', 'tokens']],
      [['cache']],
    ]);
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
  // Memories holding every unit of the query (what the all-terms query of recall finds).
  const search = (query: string) => {
    const units = parseQuery(query);
    const found = new Set<number>();
    if (units.length === 0) return found;
    for (const row of db
      .prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?')
      .all(units.map((u) => u.expr).join(' AND ')) as { rowid: number }[]) {
      found.add(row.rowid);
    }
    return found;
  };

  it('never produces FTS5 syntax errors, whatever the user types (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), (query) => {
        const units = parseQuery(query);
        const exprs = [
          ...units.map((u) => u.expr),
          units.map((u) => u.expr).join(' AND '),
          units.map((u) => u.expr).join(' OR '),
        ].filter((e) => e.length > 0);
        for (const expr of exprs) {
          db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? LIMIT 1').all(expr);
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
