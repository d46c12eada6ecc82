// Whether a new memory contradicts an older one, with no model: the same subject (most of
// the words that are not values are shared) holding other values — a number, a version
// or a time that differs; a negation on one side only; a pair of opposites ("allowed" /
// "forbidden", "enabled" / "disabled"); or one name put in the place of another
// ("Priya owns billing" / "Marco owns billing"). When the newer one says the world moved
// ("now", "moved to", "no longer", "since March"…), it is an update that supersedes the
// older one rather than a contradiction. Measured on labelled pairs with
// `npm run eval -- --suite contradictions`.

import { stemmer } from 'stemmer';

/** Stems seen lately: a store's words repeat, and stemming is most of a comparison's cost. */
const stems = new Map<string, string>();
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= 50_000) stems.clear();
    s = stemmer(word);
    stems.set(word, s);
  }
  return s;
}

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
export const OPPOSITES: [string, string][] = [
  ['allowed', 'forbidden'],
  ['allowed', 'disallowed'],
  ['permitted', 'forbidden'],
  ['enabled', 'disabled'],
  ['on', 'off'],
  ['enabled', 'off'],
  ['disabled', 'on'],
  ['allowed', 'prohibited'],
  ['allowed', 'banned'],
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

export const words = (text: string) =>
  text.match(/[\p{L}\p{N}][\p{L}\p{N}._:/-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
const isNumber = (w: string) => /^\d/.test(w) || w.toLowerCase() in NUMBER_WORDS;
/** Subject words as written: lower-cased, not values, not stop words, not change words. */
export function rawSubjectWords(text: string): Set<string> {
  return new Set(
    words(text)
      .map((w) => w.toLowerCase())
      .filter((w) => !isNumber(w) && !STOP.has(w) && !CHANGE_WORDS.has(w) && !WEAK.has(w)),
  );
}
/** Subject words, stemmed ("uploads" and "upload", "limited" and "limit" are one). */
export function subjectWords(text: string): Set<string> {
  return new Set([...rawSubjectWords(text)].map((w) => stem(w)));
}
/** Phrases said two ways, said one way before comparing. */
const SAME_AS: [RegExp, string][] = [
  [/\b(?:turned|switched|toggled) off\b/gi, 'disabled'],
  [/\b(?:turned|switched|toggled) on\b/gi, 'enabled'],
  [/\bevery (?:single )?day\b|\bonce a day\b|\bnightly\b/gi, 'daily'],
  [/\bevery week\b|\bonce a week\b/gi, 'weekly'],
  [/\bevery month\b|\bonce a month\b/gi, 'monthly'],
];
export function sayOneWay(text: string): string {
  return SAME_AS.reduce((t, [re, to]) => t.replace(re, to), text);
}
/** Words that name something: capitalised, a day or month, or an identifier (v2, eu-west-1). */
const MONTHS =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december)$/;
const TIME_BEFORE = new Set('since in from until till by of before after during'.split(' '));

export function namingWords(text: string): Set<string> {
  const out = new Set<string>();
  const ws = words(text);
  for (const [i, w] of ws.entries()) {
    const lower = w.toLowerCase();
    if (STOP.has(lower) || CHANGE_WORDS.has(lower) || isNumber(w)) continue;
    // A plain word or a unit ("MB") is no name; "Go" written as a name is one.
    if (WEAK.has(lower) && !/^\p{Lu}\p{Ll}/u.test(w)) continue;
    // A unit after a number ("25 MB", "03:00 UTC") measures; it names nothing.
    if (isNumber(ws[i - 1] ?? '') || lower === 'utc') continue;
    // "since March", "in May 2025": when, not what.
    if (
      MONTHS.test(lower) &&
      (TIME_BEFORE.has(ws[i - 1]?.toLowerCase() ?? '') || /^\d{4}$/.test(ws[i + 1] ?? ''))
    )
      continue;
    // An identifier: a digit, "_" or "." inside (v2, eu-west-1, node_modules); a hyphen
    // alone makes a compound word ("event-producing"), not a name.
    const compound = /-/.test(w) && /(?:ing|ed|ly|based|like|free|only|wide)$/.test(lower);
    if (/^\p{Lu}/u.test(w) || DAYS.test(lower) || (/[\d_.-]/.test(w.slice(1)) && !compound))
      out.add(lower);
  }
  return out;
}
/** Nouns whose number names an item rather than measures it: "step 3", "sprint 14". */
const LABEL_NOUNS = new Set(
  'number no item step part chapter phase sprint issue ticket pr task case example option note entry section page line row round level stage episode season figure table appendix room floor'.split(
    ' ',
  ),
);

/** Nouns whose capitalised name names an item: "node A", "team Blue". */
const NAME_LABELS = new Set('node team squad project plan region zone cluster'.split(' '));

/** "step 3", "node a": the labels of a text (a label noun or a shared noun, and what names the item). */
function labels(text: string): Map<string, string> {
  const ws = words(text);
  const out = new Map<string, string>();
  ws.forEach((w, i) => {
    const prev = ws[i - 1]?.toLowerCase();
    // "node 20" is a version of Node; "node A" is an item.
    const named = /^\p{Lu}[\p{L}\d]*$/u.test(w) && !isNumber(w);
    if (
      prev &&
      ((LABEL_NOUNS.has(prev) && (isNumber(w) || named)) || (NAME_LABELS.has(prev) && named))
    ) {
      out.set(prev, w.toLowerCase());
    }
  });
  return out;
}

/** The numbers of a text, each with its unit (the word after it, '' for none). */
export function numbers(text: string): { value: string; unit: string }[] {
  const ws = words(text);
  const out: { value: string; unit: string }[] = [];
  ws.forEach((w, i) => {
    const lower = w.toLowerCase();
    // A number that names an item ("step 3") is not a value.
    if (LABEL_NOUNS.has(ws[i - 1]?.toLowerCase() ?? '')) return;
    const m = /^(\d+(?:[.:,]\d+)*)(?:st|nd|rd|th)?$/.exec(lower);
    const value = m ? (m[1] as string).replace(/,/g, '') : NUMBER_WORDS[lower];
    if (value === undefined) return;
    const next = ws[i + 1]?.toLowerCase() ?? '';
    out.push({ value, unit: STOP.has(next) ? '' : next.replace(/s$/, '') });
  });
  return out;
}

/** Share of the smaller set's subject words the other holds too. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  return inter / Math.min(a.size, b.size);
}

/** Words swapped for others, on each side, that make two records rather than one fact. */
const SWAPPED_MAX = 4;

/** Below this share of subject words in common the two speak of different things. */
export const SAME_SUBJECT = 0.5;

/** A list label that opens a text ("Item 3:", "Step 2 -", "#14"): it names the item. */
const LABEL = /^\s*(?:([\p{L}]+)\s+(\d+)\s*[:.)-]|#(\d+)\b)/u;

export function comparePair(olderText: string, newerText: string): PairComparison {
  const older = sayOneWay(olderText);
  const newer = sayOneWay(newerText);
  const sa = subjectWords(older);
  const sb = subjectWords(newer);
  const subject = overlap(sa, sb);
  if (subject < SAME_SUBJECT) return { relation: 'unrelated', confidence: 0, subject, spans: [] };
  // Two items of a numbered list, two steps, two nodes are two things, whatever else
  // they share.
  const la = LABEL.exec(older);
  const lb = LABEL.exec(newer);
  const labelsA = labels(older);
  const labelsB = labels(newer);
  if (
    (la && lb && (la[2] ?? la[3]) !== (lb[2] ?? lb[3])) ||
    [...labelsA].some(([noun, item]) => labelsB.has(noun) && labelsB.get(noun) !== item)
  ) {
    return { relation: 'unrelated', confidence: 0, subject, spans: [] };
  }
  // Many words swapped for others besides the values — another service, another path,
  // another reason — make two records of one kind ("the search service moves to
  // Kubernetes because…" / "the billing service moves to nginx because…"), not one fact
  // told twice, however much of the wording they share.
  {
    const ra = rawSubjectWords(older);
    const rb = rawSubjectWords(newer);
    const swappedA = [...ra].filter((w) => !rb.has(w) && !sb.has(stem(w))).length;
    const swappedB = [...rb].filter((w) => !ra.has(w) && !sa.has(stem(w))).length;
    if (Math.min(swappedA, swappedB) >= SWAPPED_MAX) {
      return { relation: 'unrelated', confidence: 0, subject, spans: [] };
    }
  }
  const spans: ConflictSpan[] = [];

  const na = numbers(older);
  const nb = numbers(newer);
  // Numbers compare when they measure the same thing: the same unit (or none on both).
  const onlyA = na.filter((n) => !nb.some((m) => m.value === n.value));
  const onlyB = nb.filter((n) => !na.some((m) => m.value === n.value));
  const pairs = onlyA.flatMap((a) => onlyB.filter((b) => b.unit === a.unit).map((b) => [a, b]));
  // Every number different, two or more on each side: two records of one kind ("run 3
  // took 21 s" / "run 4 took 28 s"), not one fact told twice.
  if (
    onlyA.length >= 2 &&
    onlyB.length >= 2 &&
    onlyA.length === na.length &&
    onlyB.length === nb.length
  ) {
    return { relation: 'unrelated', confidence: 0, subject, spans: [] };
  }
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
    const ra = rawSubjectWords(older);
    const rb = rawSubjectWords(newer);
    // A "name" the other says as a common word ("Notes" / "a note") is not replaced.
    const goneNames = [...ma].filter((w) => !mb.has(w) && !rb.has(w) && !sb.has(stem(w)));
    const newNames = [...mb].filter((w) => !ma.has(w) && !ra.has(w) && !sa.has(stem(w)));
    // Words that differ besides the names (a month is when, not what).
    const other = (own: Set<string>, theirs: Set<string>, names: Set<string>, stems: Set<string>) =>
      [...own].filter(
        (w) => !theirs.has(w) && !names.has(w) && !stems.has(stem(w)) && !MONTHS.test(w),
      );
    const goneOther = other(ra, rb, ma, sb);
    const newOther = other(rb, ra, mb, sa);
    // One name in the place of one other — a day for a day, or a name for a name
    // ("Tuesday" is not replaced by "Item"); a name of several words is one ("Cloudflare
    // Pages"): more than one gone or come is another sentence.
    const isDay = (w: string) => DAYS.test(w);
    const phrases = (text: string, names: string[]) => {
      const set = new Set(names);
      let n = 0;
      let inPhrase = false;
      for (const w of words(text).map((x) => x.toLowerCase())) {
        if (set.has(w) && !inPhrase) n++;
        inPhrase = set.has(w);
      }
      return n;
    };
    const days = [goneNames.filter(isDay), newNames.filter(isDay)] as const;
    const names = [goneNames.filter((w) => !isDay(w)), newNames.filter((w) => !isDay(w))] as const;
    const pair =
      phrases(older, names[0]) === 1 && phrases(newer, names[1]) === 1
        ? names
        : days[0].length === 1 && days[1].length === 1
          ? days
          : null;
    // A capital that opens the text may only mark the sentence's start ("Notes from…"):
    // a name found there must replace the other with nothing else changed.
    const first = (text: string) => words(text)[0]?.toLowerCase();
    const atStart = goneNames.includes(first(older) ?? '') || newNames.includes(first(newer) ?? '');
    const rest = atStart ? 0 : 1;
    // Besides the names, one side may say one word more, but no word may be swapped for
    // another ("is written in Go" / "is deployed with Helm" speak of two things).
    if (pair && goneOther.length + newOther.length <= rest) {
      spans.push({ kind: 'name', older: pair[0].join(', '), newer: pair[1].join(', ') });
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
    const ra = rawSubjectWords(older);
    const mb = [...namingWords(newer)].filter((w) => w !== old && !ma.has(w) && !ra.has(w));
    if (old && (ma.has(old) || ra.has(old)) && mb.length) {
      spans.push({ kind: 'name', older: old, newer: mb.join(', ') });
    }
  }

  // Two flips say the same: "not allowed" is "forbidden", "isn't enabled" is "disabled".
  if (
    spans.length === 2 &&
    spans.some((x) => x.kind === 'negation') &&
    spans.some((x) => x.kind === 'opposite')
  ) {
    return { relation: 'compatible', confidence: 0, subject, spans: [] };
  }

  // Another thing measured in the same frame ("the billing service listens on 8080" / "the
  // search service listens on 9200"): when the first subject word — what the sentence is
  // about — is not the same and the other does not have it, the numbers are another
  // subject's.
  if (spans.length > 0 && spans.every((x) => x.kind === 'number' || x.kind === 'negation')) {
    const head = (text: string, own: Set<string>) =>
      words(text)
        .map((w) => stem(w.toLowerCase()))
        .find((w) => own.has(w));
    const ha = head(older, sa);
    const hb = head(newer, sb);
    if (ha && hb && ha !== hb && !sb.has(ha) && !sa.has(hb)) {
      return { relation: 'unrelated', confidence: 0, subject, spans: [] };
    }
  }

  if (spans.length === 0) return { relation: 'compatible', confidence: 0, subject, spans };
  const weight = { number: 0.8, opposite: 0.85, negation: 0.75, name: 0.7 } as const;
  const strongest = Math.max(...spans.map((s) => weight[s.kind]));
  const confidence = Math.round(Math.min(1, strongest * (0.6 + 0.4 * subject)) * 100) / 100;
  const changed = CHANGE.test(newer) && !CHANGE.test(older);
  return { relation: changed ? 'updating' : 'contradicting', confidence, subject, spans };
}
