import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  GramCounts,
  HEAD_CHARS,
  normalizeName,
  Recognizer,
  RECOGNIZER_BAR,
  RECOGNIZER_MARGIN,
  RECOGNIZER_MIN_QUERY_COVER,
  RECOGNIZER_MIN_TITLE_COVER,
  recognizerTokens,
  trigrams,
} from './recognizer';

function build(entries: [number, string, string][], shortlist?: number): Recognizer {
  const r = new Recognizer(shortlist);
  for (const [rid, title, content] of entries) r.add(rid, title, content);
  return r;
}

const store: [number, string, string][] = [
  [1, 'Billing deploy checklist', 'Run the migrations, then deploy billing from the ops repo.'],
  [2, 'Orders API connection pool', 'max_pool_size is 40 for the orders API.'],
  [3, 'Catalog API connection pool', 'max_pool_size is 25 for the catalog API.'],
  [4, 'On-call rotation', 'The rotation changes every Monday at 09:00.'],
  [5, 'Release notes template', 'Every release note has a summary, changes and upgrade steps.'],
  [6, 'Incident 1042 postmortem', 'The queue consumer stalled after the Kafka upgrade to 3.7.1.'],
];
const all = () => true;

describe('Recognizer', () => {
  it('answers a question that names a memory by its title', () => {
    const r = build(store);
    expect(r.recognize('billing deploy checklist', all).hit?.rid).toBe(1);
    expect(r.recognize('On-call rotation?', all).hit?.rid).toBe(4);
    expect(r.recognize('incident 1042 postmortem', all).hit?.rid).toBe(6);
  });

  it('stays silent when two memories fit almost equally well', () => {
    const r = build(store);
    const { hit, best } = r.recognize('api connection pool', all);
    expect(hit).toBeNull();
    expect(best!.score - best!.runnerUp).toBeLessThan(0.15);
  });

  it('stays silent for questions that only touch a memory', () => {
    const r = build(store);
    expect(r.recognize('how do we deploy', all).hit).toBeNull();
    expect(
      r.recognize('what changed in the kafka upgrade and who approved it', all).hit,
    ).toBeNull();
    expect(r.recognize('release', all).hit).toBeNull();
  });

  it('decides only among memories the caller may see', () => {
    const r = build(store);
    const withoutFirst = r.recognize('billing deploy checklist', (rid) => rid !== 1);
    expect(withoutFirst.hit).toBeNull();
    // With the orders memory hidden, the catalog one is named without a close runner-up.
    expect(r.recognize('orders api connection pool', (rid) => rid !== 3).hit?.rid).toBe(2);
  });

  it('forgets removed memories and follows edits', () => {
    const r = build(store);
    r.remove(1);
    expect(r.recognize('billing deploy checklist', all).hit).toBeNull();
    r.add(4, 'Support rotation', 'The support rotation changes every Monday.');
    expect(r.recognize('support rotation', all).hit?.rid).toBe(4);
    expect(r.recognize('on-call rotation', all).hit).toBeNull();
  });

  it('scores an exact title as 1', () => {
    const r = build(store);
    const { best } = r.recognize('Release Notes Template', all);
    expect(best?.score).toBe(1);
    expect(best!.score).toBeGreaterThanOrEqual(RECOGNIZER_BAR);
  });
});

describe('tokens', () => {
  it('keeps identifiers and versions whole beside their words and drops stopwords', () => {
    expect(recognizerTokens('What is max_pool_size in v3.7.1?')).toEqual([
      'max',
      'pool',
      'size',
      'v3',
      '7',
      '1',
      'max_pool_size',
      'v3.7.1',
    ]);
    expect(normalizeName('  Café  Déploiement! ')).toBe('cafe deploiement');
  });
});

/**
 * The recogniser's formula applied to every memory, the slow obvious way (the header of
 * recognizer.ts): what the pruned implementation must agree with.
 */
function naive(entries: [number, string, string][], query: string) {
  const docs = entries.map(([rid, title, content]) => {
    const head = content.slice(0, HEAD_CHARS);
    const titleTokens = new Set(recognizerTokens(title));
    return {
      rid,
      name: normalizeName(title),
      titleTokens,
      tokens: new Set([...titleTokens, ...recognizerTokens(head)]),
      grams: new Set([...trigrams(title), ...trigrams(head)]),
    };
  });
  const n = docs.length;
  const df = (t: string) => docs.filter((d) => d.tokens.has(t)).length;
  const idf = (t: string) => Math.log(1 + n / Math.max(1, df(t)));
  const words = recognizerTokens(query);
  const known = words.filter((t) => df(t) > 0);
  const qWeight =
    known.reduce((s, t) => s + idf(t), 0) + (words.length - known.length) * Math.log(1 + n);
  if (qWeight === 0) return null;
  const gramDf = (g: number) => docs.filter((d) => d.grams.has(g)).length;
  const qGrams = trigrams(query).filter((g) => gramDf(g) <= Math.max(1, n * 0.1));
  const exactName = normalizeName(query);
  const scored = docs
    .filter((d) => d.name === exactName || known.some((t) => d.tokens.has(t)))
    .map((d) => {
      if (d.name === exactName && exactName.length > 0)
        return { rid: d.rid, score: 1, named: true };
      const matched = known.filter((t) => d.tokens.has(t)).reduce((s, t) => s + idf(t), 0);
      const matchedTitle = known
        .filter((t) => d.titleTokens.has(t))
        .reduce((s, t) => s + idf(t), 0);
      const titleWeight = [...d.titleTokens].reduce((s, t) => s + idf(t), 0);
      const qcov = matched / qWeight;
      const tcov = titleWeight > 0 ? Math.min(1, matchedTitle / titleWeight) : 0;
      const grams =
        qGrams.length > 0 ? qGrams.filter((g) => d.grams.has(g)).length / qGrams.length : qcov;
      return {
        rid: d.rid,
        score: 0.45 * qcov + 0.35 * tcov + 0.2 * grams,
        named: qcov >= RECOGNIZER_MIN_QUERY_COVER && tcov >= RECOGNIZER_MIN_TITLE_COVER,
      };
    })
    .sort((a, b) => b.score - a.score);
  const [first, second] = scored;
  if (!first) return null;
  const runnerUp = second?.score ?? 0;
  const hit =
    first.named && first.score >= RECOGNIZER_BAR && first.score - runnerUp >= RECOGNIZER_MARGIN;
  return { rid: first.rid, score: first.score, runnerUp, hit };
}

describe('the pruned search', () => {
  const word = fc.constantFrom(
    'billing',
    'deploy',
    'orders',
    'pool',
    'kafka',
    'rotation',
    'release',
    'notes',
    'incident',
    'cache',
    'ttl',
    'v2.1',
    'max_pool_size',
    'queue',
    'ledger',
    'auth',
  );
  const phrase = (min: number, max: number) =>
    fc.array(word, { minLength: min, maxLength: max }).map((w) => w.join(' '));

  it.each([50, 2])(
    'agrees with scoring every memory (shortlist %i), on random stores and questions',
    (shortlist) => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(phrase(1, 4), phrase(2, 12)), { minLength: 1, maxLength: 120 }),
          fc.oneof(phrase(1, 4), fc.nat()),
          (items, q) => {
            const entries = items.map(([t, c], i) => [i + 1, t, c] as [number, string, string]);
            const query = typeof q === 'number' ? entries[q % entries.length]![1] : q;
            const r = build(entries, shortlist);
            const got = r.recognize(query, all, { explain: true });
            const want = naive(entries, query);
            if (!want) {
              expect(got.best).toBeNull();
              return;
            }
            expect(got.best?.score).toBeCloseTo(want.score, 9);
            expect(got.best?.runnerUp).toBeCloseTo(want.runnerUp, 9);
            expect(got.hit !== null).toBe(want.hit);
            if (want.hit) expect(got.hit?.rid).toBe(want.rid);
            // Without an explanation asked for, the answer is the same.
            expect(r.recognize(query, all).hit?.rid).toBe(got.hit?.rid);
          },
        ),
        { numRuns: 300 },
      );
    },
  );

  it('agrees after memories are edited and removed', () => {
    const r = build(store);
    r.add(2, 'Orders API pool size', 'The orders API now keeps 60 connections.');
    r.remove(5);
    const entries = store
      .filter(([rid]) => rid !== 5)
      .map(([rid, t, c]) =>
        rid === 2
          ? ([2, 'Orders API pool size', 'The orders API now keeps 60 connections.'] as [
              number,
              string,
              string,
            ])
          : ([rid, t, c] as [number, string, string]),
      );
    for (const q of [
      'orders api pool size',
      'release notes template',
      'api connection pool',
      'catalog pool',
    ]) {
      const want = naive(entries, q);
      const got = r.recognize(q, all, { explain: true });
      expect(got.best?.score ?? null).toBe(want?.score ?? null);
      expect(got.hit?.rid ?? null).toBe(want?.hit ? want.rid : null);
    }
  });
});

describe('GramCounts', () => {
  it('counts like a Map through any sequence of additions and removals', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -40, max: 40 }), fc.boolean()), { maxLength: 3000 }),
        (ops) => {
          const table = new GramCounts();
          const map = new Map<number, number>();
          for (const [raw, up] of ops) {
            // Few distinct keys, many collisions: hashes spread over the int32 range.
            const key = Math.imul(raw, 0x3b9aca07);
            const have = map.get(key) ?? 0;
            if (up) map.set(key, have + 1);
            else if (have > 0) map.set(key, have - 1);
            table.add(key, up ? 1 : -1);
          }
          for (const [key, count] of map) expect(table.get(key)).toBe(count);
          expect(table.get(123456789)).toBe(map.get(123456789) ?? 0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('grows past its first size and keeps every count', () => {
    const table = new GramCounts();
    for (let k = 1; k <= 20_000; k++) table.add(k * 7919, 1);
    for (let k = 1; k <= 20_000; k += 2) table.add(k * 7919, -1);
    for (let k = 1; k <= 20_000; k++) expect(table.get(k * 7919)).toBe(k % 2 === 0 ? 1 : 0);
  });
});

describe('trigrams', () => {
  const naive = (...texts: string[]) => {
    const out = new Set<number>();
    for (const t of texts) {
      const s = `_${normalizeName(t).replace(/ /g, '_')}_`;
      for (let i = 0; i + 3 <= s.length; i++) {
        let h = 0x811c9dc5;
        for (let j = i; j < i + 3; j++) h = Math.imul(h ^ s.charCodeAt(j), 0x01000193);
        out.add(h | 0);
      }
    }
    return [...out].sort((a, b) => a - b);
  };

  it('hashes every trigram of `_name_` once, sorted', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 60 }), { minLength: 1, maxLength: 3 }),
        (texts) => {
          expect(Array.from(trigrams(...texts))).toEqual(naive(...texts));
        },
      ),
      { numRuns: 500 },
    );
    expect(Array.from(trigrams('Café  Déploiement!'))).toEqual(naive('cafe deploiement'));
  });
});
