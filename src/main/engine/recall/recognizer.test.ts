import { describe, expect, it } from 'vitest';
import { normalizeName, Recognizer, recognizerTokens, RECOGNIZER_BAR } from './recognizer';

function build(entries: [number, string, string][]): Recognizer {
  const r = new Recognizer();
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
