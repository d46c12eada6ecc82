// Figures of the conversational suite: recall@5/10/25 and nDCG@10 over the answerable
// questions, abstention on answerable and unanswerable ones, and how well the answers'
// confidence is calibrated — each with a 95 % bootstrap interval.
import { bootstrap, type Estimate } from '../../../src/main/engine/eval/metrics';
import type { ConversationOutcome, SystemRun } from './suite';

export interface ConversationSummary {
  answerable: number;
  unanswerable: number;
  recall5: Estimate;
  recall10: Estimate;
  recall25: Estimate;
  ndcg10: Estimate;
  /** Share of answerable questions answered with nothing. */
  abstainedAnswerable: Estimate;
  /** Share of unanswerable questions answered with nothing. */
  abstainedUnanswerable: Estimate;
  /** … answered with nothing, or with an answer marked low-confidence. */
  flaggedUnanswerable: Estimate;
  /** Share of answerable questions whose answer was marked low. */
  lowAnswerable: Estimate;
  /** Expected calibration error of the answer's confidence (10 bins), null without one. */
  ece: number | null;
  p50: number;
}

const scored = (o: ConversationOutcome) => o.answerable && o.evidence.length > 0;

export function recallAt(o: ConversationOutcome, k: number): number {
  const top = new Set(o.returned.slice(0, k));
  return o.evidence.filter((e) => top.has(e)).length / o.evidence.length;
}

/** Binary nDCG@k: every evidence turn counts the same. */
export function ndcgAt(o: ConversationOutcome, k: number): number {
  const dcg = o.returned
    .slice(0, k)
    .reduce((s, id, i) => s + (o.evidence.includes(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Math.min(k, o.evidence.length);
  let idcg = 0;
  for (let i = 0; i < ideal; i++) idcg += 1 / Math.log2(i + 2);
  return idcg === 0 ? 0 : dcg / idcg;
}

/**
 * Expected calibration error: the answer's confidence against whether it holds an
 * evidence turn in its first ten (an unanswerable question's answer never does).
 */
export function calibrationError(outcomes: ConversationOutcome[]): number | null {
  const rated = outcomes.filter((o) => o.confidence !== null);
  if (rated.length === 0) return null;
  const bins = Array.from({ length: 10 }, () => ({ n: 0, conf: 0, hit: 0 }));
  for (const o of rated) {
    const c = o.abstained ? 0 : (o.confidence as number);
    const hit = scored(o) && !o.abstained && recallAt(o, 10) > 0 ? 1 : 0;
    const b = bins[Math.min(9, Math.floor(c * 10))] as { n: number; conf: number; hit: number };
    b.n++;
    b.conf += c;
    b.hit += hit;
  }
  return bins.reduce(
    (e, b) => e + (b.n === 0 ? 0 : (b.n / rated.length) * Math.abs(b.conf / b.n - b.hit / b.n)),
    0,
  );
}

export function summarize(run: SystemRun): ConversationSummary {
  const answerable = run.outcomes.filter(scored);
  const unanswerable = run.outcomes.filter((o) => !o.answerable);
  const times = run.outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    recall5: bootstrap(answerable.map((o) => recallAt(o, 5))),
    recall10: bootstrap(answerable.map((o) => recallAt(o, 10))),
    recall25: bootstrap(answerable.map((o) => recallAt(o, 25))),
    ndcg10: bootstrap(answerable.map((o) => ndcgAt(o, 10))),
    abstainedAnswerable: bootstrap(answerable.map((o) => (o.abstained ? 1 : 0))),
    abstainedUnanswerable: bootstrap(unanswerable.map((o) => (o.abstained ? 1 : 0))),
    flaggedUnanswerable: bootstrap(
      unanswerable.map((o) => (o.abstained || o.level === 'low' ? 1 : 0)),
    ),
    lowAnswerable: bootstrap(answerable.map((o) => (!o.abstained && o.level === 'low' ? 1 : 0))),
    ece: calibrationError(run.outcomes),
    p50: times[Math.floor(times.length / 2)] ?? 0,
  };
}

export function byCategory(run: SystemRun): Record<string, Estimate> {
  const out: Record<string, Estimate> = {};
  const cats = [...new Set(run.outcomes.filter(scored).map((o) => o.category))].sort();
  for (const c of cats)
    out[c] = bootstrap(
      run.outcomes.filter((o) => scored(o) && o.category === c).map((o) => recallAt(o, 10)),
    );
  return out;
}
