import { describe, expect, it } from 'vitest';
import { appraiseAffect, appraiseSalience, deriveTitle, inferKind } from './appraisal';

describe('deriveTitle', () => {
  it('takes the first non-empty line without Markdown markers', () => {
    expect(deriveTitle('\n\n## Deploy **checklist**\n1. build')).toBe('Deploy checklist');
    expect(deriveTitle('- first item\n- second')).toBe('first item');
    expect(deriveTitle('---\ntitle: x\n---\nBody')).toBe('title: x');
    expect(deriveTitle('Set _max_pool_size_ to **40** in `orders`')).toBe(
      'Set max_pool_size to 40 in orders',
    );
  });

  it('cuts long lines at a word boundary with an ellipsis', () => {
    const title = deriveTitle(`${'word '.repeat(40)}end`);
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title.endsWith('…')).toBe(true);
    expect(title).not.toMatch(/wor…$/);
  });
});

describe('inferKind', () => {
  it.each([
    ['TODO: rotate the staging certificates before Friday', 'prospective'],
    ['Remind me to update the changelog next release', 'prospective'],
    ['How to release: tag, push, then run `npm publish` from CI', 'procedural'],
    ['Steps:\n1. run `make build`\n2. run `make deploy`', 'procedural'],
    ['Yesterday the deploy failed because the migration locked the orders table', 'episodic'],
    ['On 2026-02-14 we moved the cluster to eu-west-1', 'episodic'],
    ['The user prefers tabs over spaces and hates trailing commas', 'affective'],
    ['The billing service uses PostgreSQL 16 with logical replication', 'semantic'],
  ])('%s → %s', (text, kind) => {
    expect(inferKind(text)).toBe(kind);
  });
});

describe('appraiseAffect', () => {
  it('is deterministic and within range', () => {
    const text = 'The outage was terrible, but the fix is great!';
    expect(appraiseAffect(text)).toEqual(appraiseAffect(text));
    const { valence, arousal } = appraiseAffect(text);
    expect(valence).toBeGreaterThanOrEqual(-1);
    expect(valence).toBeLessThanOrEqual(1);
    expect(arousal).toBeGreaterThanOrEqual(0);
    expect(arousal).toBeLessThanOrEqual(1);
  });

  it('reads positive and negative text and charged text', () => {
    expect(
      appraiseAffect('I love this library, it is wonderful and helpful').valence,
    ).toBeGreaterThan(0.3);
    expect(appraiseAffect('This is awful, broken and the worst failure').valence).toBeLessThan(
      -0.3,
    );
    const calm = appraiseAffect('The config file lives in the home directory.');
    const charged = appraiseAffect(
      'URGENT!!! Production outage, everything is broken, fix immediately!',
    );
    expect(calm).toEqual({ valence: 0, arousal: 0 });
    expect(charged.arousal).toBeGreaterThan(0.6);
  });
});

describe('appraiseSalience', () => {
  const calm = { valence: 0, arousal: 0 };
  it('starts at 0.3 and rises with importance markers, specifics and user evidence', () => {
    expect(
      appraiseSalience('The office plants are watered on Mondays by the team.', calm, []),
    ).toBe(0.3);
    expect(
      appraiseSalience(
        'Never force-push to main: it is critical that history stays linear.',
        calm,
        [],
      ),
    ).toBeCloseTo(0.46, 5);
    expect(
      appraiseSalience('Set max_tokens to 4096 in config/app.yaml for the summariser.', calm, []),
    ).toBeCloseTo(0.4, 5);
    expect(
      appraiseSalience('The office plants are watered on Mondays by the team.', calm, [
        { quote: 'water them', class: 'USER' },
      ]),
    ).toBeCloseTo(0.4, 5);
  });

  it('stays within 0…1', () => {
    const text =
      'important critical must never always decided key warning security breaking required';
    expect(
      appraiseSalience(text, { valence: 0, arousal: 1 }, [{ quote: 'x', class: 'USER' }]),
    ).toBeLessThanOrEqual(1);
  });
});
