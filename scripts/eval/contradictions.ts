// The contradictions suite of `npm run eval`: the labelled pairs of
// test/fixtures/contradictions.ts (contradicting, updating, compatible, unrelated; written
// before the detector) through engine/conflicts/detect.ts. Reported: finding a conflict
// (contradicting or updating) — precision and recall with 95 % Wilson intervals — telling
// an update from a contradiction among the conflicts found, and the four-way confusion.
import { comparePair, type PairRelation } from '../../src/main/engine/conflicts/detect';
import { wilsonInterval as wilson } from '../../src/main/engine/memory/procedures';
import { CONTRADICTION_PAIRS } from '../../test/fixtures/contradictions';

const RELATIONS: PairRelation[] = ['contradicting', 'updating', 'compatible', 'unrelated'];

export interface ContradictionsReport {
  pairs: number;
  conflict: {
    precision: number;
    precision_ci: [number, number];
    recall: number;
    recall_ci: [number, number];
  };
  /** Among true conflicts found, how often update vs contradiction was told right. */
  direction: { correct: number; of: number };
  accuracy: number;
  confusion: Record<PairRelation, Record<PairRelation, number>>;
  misses: string[];
}

const isConflict = (r: PairRelation) => r === 'contradicting' || r === 'updating';

export function runContradictions(): ContradictionsReport {
  const confusion = Object.fromEntries(
    RELATIONS.map((r) => [r, Object.fromEntries(RELATIONS.map((s) => [s, 0]))]),
  ) as ContradictionsReport['confusion'];
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let dirOk = 0;
  let dirOf = 0;
  let right = 0;
  const misses: string[] = [];
  for (const p of CONTRADICTION_PAIRS) {
    const got = comparePair(p.older, p.newer).relation;
    confusion[p.label][got]++;
    if (got === p.label) right++;
    else misses.push(`${p.label} → ${got}: "${p.older}" / "${p.newer}"`);
    if (isConflict(got) && isConflict(p.label)) {
      tp++;
      dirOf++;
      if (got === p.label) dirOk++;
    } else if (isConflict(got)) fp++;
    else if (isConflict(p.label)) fn++;
  }
  return {
    pairs: CONTRADICTION_PAIRS.length,
    conflict: {
      precision: tp / Math.max(1, tp + fp),
      precision_ci: wilson(tp, tp + fp),
      recall: tp / Math.max(1, tp + fn),
      recall_ci: wilson(tp, tp + fn),
    },
    direction: { correct: dirOk, of: dirOf },
    accuracy: right / CONTRADICTION_PAIRS.length,
    confusion,
    misses,
  };
}

export function printContradictions(r: ContradictionsReport): void {
  const f = (x: number) => x.toFixed(3);
  const ci = ([a, b]: [number, number]) => `${f(a)}–${f(b)}`;
  console.log(`${r.pairs} labelled pairs.\n`);
  console.log('| finding a conflict | value | 95 % interval |');
  console.log('|---|---:|---:|');
  console.log(`| precision | ${f(r.conflict.precision)} | ${ci(r.conflict.precision_ci)} |`);
  console.log(`| recall | ${f(r.conflict.recall)} | ${ci(r.conflict.recall_ci)} |`);
  console.log(
    `\nUpdate vs contradiction told right: ${r.direction.correct} of ${r.direction.of}. Four-way accuracy: ${f(r.accuracy)}.\n`,
  );
  console.log(`| labelled \\ found | ${RELATIONS.join(' | ')} |`);
  console.log(`|---|${RELATIONS.map(() => '---:').join('|')}|`);
  for (const l of RELATIONS) {
    console.log(`| ${l} | ${RELATIONS.map((g) => r.confusion[l][g]).join(' | ')} |`);
  }
  if (r.misses.length) console.log(`\nMisses:\n${r.misses.map((m) => `- ${m}`).join('\n')}`);
}
