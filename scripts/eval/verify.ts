// The verify suite of `npm run eval`: the labelled claims of test/fixtures/claims.ts
// (supported, contradicted, unknown; forty of each, written before the verifier was
// tuned) against the fictional team's store of the same file, loaded through the
// ordinary write path (its history pairs superseded the way a person would: the detector's
// conflict resolved, or the link made by hand where it found none). Reported: accuracy per
// class with 95 % Wilson intervals, the confusion, how often a claim the store says
// nothing about was answered supported or contradicted (the bar: at most 10 %), and the
// calibration of the confidence (expected calibration error over ten bins, and a
// logistic fit per verdict of correctness on the raw score — what CALIBRATION in
// engine/conflicts/verify.ts is set from).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VerifyVerdict } from '../../src/shared/api';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import { CALIBRATION } from '../../src/main/engine/conflicts/verify';
import { wilsonInterval as wilson } from '../../src/main/engine/memory/procedures';
import { CLAIM_MEMORIES, CLAIMS, type ClaimLabel } from '../../test/fixtures/claims';

const LABELS: ClaimLabel[] = ['supported', 'contradicted', 'unknown'];

export interface VerifyReport {
  claims: number;
  semantic: boolean;
  accuracy: number;
  per_class: Record<
    ClaimLabel,
    { correct: number; of: number; accuracy: number; ci: [number, number] }
  >;
  confusion: Record<ClaimLabel, Record<VerifyVerdict, number>>;
  /** Unknown claims answered supported or contradicted. */
  unknown_answered: { n: number; of: number; rate: number; ci: [number, number] };
  ece: number;
  /** Correctness ~ logistic(a · score + b), per verdict. */
  fit: Record<VerifyVerdict, { a: number; b: number; n: number }>;
  misses: string[];
  p50_ms: number;
}

/** Logistic regression of y on x by Newton's method (two parameters, a small ridge). */
function fitLogistic(xs: number[], ys: number[]): { a: number; b: number } {
  let a = 0;
  let b = 0;
  for (let iter = 0; iter < 50; iter++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-3;
    let hab = 0;
    let hbb = 1e-3;
    xs.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-(a * x + b)));
      const w = p * (1 - p);
      ga += (p - (ys[i] as number)) * x;
      gb += p - (ys[i] as number);
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    });
    ga += 1e-3 * a;
    gb += 1e-3 * b;
    const det = haa * hbb - hab * hab;
    if (Math.abs(det) < 1e-12) break;
    a -= (hbb * ga - hab * gb) / det;
    b -= (haa * gb - hab * ga) / det;
  }
  return { a: Math.round(a * 100) / 100, b: Math.round(b * 100) / 100 };
}

export async function runVerify(modelPath: string): Promise<VerifyReport> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-eval-verify-'));
  const engine = await Engine.open({
    dataDir: join(dir, 'home'),
    owner: 'bench',
    embedWrites: 'await',
    env: modelPath ? { LOCI_MODEL_PATH: modelPath } : {},
  });
  const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
  try {
    const ids = new Map<string, string>();
    for (const m of CLAIM_MEMORIES) {
      const r = await client.call('memory.remember', {
        content: m.content,
        ...(m.valid_from ? { valid_from: new Date(m.valid_from).toISOString() } : {}),
      });
      ids.set(m.key, r.id);
    }
    // The history: what replaced what, decided as a person would.
    const open = await client.call('conflict.list', { limit: 500 });
    for (const m of CLAIM_MEMORIES.filter((x) => x.superseded_by)) {
      const old = ids.get(m.key) as string;
      const neu = ids.get(m.superseded_by as string) as string;
      const c = open.conflicts.find(
        (k) =>
          (k.older.id === old && k.newer.id === neu) || (k.older.id === neu && k.newer.id === old),
      );
      if (c) {
        await client.call('conflict.resolve', {
          ids: [c.id],
          resolution: 'supersede',
          winner: neu,
        });
      } else {
        const next = CLAIM_MEMORIES.find((x) => x.key === m.superseded_by);
        await client.call('link.create', { from: neu, to: old, type: 'supersedes', weight: 1 });
        if (next?.valid_from) {
          await client.call('memory.update', {
            id: old,
            valid_to: new Date(next.valid_from).toISOString(),
          });
        }
      }
    }
    const semantic = (await client.call('embedding.backfill', {})).semantic === 'on';

    const confusion = Object.fromEntries(
      LABELS.map((l) => [l, { supported: 0, contradicted: 0, unknown: 0 }]),
    ) as VerifyReport['confusion'];
    const scored: { verdict: VerifyVerdict; confidence: number; correct: boolean }[] = [];
    const misses: string[] = [];
    const times: number[] = [];
    for (const c of CLAIMS) {
      const t0 = performance.now();
      const r = await client.call('memory.verify', { claim: c.claim });
      times.push(performance.now() - t0);
      confusion[c.label][r.verdict]++;
      const correct = r.verdict === c.label;
      scored.push({ verdict: r.verdict, confidence: r.confidence, correct });
      if (!correct) misses.push(`${c.label} → ${r.verdict}: "${c.claim}" (${r.basis})`);
    }
    const per_class = Object.fromEntries(
      LABELS.map((l) => {
        const of = CLAIMS.filter((c) => c.label === l).length;
        const correct = confusion[l][l];
        return [l, { correct, of, accuracy: correct / of, ci: wilson(correct, of) }];
      }),
    ) as VerifyReport['per_class'];
    const unknownOf = per_class.unknown.of;
    const answered = confusion.unknown.supported + confusion.unknown.contradicted;
    // Expected calibration error over ten confidence bins.
    let ece = 0;
    for (let bin = 0; bin < 10; bin++) {
      const inBin = scored.filter(
        (s) =>
          s.confidence >= bin / 10 &&
          (s.confidence < (bin + 1) / 10 || (bin === 9 && s.confidence <= 1)),
      );
      if (inBin.length === 0) continue;
      const conf = inBin.reduce((x, s) => x + s.confidence, 0) / inBin.length;
      const acc = inBin.filter((s) => s.correct).length / inBin.length;
      ece += (inBin.length / scored.length) * Math.abs(conf - acc);
    }
    // The raw score behind each confidence: the calibration's inverse.
    const raw = scored.map((x) => {
      const { a, b } = CALIBRATION[x.verdict];
      const c = Math.min(1 - 1e-6, Math.max(1e-6, x.confidence));
      return { ...x, score: (Math.log(c / (1 - c)) - b) / a };
    });
    const fit = Object.fromEntries(
      (['supported', 'contradicted', 'unknown'] as VerifyVerdict[]).map((v) => {
        const rows = raw.filter((r) => r.verdict === v);
        return [
          v,
          {
            ...fitLogistic(
              rows.map((r) => r.score),
              rows.map((r) => (r.correct ? 1 : 0)),
            ),
            n: rows.length,
          },
        ];
      }),
    ) as VerifyReport['fit'];
    times.sort((a, b) => a - b);
    return {
      claims: CLAIMS.length,
      semantic,
      accuracy: scored.filter((s) => s.correct).length / scored.length,
      per_class,
      confusion,
      unknown_answered: {
        n: answered,
        of: unknownOf,
        rate: answered / unknownOf,
        ci: wilson(answered, unknownOf),
      },
      ece: Math.round(ece * 1000) / 1000,
      fit,
      misses,
      p50_ms: Math.round((times[Math.floor(times.length / 2)] ?? 0) * 10) / 10,
    };
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printVerify(r: VerifyReport): void {
  const f = (x: number) => x.toFixed(3);
  console.log(
    `${r.claims} labelled claims against ${CLAIM_MEMORIES.length} memories (${r.semantic ? 'with the embedding model' : 'no embedding model: recall by words only'}); p50 ${r.p50_ms} ms per claim.\n`,
  );
  console.log('| label | accuracy | 95 % interval | right |');
  console.log('|---|---:|---:|---:|');
  for (const l of LABELS) {
    const c = r.per_class[l];
    console.log(
      `| ${l} | ${f(c.accuracy)} | ${f(c.ci[0])}–${f(c.ci[1])} | ${c.correct} of ${c.of} |`,
    );
  }
  console.log(`| all | ${f(r.accuracy)} | | |`);
  console.log(
    `\nUnknown claims answered supported or contradicted: ${r.unknown_answered.n} of ${r.unknown_answered.of} (${(100 * r.unknown_answered.rate).toFixed(1)} %, 95 % interval ${(100 * r.unknown_answered.ci[0]).toFixed(1)}–${(100 * r.unknown_answered.ci[1]).toFixed(1)} %; the bar is 10 %).`,
  );
  console.log(`Expected calibration error of the confidence: ${f(r.ece)}.\n`);
  console.log('| labelled \\ answered | supported | contradicted | unknown |');
  console.log('|---|---:|---:|---:|');
  for (const l of LABELS) {
    const c = r.confusion[l];
    console.log(`| ${l} | ${c.supported} | ${c.contradicted} | ${c.unknown} |`);
  }
  console.log(
    `\nLogistic fit of correctness on the raw score (CALIBRATION): ${Object.entries(r.fit)
      .map(([v, x]) => `${v} a ${x.a} b ${x.b} (n ${x.n})`)
      .join('; ')}`,
  );
  if (r.misses.length) console.log(`\nMisses:\n${r.misses.map((m) => `- ${m}`).join('\n')}`);
}
