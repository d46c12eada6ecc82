// Identifier-aware terms for the FTS5 index and the query side of lexical recall.
// FTS5's unicode61 tokenizer already splits on every non-alphanumeric character, so
// snake_case, kebab-case, paths and dotted versions become runs of adjacent tokens;
// what it cannot see are the parts of camelCase words and letter/digit joins. We add
// those as an extra indexed column, and build queries from quoted terms only, so user
// input can never be read as FTS5 syntax.
import { eng as englishStopwords } from 'stopword';

const WORD = /[\p{L}\p{N}]+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/u;
/** A case hump or a letter/digit join: only words with one are worth splitting (linear test). */
const HUMP = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{L}\p{N}|\p{N}\p{L}/u;
/**
 * The same test for ASCII words without the `u` flag: V8 runs Unicode property classes
 * several times slower, so words are tested this way first.
 */
const ASCII_HUMP = /[a-z][A-Z]|[A-Z][A-Z][a-z]|[A-Za-z][0-9]|[0-9][A-Za-z]/;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

function humped(word: string): boolean {
  return ASCII_HUMP.test(word) || (NON_ASCII.test(word) && HUMP.test(word));
}

/** Question words and fillers that the stopword list leaves in but queries are full of. */
const EXTRA_STOPWORDS = ['does', 'when', 'why', 'please', 'tell', 'me', 'you', 'your', 'us'];
const STOPWORDS = new Set([...englishStopwords, ...EXTRA_STOPWORDS]);

/**
 * Splits one alphanumeric word at case humps and letter/digit boundaries:
 * `getUserById` → get User By Id, `HTTPServer` → HTTP Server, `utf8` → utf 8.
 * Returns [] when there is nothing to split.
 */
export function splitWord(word: string): string[] {
  const spaced = NON_ASCII.test(word)
    ? word
        .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
        .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
        .replace(/(\p{L})(\p{N})/gu, '$1 $2')
        .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    : word
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
        .replace(/([A-Za-z])([0-9])/g, '$1 $2')
        .replace(/([0-9])([A-Za-z])/g, '$1 $2');
  const parts = spaced.split(' ').filter((p) => p.length > 0);
  return parts.length > 1 ? parts : [];
}

/**
 * The extra text indexed in the `terms` column: the parts of every camelCase or
 * letter-digit word, and dotted versions without their `v` (`v1.2.3` → `1 2 3`).
 * Each group is separated by a comma, which unicode61 treats as a separator.
 */
export function identifierTerms(text: string): string {
  const groups = new Set<string>();
  for (const word of text.split(NON_ASCII.test(text) ? NON_WORD : /[^A-Za-z0-9]+/)) {
    if (word.length < 2 || !humped(word)) continue;
    const parts = splitWord(word);
    if (parts.length > 0) groups.add(parts.join(' '));
  }
  for (const match of text.matchAll(/\bv(\d+(?:\.\d+)+)\b/gi)) {
    groups.add((match[1] ?? '').split('.').join(' '));
  }
  return [...groups].join(' , ');
}

/** One query unit: all of its alternatives are equivalent spellings. */
export interface QueryUnit {
  /** FTS5 expression for this unit, built only from quoted strings. */
  expr: string;
  /** The text the user wrote for this unit (for explanations). */
  text: string;
  stopword: boolean;
  /**
   * Its spellings as words: one list per alternative, a phrase's words in order
   * (`getUser` → [["getUser"], ["get", "User"]]).
   */
  alternatives: string[][];
}

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

function phrase(words: string[]): string {
  return quote(words.join(' '));
}

/** Words a phrase query may hold: past this a question is not a quotation. */
export const MAX_PHRASE_WORDS = 16;

/**
 * The whole query as one FTS5 phrase (every word, stopwords too, in order), for a
 * first tier that finds the memories quoting it: three words or more, no quotes of
 * its own (those are phrases already), at most MAX_PHRASE_WORDS. Null otherwise.
 */
export function queryPhrase(query: string): string | null {
  if (query.includes('"')) return null;
  const words = query.match(WORD);
  if (!words || words.length < 3 || words.length > MAX_PHRASE_WORDS) return null;
  return phrase(words);
}

/**
 * Units beyond this are dropped (shortest first): each unit costs recall one indexed
 * lookup per candidate for coverage, and a question past a dozen content words is prose.
 */
export const MAX_QUERY_UNITS = 12;

/**
 * Parses a free-text query into units. Quoted parts stay phrases; an identifier
 * becomes the phrase of its parts (`max_tokens` → "max tokens"); a camelCase word
 * matches itself or its parts. Stopwords are dropped unless nothing else is left.
 */
export function parseQuery(query: string): QueryUnit[] {
  const units: QueryUnit[] = [];
  const seen = new Set<string>();
  const push = (unit: QueryUnit) => {
    if (seen.has(unit.expr)) return;
    seen.add(unit.expr);
    units.push(unit);
  };

  const rest = query.replace(/"([^"]*)"/g, (_all, inner: string) => {
    const words = inner.match(WORD);
    if (words && words.length > 0)
      push({ expr: phrase(words), text: `"${inner}"`, stopword: false, alternatives: [words] });
    return ' ';
  });

  for (const raw of rest.split(/\s+/)) {
    const words = raw.match(WORD);
    if (!words || words.length === 0) continue;
    if (words.length > 1) {
      push({ expr: phrase(words), text: raw, stopword: false, alternatives: [words] });
      continue;
    }
    const word = words[0] as string;
    const parts = splitWord(word);
    if (parts.length > 0) {
      push({
        expr: `(${quote(word)} OR ${phrase(parts)})`,
        text: raw,
        stopword: false,
        alternatives: [[word], parts],
      });
    } else {
      push({
        expr: quote(word),
        text: raw,
        stopword: STOPWORDS.has(word.toLowerCase()),
        alternatives: [[word]],
      });
    }
  }

  const content = units.filter((u) => !u.stopword);
  const kept = content.length > 0 ? content : units;
  if (kept.length <= MAX_QUERY_UNITS) return kept;
  // Longer terms tend to be rarer and more telling; keep those, in query order.
  const longest = new Set(
    [...kept].sort((a, b) => b.text.length - a.text.length).slice(0, MAX_QUERY_UNITS),
  );
  return kept.filter((u) => longest.has(u));
}
