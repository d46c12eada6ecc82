// The write gate (DESIGN.md §5, step 1): normalise text the same way on every path
// (Unicode NFC, zero-width characters stripped, line endings unified), enforce the size
// bounds and compute the content hash that exact-duplicate detection uses.
import { createHash } from 'node:crypto';
import { LociError } from '../../../shared/errors';
import { LIMITS } from '../../../shared/schemas';
import { hasVisibleText } from '../../../shared/text';

/**
 * Zero-width and invisible formatting characters: ZERO WIDTH SPACE, NON-JOINER, JOINER,
 * WORD JOINER, BYTE ORDER MARK, SOFT HYPHEN, MONGOLIAN VOWEL SEPARATOR, and NUL.
 * (Joiners also glue emoji sequences; those fall apart into their parts, which keeps
 * the text readable and makes hidden-text tricks visible.)
 */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000\u00AD\u180E\u200B-\u200D\u2060\uFEFF]/g;

/** A UTF-16 surrogate without its pair: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function normalizeText(text: string): string {
  return text
    .replace(LONE_SURROGATE, '\uFFFD')
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(/\r\n?/g, '\n')
    .trim();
}

/** Titles and tags are single lines: whitespace runs collapse to one space. */
export function normalizeLine(text: string): string {
  return normalizeText(text).replace(/\s+/g, ' ');
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export function contentHash(normalized: string): string {
  return createHash('sha256').update(normalized, 'utf8').digest('hex');
}

/**
 * Normalises content and enforces its bounds: at least one visible character (a memory
 * of "Yes!" or "Use pnpm" is a memory), at most 64 KiB, naming the limit that was broken.
 */
export function gateContent(raw: string): { content: string; hash: string; bytes: number } {
  const content = normalizeText(raw);
  const bytes = utf8Bytes(content);
  if (!hasVisibleText(content)) {
    throw new LociError(
      'invalid-args',
      bytes === 0
        ? 'content is empty: give at least one visible character'
        : `content is empty: its ${bytes} bytes are only whitespace or invisible characters after normalisation; give at least one visible character`,
      { field: 'content', bytes },
    );
  }
  if (bytes > LIMITS.contentMaxBytes) {
    throw new LociError(
      'invalid-args',
      `content is too long: ${bytes} bytes after normalisation; the maximum is ${LIMITS.contentMaxBytes} bytes (64 KiB). Split it into several memories.`,
      { field: 'content', bytes, max: LIMITS.contentMaxBytes },
    );
  }
  return { content, hash: contentHash(content), bytes };
}

/** Normalised, de-duplicated tags in the order given (empty ones dropped). */
export function normalizeTags(tags: readonly string[] | undefined): string[] {
  if (!tags) return [];
  const out: string[] = [];
  for (const tag of tags) {
    const t = normalizeLine(tag);
    if (t.length > 0 && !out.includes(t)) out.push(t);
  }
  return out;
}
