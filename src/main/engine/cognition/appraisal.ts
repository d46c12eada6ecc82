// Deterministic appraisal of a new memory (DESIGN.md §5, step 3): its title cue, kind,
// salience and affect, from cheap text heuristics. No model is involved, so the same
// text always gets the same values. The rules are documented in docs/heuristics.md.
import Sentiment from 'sentiment';
import type { Evidence, MemoryKind } from '../../../shared/schemas';

const sentiment = new Sentiment();

export const TITLE_MAX_DERIVED = 80;

/** The first non-empty line, without Markdown markers, cut at a word boundary. */
export function deriveTitle(content: string): string {
  // Line by line until the first that holds text (a 64 KiB note is not split whole).
  let line: string | undefined;
  let start = 0;
  while (start <= content.length) {
    const end = content.indexOf('\n', start);
    const raw = content.slice(start, end < 0 ? content.length : end);
    const l = raw
      .replace(/^\s{0,3}(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)/, '')
      // Emphasis markers and backticks, but not the underscores inside identifiers.
      .replace(/[*`]{1,3}/g, '')
      .replace(/(^|\s)_{1,3}(?=\S)|(?<=\S)_{1,3}(?=\s|$)/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
    if (l.length > 0 && !/^(-{3,}|`{3,}.*|={3,})$/.test(l)) {
      line = l;
      break;
    }
    if (end < 0) break;
    start = end + 1;
  }
  line ??= content.slice(0, TITLE_MAX_DERIVED);
  if (line.length <= TITLE_MAX_DERIVED) return line;
  const cut = line.slice(0, TITLE_MAX_DERIVED - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX_DERIVED / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const PROSPECTIVE =
  /\b(todo|to-do|remind me|remember to|don'?t forget|follow[- ]up|next (?:week|month|sprint|time|release)|tomorrow|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|end of)|deadline|due (?:on|by)|(?:we|i) (?:will|should|need to|must|plan to|intend to))\b/i;
const PROCEDURE_HEAD =
  /^(?:how to\b|to [a-z]+[^.\n]{0,80}:\s*$|steps?\b|recipe\b|procedure\b|runbook\b)/im;
const PROCEDURE_COMMAND = /\b(?:run|install|execute|deploy|build|invoke|call)\s+`[^`]+`/i;
const STEP_LINE = /^\s*(?:\d+[.)]|[-*+])\s+\S/gm;
const EPISODE_TIME =
  /\b(yesterday|today|tonight|this (?:morning|afternoon|evening|week)|last (?:night|week|month|year|sprint|time)|\d+ (?:minutes?|hours?|days?|weeks?) ago|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|in (?:january|february|march|april|may|june|july|august|september|october|november|december)|\d{4}-\d{2}-\d{2})\b/i;
const FEELING =
  /\b(?:i|we|user|they|he|she) (?:really )?(?:love|loves|hate|hates|like|likes|dislike|dislikes|enjoy|enjoys|prefer|prefers|fear|fears|am (?:happy|sad|angry|frustrated|worried|excited|annoyed)|feel|feels|felt|can'?t stand)\b/i;

/**
 * The kind when none is given. First match wins:
 * prospective (intentions, reminders, deadlines) → procedural (how-to heads, two or more
 * list steps with a command, or "run `…`") → episodic (a dated or time-marked event) →
 * affective (a stated feeling or preference) → semantic (everything else: facts).
 */
export function inferKind(content: string): MemoryKind {
  if (PROSPECTIVE.test(content)) return 'prospective';
  const steps = content.match(STEP_LINE)?.length ?? 0;
  if (
    PROCEDURE_HEAD.test(content) ||
    PROCEDURE_COMMAND.test(content) ||
    (steps >= 2 && /`[^`]+`/.test(content))
  )
    return 'procedural';
  if (EPISODE_TIME.test(content)) return 'episodic';
  if (FEELING.test(content)) return 'affective';
  return 'semantic';
}

const IMPORTANCE =
  /\b(important|critical|crucial|must|never|always|decided|decision|key|warning|security|breaking|required|do not|don'?t)\b/gi;
const URGENCY =
  /\b(urgent|asap|immediately|outage|incident|emergency|down|broken|blocker|p0|sev[ -]?1)\b/gi;
// Code spans, versions, paths, camelCase and snake_case identifiers. Written so that the
// test stays linear in the text and cheap at 64 KiB (the write path runs it on the
// daemon's thread): an unbounded `\b[\w-]+\/` tried at each word boundary of a long run
// with no slash is quadratic (measured: 4 s for `sk-` repeated to 64 KiB).
const SPECIFIC =
  /(`[^`\n]{1,200}`|\b\d{1,12}(?:\.\d{1,12}){1,6}\b|[\w-]\/[\w.-]|\b[a-z]{1,64}[A-Z]|\b\w{1,64}_\w)/;

export interface Affect {
  /** −1 (negative) … 1 (positive). */
  valence: number;
  /** 0 (calm) … 1 (charged). */
  arousal: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * Valence = tanh(AFINN score / √tokens): the AFINN-165 lexicon (via `sentiment`),
 * damped for long texts. Arousal = mean |AFINN| of the charged words / 5 × their share
 * (capped at 0.4) × 2.5 + 0.1 per "!" (≤ 0.3) + 0.05 per ALL-CAPS word of six letters
 * or more (≤ 0.2) + 0.1 per
 * urgency word (≤ 0.3), clamped to 0…1.
 */
export function appraiseAffect(content: string): Affect {
  const r = sentiment.analyze(content);
  const tokens = Math.max(1, r.tokens.length);
  const valence = Math.tanh(r.score / Math.sqrt(tokens));
  const charged = r.calculation.map((c) => Math.abs(Object.values(c)[0] ?? 0));
  const meanCharge =
    charged.length > 0 ? charged.reduce((a, b) => a + b, 0) / charged.length / 5 : 0;
  const share = Math.min(0.4, (charged.length / tokens) * 4);
  const exclaims = Math.min(0.3, (content.match(/!/g)?.length ?? 0) * 0.1);
  // Shorter all-caps words are usually acronyms (API, HTTP, JSON), not shouting.
  const caps = Math.min(0.2, (content.match(/\b[A-Z]{6,}\b/g)?.length ?? 0) * 0.05);
  const urgent = Math.min(0.3, (content.match(URGENCY)?.length ?? 0) * 0.1);
  const arousal = clamp(meanCharge * share * 2.5 + exclaims + caps + urgent, 0, 1);
  return { valence: round3(clamp(valence, -1, 1)), arousal: round3(arousal) };
}

/**
 * Salience 0…1 = 0.3 base + 0.08 per importance marker (≤ 0.32) + 0.1 if the text is
 * specific (code, paths, versions, identifiers) + 0.2 × arousal + 0.1 if a user said it
 * (USER evidence) − 0.05 for very short texts (< 40 characters).
 */
export function appraiseSalience(
  content: string,
  affect: Affect,
  evidence: readonly Evidence[],
): number {
  const markers = Math.min(0.32, (content.match(IMPORTANCE)?.length ?? 0) * 0.08);
  const specific = SPECIFIC.test(content) ? 0.1 : 0;
  const user = evidence.some((e) => e.class === 'USER') ? 0.1 : 0;
  const short = content.length < 40 ? -0.05 : 0;
  return round3(clamp(0.3 + markers + specific + 0.2 * affect.arousal + user + short, 0, 1));
}
