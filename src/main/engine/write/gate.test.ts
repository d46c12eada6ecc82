import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LociError } from '../../../shared/errors';
import {
  contentHash,
  gateContent,
  normalizeLine,
  normalizeTags,
  normalizeText,
  utf8Bytes,
} from './gate';
import { hasVisibleText } from '../../../shared/text';

// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000\u00AD\u180E\u200B-\u200D\u2060\uFEFF]/;

describe('normalizeText', () => {
  it('composes to NFC, strips zero-width characters and unifies line endings', () => {
    expect(normalizeText('Cafe\u0301')).toBe('Café');
    expect(normalizeText('pass\u200Bword\u200C \uFEFFhere\u2060')).toBe('password here');
    expect(normalizeText('a\r\nb\rc')).toBe('a\nb\nc');
    expect(normalizeText('  padded \n')).toBe('padded');
  });

  it('replaces lone surrogates, which UTF-8 cannot store, and keeps real pairs', () => {
    expect(normalizeText('a\uD83D b\uDE00 c')).toBe('a\uFFFD b\uFFFD c');
    expect(normalizeText('smile \uD83D\uDE00')).toBe('smile \u{1F600}');
    // Stored text survives a round trip through UTF-8 unchanged.
    const t = normalizeText('x\uDBFFy\uDC00');
    expect(Buffer.from(t, 'utf8').toString('utf8')).toBe(t);
  });

  it('makes the same text with and without hidden characters hash alike', () => {
    expect(contentHash(normalizeText('deploy\u200B on fridays'))).toBe(
      contentHash(normalizeText('deploy on fridays')),
    );
  });

  it('is idempotent and leaves no invisible characters (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        const once = normalizeText(s);
        expect(normalizeText(once)).toBe(once);
        expect(INVISIBLE.test(once)).toBe(false);
        expect(once).toBe(once.normalize('NFC'));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps titles on one line', () => {
    expect(normalizeLine('  Two\n lines\tand  spaces ')).toBe('Two lines and spaces');
  });
});

describe('gateContent', () => {
  it('accepts one visible character and exactly 64 KiB', () => {
    expect(gateContent('x').bytes).toBe(1);
    expect(gateContent('  ?  ').content).toBe('?');
    expect(gateContent('Use pnpm').content).toBe('Use pnpm');
    expect(gateContent('Mel: Yes!').bytes).toBe(9);
    expect(gateContent('日').bytes).toBe(3);
    expect(gateContent('x'.repeat(65536)).bytes).toBe(65536);
  });

  it('rejects empty or invisible content and 64 KiB + 1, naming the problem', () => {
    expect(() => gateContent('')).toThrowError(/content is empty: give at least one visible/);
    expect(() => gateContent(' \n\t ')).toThrowError(/content is empty/);
    // Zero-width characters are stripped; a Hangul filler and a variation selector stay
    // but are invisible, so the text is still empty to a reader.
    expect(() => gateContent('\u200B\u200B')).toThrowError(/content is empty/);
    expect(() => gateContent('\u3164\uFE0F')).toThrowError(
      /its 6 bytes are only whitespace or invisible characters/,
    );
    expect(() => gateContent('x'.repeat(65537))).toThrowError(/maximum is 65536 bytes \(64 KiB\)/);
    try {
      gateContent('   ');
    } catch (err) {
      expect(err).toBeInstanceOf(LociError);
      expect((err as LociError).code).toBe('invalid-args');
      expect((err as LociError).data).toMatchObject({ field: 'content', bytes: 0 });
    }
  });

  it('measures bytes after normalisation, not characters', () => {
    // Five characters of three bytes each: 15 bytes.
    expect(gateContent('日本語です').bytes).toBe(15);
    // Zero-width padding does not count.
    expect(gateContent('123456789\u200B\u200B\u200B').bytes).toBe(9);
    expect(() => gateContent('x'.repeat(65536) + '\u200B')).not.toThrow();
  });

  it('accepts content if and only if its normalised size is within bounds (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat({ max: 3 }), (s, reps) => {
        const text = s.repeat(reps + 1);
        const normalized = normalizeText(text);
        const bytes = utf8Bytes(normalized);
        const ok = hasVisibleText(normalized) && bytes <= 65536;
        if (ok) expect(gateContent(text).hash).toBe(contentHash(normalizeText(text)));
        else expect(() => gateContent(text)).toThrow(LociError);
      }),
      { numRuns: 400 },
    );
  });
});

describe('normalizeTags', () => {
  it('normalises, drops empty tags and removes duplicates keeping order', () => {
    expect(normalizeTags([' ops ', 'billing', 'ops', '', 'new\u200B  tag'])).toEqual([
      'ops',
      'billing',
      'new tag',
    ]);
    expect(normalizeTags(undefined)).toEqual([]);
  });
});
