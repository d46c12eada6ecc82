// `npm run eval -- --fit-confidence`: fits the logistic models of
// src/main/engine/recall/confidence.ts on the runs just made (Loci systems only) and
// prints the coefficients to paste there. The answer model predicts "the answer holds an
// evidence turn in its first ten" from the best coverage, the share of the query no memory
// holds and the best similarity's margin over the bar; the result model predicts "this
// result is an evidence turn". LoCoMo's adversarial questions are left out of the answer
// model: they presuppose something about a subject the conversation does discuss (who ran
// the race), so the memories about it are the right thing to return, and telling the
// presupposition false is the reader's work, not retrieval's. The eval still reports them.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { SystemRun } from './suite';
import { recallAt } from './report';

type Row = { x: number[]; y: number };

/** Logistic regression by Newton's method with a little L2 (no intercept penalty). */
export function logistic(rows: Row[], l2 = 1e-3, iterations = 50): number[] {
  const d = rows[0]?.x.length ?? 0;
  const w = new Array<number>(d).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const { x, y } of rows) {
      const z = x.reduce((s, v, i) => s + v * (w[i] as number), 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let i = 0; i < d; i++) {
        grad[i] = (grad[i] as number) + (p - y) * (x[i] as number);
        for (let j = 0; j < d; j++)
          (hess[i] as number[])[j] =
            ((hess[i] as number[])[j] as number) +
            p * (1 - p) * (x[i] as number) * (x[j] as number);
      }
    }
    for (let i = 1; i < d; i++) {
      grad[i] = (grad[i] as number) + l2 * rows.length * (w[i] as number);
      (hess[i] as number[])[i] = ((hess[i] as number[])[i] as number) + l2 * rows.length;
    }
    const step = solve(hess, grad);
    let change = 0;
    for (let i = 0; i < d; i++) {
      w[i] = (w[i] as number) - (step[i] as number);
      change = Math.max(change, Math.abs(step[i] as number));
    }
    if (change < 1e-8) break;
  }
  return w;
}

/** Gaussian elimination with partial pivoting: a x = b. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++)
      if (Math.abs((m[r] as number[])[c] as number) > Math.abs((m[p] as number[])[c] as number))
        p = r;
    [m[c], m[p]] = [m[p] as number[], m[c] as number[]];
    const pivot = ((m[c] as number[])[c] as number) || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = ((m[r] as number[])[c] as number) / pivot;
      for (let k = c; k <= n; k++)
        (m[r] as number[])[k] =
          ((m[r] as number[])[k] as number) - f * ((m[c] as number[])[k] as number);
    }
  }
  return m.map((row, i) => (row[n] as number) / ((row[i] as number) || 1e-12));
}

export function fitConfidence(runs: SystemRun[]): string {
  const answers: Row[] = [];
  const results: Row[] = [];
  for (const run of runs) {
    if (run.name === 'bm25 reference') continue;
    for (const o of run.outcomes) {
      const f = o.features;
      if (!f) continue;
      const m = f.margin;
      const y = o.answerable && o.evidence.length > 0 && recallAt(o, 10) > 0 ? 1 : 0;
      if (o.answerable && o.evidence.length === 0) continue;
      if (o.category === 'adversarial') continue;
      answers.push({ x: [1, f.coverage, f.absent, m ?? 0, m === null ? 0 : 1], y });
      for (const h of f.hits) {
        results.push({
          x: [
            1,
            h.coverage,
            h.margin ?? 0,
            h.relevance,
            Math.log2(h.rank + 1),
            h.neighbourOnly ? 1 : 0,
          ],
          y: h.relevant ? 1 : 0,
        });
      }
    }
  }
  const a = logistic(answers);
  const r = logistic(results);
  const n = (v: number | undefined) => Number((v ?? 0).toFixed(2));
  const score = (w: number[], x: number[]) => x.reduce((s, v, i) => s + v * (w[i] as number), 0);
  // How well the answer model tells unanswerable questions from answerable ones.
  const split: { s: number; y: number }[] = [];
  for (const run of runs) {
    if (run.name === 'bm25 reference') continue;
    for (const o of run.outcomes) {
      const f = o.features;
      if (!f || (o.answerable && o.evidence.length === 0) || o.category === 'adversarial') continue;
      const m = f.margin;
      split.push({
        s: score(a, [1, f.coverage, f.absent, m ?? 0, m === null ? 0 : 1]),
        y: o.answerable ? 1 : 0,
      });
    }
  }
  return [
    `answer model on ${answers.length} answers (AUC ${auc(
      answers.map((x) => score(a, x.x)),
      answers.map((x) => x.y),
    ).toFixed(3)} for holding an evidence turn, ${auc(
      split.map((x) => x.s),
      split.map((x) => x.y),
    ).toFixed(3)} for answerable vs not), result model on ${results.length} results (AUC ${auc(
      results.slice(0, 20000).map((x) => score(r, x.x)),
      results.slice(0, 20000).map((x) => x.y),
    ).toFixed(3)}):`,
    '',
    'export const CONFIDENCE_MODEL = {',
    `  answer: { bias: ${n(a[0])}, coverage: ${n(a[1])}, absent: ${n(a[2])}, similarity: ${n(a[3])}, semanticBias: ${n(a[4])} },`,
    '  result: {',
    `    bias: ${n(r[0])},`,
    `    coverage: ${n(r[1])},`,
    `    similarity: ${n(r[2])},`,
    `    relevance: ${n(r[3])},`,
    `    rank: ${n(r[4])},`,
    `    neighbourOnly: ${n(r[5])},`,
    '  },',
    '} as const;',
  ].join('\n');
}

/** Area under the ROC curve of a score for a binary label (ties count a half). */
export function auc(scores: number[], labels: number[]): number {
  const pos = scores.filter((_, i) => labels[i] === 1);
  const neg = scores.filter((_, i) => labels[i] === 0);
  if (pos.length === 0 || neg.length === 0) return Number.NaN;
  let wins = 0;
  for (const p of pos) for (const q of neg) wins += p > q ? 1 : p === q ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

// Run on its own: `node --import tsx scripts/eval/conversations/fit.ts bench-results/confidence-runs.json`
// (written by `npm run eval -- --fit-confidence`) fits again without running recall.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = JSON.parse(
    readFileSync(process.argv[2] ?? 'bench-results/confidence-runs.json', 'utf8'),
  ) as SystemRun[];
  console.log(fitConfidence(runs));
}
