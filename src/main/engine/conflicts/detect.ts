// Whether a new memory contradicts an older one, with no model: the same subject (most of
// the words that are not values are shared) holding other values — a number, a version
// or a time that differs; a negation on one side only; a pair of opposites ("allowed" /
// "forbidden", "enabled" / "disabled"); or one name put in the place of another
// ("Priya owns billing" / "Marco owns billing"). When the newer one says the world moved
// ("now", "moved to", "no longer", "since March"…), it is an update that supersedes the
// older one rather than a contradiction. Measured on labelled pairs with
// `npm run eval -- --suite contradictions`.

export type PairRelation = 'contradicting' | 'updating' | 'compatible' | 'unrelated';

export interface ConflictSpan {
  kind: 'number' | 'negation' | 'opposite' | 'name';
  /** The differing text in the older memory and in the newer one ('' when absent). */
  older: string;
  newer: string;
}

export interface PairComparison {
  relation: PairRelation;
  /** 0–1: how sure the detector is of a conflict (0 for compatible and unrelated). */
  confidence: number;
  /** Share of the subject words (the words that are not values) the two have in common. */
  subject: number;
  spans: ConflictSpan[];
}

const STOP = new Set(
  `a an the and or of to in on for with by at as from is are was were be been being it its this that these those
   we our you your they their he she his her i my me us them there here then than so if but about into over under
   per each every all any some more most less very just also only up out after before again
   has have had do does did will would shall should can could may might must need needs`.split(
    /\s+/,
  ),
);
/** Words that say the newer memory reports a change. */
const CHANGE =
  /\b(?:now|no longer|not any more|anymore|moved|migrated|switched|changed|upgraded|downgraded|renamed|replaced|rewritten|raised|lowered|increased|decreased|reduced|tightened|relaxed|scaled|took over|since|as of|from now on|going forward|instead|became|become|was|were|has been|have been)\b/i;
/** Change words that are not part of the subject. */
const CHANGE_WORDS = new Set(
  'now longer moved migrated switched changed upgraded downgraded renamed replaced rewritten raised lowered increased decreased reduced tightened relaxed scaled took over since instead became become last week month year ago after caching'.split(
    ' ',
  ),
);
const NEGATION =
  /\b(?:not|never|no longer|cannot|can't|don't|doesn't|isn't|aren't|won't|mustn't|shouldn't|need not|needn't)\b/i;
const OPPOSITES: [string, string][] = [
  ['allowed', 'forbidden'],
  ['allowed', 'disallowed'],
  ['permitted', 'forbidden'],
  ['enabled', 'disabled'],
  ['on', 'off'],
  ['mandatory', 'optional'],
  ['required', 'optional'],
  ['public', 'private'],
  ['true', 'false'],
  ['always', 'never'],
  ['dark', 'light'],
  ['open', 'closed'],
  ['sync', 'async'],
  ['synchronous', 'asynchronous'],
  ['yes', 'no'],
  ['daily', 'weekly'],
  ['weekly', 'monthly'],
  ['daily', 'monthly'],
];
/** Words too common to tell a subject: units and the plainest verbs. */
const WEAK = new Set(
  'runs run uses use takes take goes go lives live sits sit gets get makes make minutes minute hours hour days day weeks week months month seconds second mb gb kb ms times'.split(
    ' ',
  ),
);
const NUMBER_WORDS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  twelve: '12',
};
const DAYS =
  /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|january|february|march|april|may|june|july|august|september|october|november|december)$/;

const words = (text: string) =>
  text.match(/[\p{L}\p{N}][\p{L}\p{N}._:/-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
const isNumber = (w: string) => /^\d/.test(w) || w.toLowerCase() in NUMBER_WORDS;
/** Subject words: lower-cased, not values, not stop words, not change words. */
function subjectWords(text: string): Set<string> {
  return new Set(
    words(text)
      .map((w) => w.toLowerCase())
      .filter((w) => !isNumber(w) && !STOP.has(w) && !CHANGE_WORDS.has(w) && !WEAK.has(w)),
  );
}
/** Words that name something: capitalised, a day or month, or an identifier (v2, eu-west-1). */
function namingWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    const lower = w.toLowerCase();
    if (STOP.has(lower) || CHANGE_WORDS.has(lower) || isNumber(w)) continue;
    if (/^\p{Lu}/u.test(w) || DAYS.test(lower) || /[\d_.-]/.test(w.slice(1))) out.add(lower);
  }
  return out;
}
/** The numbers of a text, each with its unit (the word after it, '' for none). */
function numbers(text: string): { value: string; unit: string }[] {
  const ws = words(text);
  const out: { value: string; unit: string }[] = [];
  ws.forEach((w, i) => {
    const lower = w.toLowerCase();
    const m = /^(\d+(?:[.:,]\d+)*)(?:st|nd|rd|th)?$/.exec(lower);
    const value = m ? (m[1] as string).replace(/,/g, '') : NUMBER_WORDS[lower];
    if (value === undefined) return;
    const next = ws[i + 1]?.toLowerCase() ?? '';
    out.push({ value, unit: STOP.has(next) ? '' : next.replace(/s$/, '') });
  });
  return out;
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / Math.min(a.size, b.size);
}

/** Below this share of subject words in common the two speak of different things. */
export const SAME_SUBJECT = 0.5;

export function comparePair(older: string, newer: string): PairComparison {
  const sa = subjectWords(older);
  const sb = subjectWords(newer);
  const subject = overlap(sa, sb);
  if (subject < SAME_SUBJECT) return { relation: 'unrelated', confidence: 0, subject, spans: [] };
  const spans: ConflictSpan[] = [];

  const na = numbers(older);
  const nb = numbers(newer);
  // Numbers compare when they measure the same thing: the same unit (or none on both).
  const onlyA = na.filter((n) => !nb.some((m) => m.value === n.value));
  const onlyB = nb.filter((n) => !na.some((m) => m.value === n.value));
  const pairs = onlyA.flatMap((a) => onlyB.filter((b) => b.unit === a.unit).map((b) => [a, b]));
  if (pairs.length) {
    spans.push({
      kind: 'number',
      older: [...new Set(pairs.map(([a]) => a!.value))].join(', '),
      newer: [...new Set(pairs.map(([, b]) => b!.value))].join(', '),
    });
  }

  const lowerA = older.toLowerCase();
  const lowerB = newer.toLowerCase();
  const negA = NEGATION.test(lowerA);
  const negB = NEGATION.test(lowerB);
  if (negA !== negB) {
    spans.push({
      kind: 'negation',
      older: negA ? (NEGATION.exec(lowerA)?.[0] ?? '') : '',
      newer: negB ? (NEGATION.exec(lowerB)?.[0] ?? '') : '',
    });
  }

  const wa = new Set(words(lowerA));
  const wb = new Set(words(lowerB));
  for (const [x, y] of OPPOSITES) {
    if ((wa.has(x) && wb.has(y) && !wa.has(y)) || (wa.has(y) && wb.has(x) && !wa.has(x))) {
      spans.push({ kind: 'opposite', older: wa.has(x) ? x : y, newer: wb.has(y) ? y : x });
      break;
    }
  }

  // One name in the place of another, the rest (but a verb) the same.
  if (!spans.some((s) => s.kind === 'opposite')) {
    const ma = namingWords(older);
    const mb = namingWords(newer);
    const goneNames = [...ma].filter((w) => !mb.has(w) && !sb.has(w));
    const newNames = [...mb].filter((w) => !ma.has(w) && !sa.has(w));
    const goneOther = [...sa].filter((w) => !sb.has(w) && !ma.has(w));
    const newOther = [...sb].filter((w) => !sa.has(w) && !mb.has(w));
    if (goneNames.length && newNames.length && goneOther.length <= 1 && newOther.length <= 1) {
      spans.push({ kind: 'name', older: goneNames.join(', '), newer: newNames.join(', ') });
    }
  }

  // The newer one names the old value it replaces: "from Redis to PostgreSQL",
  // "instead of Segment", "replaced Sentry with Rollbar", "took over from Aiko".
  if (spans.length === 0) {
    const ma = namingWords(older);
    const m =
      /\b(?:from|instead of|replaced|over from|since)\s+([\p{L}\p{N}][\p{L}\p{N}._-]*)/iu.exec(
        newer,
      );
    const old = m?.[1]?.toLowerCase();
    const mb = [...namingWords(newer)].filter((w) => w !== old && !ma.has(w) && !sa.has(w));
    if (old && (ma.has(old) || sa.has(old)) && mb.length) {
      spans.push({ kind: 'name', older: old, newer: mb.join(', ') });
    }
  }

  if (spans.length === 0) return { relation: 'compatible', confidence: 0, subject, spans };
  const weight = { number: 0.8, opposite: 0.85, negation: 0.75, name: 0.7 } as const;
  const strongest = Math.max(...spans.map((s) => weight[s.kind]));
  const confidence = Math.round(Math.min(1, strongest * (0.6 + 0.4 * subject)) * 100) / 100;
  const changed = CHANGE.test(newer) && !CHANGE.test(older);
  return { relation: changed ? 'updating' : 'contradicting', confidence, subject, spans };
}
