// `verify`: a claim judged against what the store holds, with no model. The claim's
// nearest memories (recall, with history) are each read as supporting it — the same
// subject, every value of the claim in the memory, nothing the detector calls a conflict
// — or contradicting it (the same subject, other values: detect.ts). What holds now
// decides: a memory that is superseded, out of its validity, or the older side of an open
// conflict is past, listed but not deciding. When nothing that holds speaks to the
// claim's subject the answer is `unknown` — never a guess. Measured on labelled claims
// with `npm run eval -- --suite verify`.
import type { VerifyEvidence, VerifyResult, VerifyVerdict } from '../../../shared/api';
import { RecallArgsSchema } from '../../../shared/schemas';
import { iso, isoOrNull, parseTime } from '../memory/model';
import { recall, type RecallContext } from '../recall/recall';
import { stmt } from '../store/statements';
import {
  comparePair,
  namingWords,
  numbers,
  OPPOSITES,
  SAME_SUBJECT,
  sayOneWay,
  stem,
  subjectWords,
  words,
} from './detect';
import { FACT_MAX_CHARS } from './find';

/** A memory as verify reads it, with whether it holds at the time asked about. */
export interface JudgedMemory {
  id: string;
  title: string;
  content: string;
  current: boolean;
  valid_from: string | null;
  valid_to: string | null;
  superseded_by?: string;
  /** Its cosine similarity to the claim, when recall compared them by meaning. */
  similarity?: number | null;
}

export interface ClaimJudgement {
  verdict: VerifyVerdict;
  /** 0–1, before calibration: the strength of the deciding evidence (of its absence, for unknown). */
  score: number;
  evidence: VerifyEvidence[];
  basis: string;
}

/** A memory supports a claim when it holds at least this share of the claim's subject words. */
export const SUPPORT_COVERAGE = 0.6;
/** … and contradicts it when it holds at least this share (with a conflicting value). */
export const CONTRADICT_COVERAGE = 0.5;

interface Stance {
  stance: 'supports' | 'contradicts';
  score: number;
  spans: VerifyEvidence['spans'];
}

const sentences = (text: string) =>
  text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 8);

/**
 * Words that are a value of the claim when it says them: the opposites' vocabulary, less
 * the short ones that are as often a preposition or a colour ("on", "open", "light").
 */
const VALUE_WORDS = new Set(
  OPPOSITES.flat().filter(
    (w) => !['on', 'off', 'open', 'yes', 'no', 'dark', 'light', 'true', 'false'].includes(w),
  ),
);
/** With a model: a memory this close in meaning may say the claim in other words. */
export const SIMILAR_SUPPORT = 0.8;

/** How one memory text stands to the claim, or null when it does not speak to it. */
export function stanceOf(
  claimText: string,
  text: string,
  /** Cosine similarity of the memory to the claim (the model's), when known. */
  similarity: number | null = null,
): Stance | null {
  const claim = sayOneWay(claimText);
  const claimSubject = subjectWords(claim);
  if (claimSubject.size === 0) return null;
  const texts = text.length <= FACT_MAX_CHARS ? [text] : sentences(text);
  let best: Stance | null = null;
  for (const raw of texts) {
    const t = sayOneWay(raw);
    const mine = subjectWords(t);
    const missing = [...claimSubject].filter((w) => !mine.has(w));
    const coverage = 1 - missing.length / claimSubject.size;
    if (coverage < CONTRADICT_COVERAGE) continue;
    // Either way round: the memory may be the one that says things changed ("took over
    // from Jonas").
    const forward = comparePair(t, claim);
    const backward = comparePair(claim, t);
    const conflict = [forward, backward].find(
      (c) =>
        (c.relation === 'contradicting' || c.relation === 'updating') && c.subject >= SAME_SUBJECT,
    );
    let s: Stance | null = null;
    if (conflict) {
      // What the claim says besides the differing values must be in the memory (a verb
      // may differ): otherwise it is about something else.
      const spanWords = new Set(
        conflict.spans.flatMap((x) => [...subjectWords(`${x.older} ${x.newer}`)]),
      );
      if (missing.filter((w) => !spanWords.has(w)).length <= 1) {
        s = {
          stance: 'contradicts',
          score: conflict.confidence * (0.5 + 0.5 * coverage),
          spans:
            conflict === forward
              ? conflict.spans
              : conflict.spans.map((x) => ({ ...x, older: x.newer, newer: x.older })),
        };
      }
    } else if (forward.relation === 'compatible' && backward.relation === 'compatible') {
      // Said in the same words (all but a few of the claim's), or — with a model — in
      // other words that mean the same.
      const byWords =
        coverage >= SUPPORT_COVERAGE &&
        missing.length <= Math.max(1, Math.floor(0.4 * claimSubject.size));
      const byMeaning =
        similarity !== null && similarity >= SIMILAR_SUPPORT && coverage >= CONTRADICT_COVERAGE;
      // Every value the claim states must be in the memory: a number (with its unit when
      // both give one), every name, every word of a pair of opposites.
      const have = numbers(t);
      const valuesHeld = numbers(claim).every((n) =>
        have.some((m) => m.value === n.value && (m.unit === n.unit || !m.unit || !n.unit)),
      );
      const tWords = new Set(words(t).map((w) => w.toLowerCase()));
      const tStems = new Set([...tWords].map((w) => stem(w)));
      const namesHeld = [...namingWords(claim)].every((w) => tWords.has(w) || tStems.has(stem(w)));
      const opposites = words(claim)
        .map((w) => w.toLowerCase())
        .filter((w) => VALUE_WORDS.has(w))
        .every((w) => tWords.has(w));
      if ((byWords || byMeaning) && valuesHeld && namesHeld && opposites) {
        // A word of the claim the memory lacks makes the support weaker than a
        // contradiction that holds the claim's whole subject.
        const score = byWords ? coverage : (similarity as number) * coverage;
        s = { stance: 'supports', score: missing.length === 0 ? score : 0.75 * score, spans: [] };
      }
    }
    if (s && (!best || s.score > best.score)) best = s;
  }
  return best;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function judgeClaim(claim: string, memories: readonly JudgedMemory[]): ClaimJudgement {
  const evidence: (VerifyEvidence & { score: number })[] = [];
  for (const m of memories) {
    const s = stanceOf(claim, m.content, m.similarity ?? null);
    if (!s) continue;
    evidence.push({
      id: m.id,
      title: m.title,
      content: m.content,
      stance: s.stance,
      current: m.current,
      spans: s.spans,
      valid_from: m.valid_from,
      valid_to: m.valid_to,
      ...(m.superseded_by ? { superseded_by: m.superseded_by } : {}),
      score: round(s.score),
    });
  }
  evidence.sort((a, b) => Number(b.current) - Number(a.current) || b.score - a.score);
  const best = (stance: Stance['stance'], current: boolean) =>
    evidence.find((e) => e.stance === stance && e.current === current)?.score ?? 0;
  const support = best('supports', true);
  const contra = best('contradicts', true);
  const out = (verdict: VerifyVerdict, score: number, basis: string): ClaimJudgement => ({
    verdict,
    score: round(Math.max(0, Math.min(1, score))),
    evidence: evidence.map(({ score: _s, ...e }) => e),
    basis,
  });
  const count = (n: number, what: string, many = `${what}s`) => `${n} ${n === 1 ? what : many}`;
  const holding = (n: number, verb: [string, string]) =>
    `${n} ${n === 1 ? 'memory that holds now' : 'memories that hold now'} ${n === 1 ? verb[0] : verb[1]}`;
  const currentOf = (stance: Stance['stance']) =>
    evidence.filter((e) => e.current && e.stance === stance).length;
  if (support > 0 && support >= contra) {
    const against = currentOf('contradicts');
    return out(
      'supported',
      support - 0.5 * contra,
      `${holding(currentOf('supports'), ['says', 'say'])} so${against ? `; ${count(against, 'other')} disagree${against === 1 ? 's' : ''}` : ''}`,
    );
  }
  if (contra > 0) {
    const past = evidence.filter((e) => !e.current && e.stance === 'supports').length;
    return out(
      'contradicted',
      contra - 0.5 * support,
      `${holding(currentOf('contradicts'), ['says', 'say'])} otherwise${past ? ` (it was true: ${count(past, 'older memory', 'older memories')} ${past === 1 ? 'says' : 'say'} so)` : ''}`,
    );
  }
  const past = evidence.filter((e) => !e.current);
  if (past.length) {
    const until = past[0]?.valid_to;
    return out(
      'unknown',
      1 - (past[0] as { score: number }).score * 0.5,
      `only memories that no longer hold speak to it (${past[0]?.stance === 'supports' ? 'it was true' : 'it was not'}${until ? ` until ${until.slice(0, 10)}` : ''}); nothing that holds now says`,
    );
  }
  return out('unknown', 1, 'nothing in the store speaks to it');
}

/**
 * Probability that a verdict is right, from the raw score: a logistic fitted per verdict
 * on the labelled claims (`npm run eval -- --suite verify` prints the fit and its
 * calibration error).
 */
export const CALIBRATION: Record<VerifyVerdict, { a: number; b: number }> = {
  supported: { a: 32.57, b: -9.48 },
  contradicted: { a: 3.83, b: 6.26 },
  unknown: { a: 16.61, b: -14.56 },
};

/**
 * Never surer than this: forty labelled claims a class cannot tell 0.99 from 0.97 (the
 * lower end of a 95 % interval for 40 of 40 is 0.91).
 */
export const CONFIDENCE_MAX = 0.97;

export function calibrated(verdict: VerifyVerdict, score: number): number {
  const { a, b } = CALIBRATION[verdict];
  return round(Math.min(CONFIDENCE_MAX, 1 / (1 + Math.exp(-(a * score + b)))));
}

/** Candidates looked at: recall's answer and its near misses, history included. */
const CANDIDATES = 12;

/** A claim against the store: recall finds what speaks to it, judgeClaim decides. */
export async function verifyClaim(
  ctx: RecallContext,
  args: { claim: string; as_of?: string | undefined },
): Promise<VerifyResult> {
  const at = args.as_of !== undefined ? parseTime(args.as_of) : ctx.now;
  const found = await recall(
    ctx,
    RecallArgsSchema.parse({
      query: args.claim,
      limit: CANDIDATES,
      history: true,
      rehearse: false,
      format: 'verbose',
    }),
  );
  const hits = [...found.results, ...(found.near_misses ?? [])];
  const ids = [...new Set(hits.map((h) => h.id))];
  const similarity = new Map(hits.map((h) => [h.id, h.breakdown?.vector ?? null]));
  const db = ctx.store.db;
  const rows = ids.length
    ? (stmt(
        db,
        `SELECT m.rid, m.id, m.title, m.content, m.valid_from, m.valid_to,
            (SELECT sm.id FROM link sl JOIN memory sm ON sm.rid = sl.src
              WHERE sl.dst = m.rid AND sl.type = 'supersedes' AND sm.deleted_at IS NULL
              ORDER BY sl.created_at DESC LIMIT 1) AS superseded_by,
            EXISTS (SELECT 1 FROM conflict c WHERE c.older = m.rid AND c.state = 'open'
                     AND c.relation = 'updating') AS outvoted
           FROM memory m WHERE m.id IN (SELECT value FROM json_each(?)) AND m.deleted_at IS NULL`,
      ).all(JSON.stringify(ids)) as {
        rid: number;
        id: string;
        title: string;
        content: string;
        valid_from: number | null;
        valid_to: number | null;
        superseded_by: string | null;
        outvoted: number;
      }[])
    : [];
  const order = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const judged: JudgedMemory[] = rows.map((r) => {
    const valid =
      (r.valid_from === null || r.valid_from <= at) && (r.valid_to === null || r.valid_to > at);
    // Asked about now: a superseded memory is past, and so is the older side of an open
    // update (the newer one says things changed; a plain contradiction does not say which
    // holds, so both count).
    const replaced = args.as_of === undefined && (r.superseded_by !== null || r.outvoted === 1);
    return {
      id: r.id,
      title: r.title,
      content: r.content,
      current: valid && !replaced,
      valid_from: isoOrNull(r.valid_from),
      valid_to: isoOrNull(r.valid_to),
      ...(r.superseded_by ? { superseded_by: r.superseded_by } : {}),
      similarity: similarity.get(r.id) ?? null,
    };
  });
  const j = judgeClaim(args.claim, judged);
  return {
    claim: args.claim,
    verdict: j.verdict,
    confidence: calibrated(j.verdict, j.score),
    basis: j.basis,
    evidence: j.evidence,
    as_of: iso(at),
  };
}
