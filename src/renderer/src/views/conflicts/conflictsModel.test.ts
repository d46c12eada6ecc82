import { describe, expect, it } from 'vitest';
import type { ConflictSpan } from '../../../../shared/api';
import { conflictFixture, NEWER, OLDER, supersededFixture } from './conflictFixtures';
import {
  absentSpans,
  contextProblem,
  currentText,
  decisionText,
  highlightSegments,
  relationLabel,
  resolveArgs,
  resolvedMessage,
} from './conflictsModel';

const marked = (text: string, spans: readonly ConflictSpan[], side: 'older' | 'newer') =>
  highlightSegments(text, spans, side)
    .filter((s) => s.mark)
    .map((s) => s.text);

describe('highlightSegments', () => {
  it('marks each side’s value where it stands, and keeps all the text', () => {
    const spans = [{ kind: 'number' as const, older: '8080', newer: '9090' }];
    const older = 'The billing service listens on port 8080.';
    const segments = highlightSegments(older, spans, 'older');
    expect(segments.map((s) => s.text).join('')).toBe(older);
    expect(segments).toContainEqual({ text: '8080', mark: 'number' });
    expect(marked('It moved to 9090 (was 8080).', spans, 'newer')).toEqual(['9090']);
  });

  it('matches whole words only, and ignores case', () => {
    const spans = [{ kind: 'negation' as const, older: '', newer: 'not' }];
    expect(marked('Another note: it is NOT enabled.', spans, 'newer')).toEqual(['NOT']);
    expect(marked('Another note.', spans, 'newer')).toEqual([]);
  });

  it('finds names given together, and numbers written with separators', () => {
    expect(
      marked(
        'Aiko and Priya took over on-call.',
        [{ kind: 'name', older: 'tomasz', newer: 'aiko, priya' }],
        'newer',
      ),
    ).toEqual(['Aiko', 'Priya']);
    expect(
      marked(
        'The limit is 1,000 requests.',
        [{ kind: 'number', older: '1000', newer: '500' }],
        'older',
      ),
    ).toEqual(['1,000']);
    expect(
      marked('Version 2.10 ships.', [{ kind: 'number', older: '2.10', newer: '2.9' }], 'older'),
    ).toEqual(['2.10']);
  });

  it('leaves text without the value plain, and says which side lacks a negation', () => {
    const spans = [{ kind: 'negation' as const, older: '', newer: 'no longer' }];
    expect(highlightSegments('Sessions are cached in Redis.', spans, 'older')).toEqual([
      { text: 'Sessions are cached in Redis.', mark: null },
    ]);
    expect(absentSpans(spans, 'older')).toEqual(spans);
    expect(absentSpans(spans, 'newer')).toEqual([]);
    expect(highlightSegments('', spans, 'older')).toEqual([{ text: '', mark: null }]);
  });
});

describe('the words of a conflict', () => {
  it('names the relation and which one holds', () => {
    expect(relationLabel('updating')).toBe('update');
    expect(relationLabel('contradicting')).toBe('contradiction');
    expect(currentText(conflictFixture())).toMatch(/^The newer one holds for now/);
    expect(currentText(conflictFixture({ state: 'scoped', current: null }))).toMatch(/Both hold/);
  });

  it('says what a decision was', () => {
    expect(decisionText(supersededFixture())).toMatch(
      /^“Billing port 9090” replaces “Billing port 8080”, which stopped holding /,
    );
    expect(
      decisionText(
        conflictFixture({
          state: 'scoped',
          current: null,
          resolution: {
            kind: 'scope',
            contexts: { older: 'staging', newer: 'production' },
            by: 'ui',
            decided_at: '2026-03-02T10:00:00.000Z',
          },
        }),
      ),
    ).toBe('both true: the older one in “staging”, the newer one in “production”.');
    expect(resolvedMessage('dismiss', 3)).toBe('3 conflicts resolved: not a conflict.');
  });
});

describe('resolveArgs', () => {
  it('sends only what the contract takes with each resolution', () => {
    expect(resolveArgs('default', ['A'], { resolution: 'supersede' })).toEqual({
      store: 'default',
      ids: ['A'],
      resolution: 'supersede',
    });
    const at = '2026-03-01T09:30';
    expect(
      resolveArgs(null, ['A'], { resolution: 'supersede', winner: OLDER, at, reason: ' typo ' }),
    ).toEqual({
      ids: ['A'],
      resolution: 'supersede',
      winner: OLDER,
      at: new Date(at).toISOString(),
      reason: 'typo',
    });
    // A winner or contexts name one conflict: never sent for several.
    expect(resolveArgs(null, ['A', 'B'], { resolution: 'supersede', winner: NEWER })).toEqual({
      ids: ['A', 'B'],
      resolution: 'supersede',
    });
    expect(
      resolveArgs(null, ['A'], {
        resolution: 'scope',
        contexts: { older: ' staging ', newer: 'production' },
      }),
    ).toEqual({
      ids: ['A'],
      resolution: 'scope',
      contexts: { older: 'staging', newer: 'production' },
    });
  });

  it('checks a context label as the contract does', () => {
    expect(contextProblem('staging')).toBeNull();
    expect(contextProblem('  ')).toMatch(/Say in which context/);
    expect(contextProblem('eu, us')).toMatch(/No commas/);
    expect(contextProblem('x'.repeat(61))).toMatch(/At most 60/);
  });
});
