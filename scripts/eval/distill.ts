// The distillation suite of `npm run eval`: eleven agent sessions written for the purpose
// (test/fixtures/transcripts/scenarios.ts), each in the three formats Loci reads, with
// the memories a careful person would keep labelled. Every file is imported into a fresh
// store; what the extractors drew and the gate let through (written, or proposed to the
// review inbox) is matched against the labels: precision (kept candidates that are
// expected) and recall (expected memories that were kept), per extractor and in all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import { SCENARIOS, writeScenarios } from '../../test/fixtures/transcripts/scenarios';

interface Tally {
  kept: number;
  correct: number;
  expected: number;
  found: number;
}

export interface DistillReport {
  sessions: number;
  files: number;
  lines: number;
  accounted: boolean;
  by_extractor: Record<string, Tally & { precision: number | null; recall: number | null }>;
  total: Tally & { precision: number | null; recall: number | null };
  rejected: number;
  misses: string[];
  false_positives: string[];
}

export async function runDistill(): Promise<DistillReport> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-eval-distill-'));
  const engine = await Engine.open({ dataDir: join(dir, 'home'), owner: 'bench', env: {} });
  const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
  const tallies: Record<string, Tally> = {};
  const tally = (k: string) => (tallies[k] ??= { kept: 0, correct: 0, expected: 0, found: 0 });
  const misses: string[] = [];
  const falsePositives: string[] = [];
  let lines = 0;
  let accounted = true;
  let rejected = 0;
  try {
    const files = writeScenarios(join(dir, 'sessions'));
    for (const f of files) {
      const r = (await client.call('transcript.import', { paths: [f.path] })).files[0];
      if (!r?.journal_id || !r.accounting)
        throw new Error(`${f.path}: ${r?.reason ?? 'not imported'}`);
      const a = r.accounting;
      lines += r.lines;
      const sum =
        a.used + Object.values(a.ignored).reduce((x, y) => x + y, 0) + a.skipped_total + a.not_kept;
      if (sum !== r.lines) accounted = false;
      const j = await client.call('journal.get', { id: r.journal_id, limit: 1 });
      const kept = j.candidates.filter((c) => c.status !== 'rejected');
      rejected += j.candidates.length - kept.length;
      for (const e of f.scenario.expect) {
        tally(e.extractor).expected++;
        const hit = kept.some(
          (c) =>
            c.extractor === e.extractor &&
            c.content.toLowerCase().includes(e.contains.toLowerCase()),
        );
        if (hit) tally(e.extractor).found++;
        else misses.push(`${f.format}/${f.scenario.id}: ${e.extractor} "${e.contains}"`);
      }
      for (const c of kept) {
        tally(c.extractor).kept++;
        const ok = f.scenario.expect.some(
          (e) =>
            e.extractor === c.extractor &&
            c.content.toLowerCase().includes(e.contains.toLowerCase()),
        );
        if (ok) tally(c.extractor).correct++;
        else
          falsePositives.push(
            `${f.format}/${f.scenario.id}: ${c.extractor} "${c.content.slice(0, 80)}"`,
          );
      }
    }
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 1000) / 1000);
  const withRates = (t: Tally) => ({
    ...t,
    precision: ratio(t.correct, t.kept),
    recall: ratio(t.found, t.expected),
  });
  const total = Object.values(tallies).reduce(
    (acc, t) => ({
      kept: acc.kept + t.kept,
      correct: acc.correct + t.correct,
      expected: acc.expected + t.expected,
      found: acc.found + t.found,
    }),
    { kept: 0, correct: 0, expected: 0, found: 0 },
  );
  return {
    sessions: SCENARIOS.length,
    files: SCENARIOS.length * 3,
    lines,
    accounted,
    by_extractor: Object.fromEntries(Object.entries(tallies).map(([k, t]) => [k, withRates(t)])),
    total: withRates(total),
    rejected,
    misses,
    false_positives: falsePositives,
  };
}

export function printDistill(r: DistillReport): void {
  const f = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  console.log(
    `${r.sessions} sessions × 3 formats (${r.files} files, ${r.lines} lines, every line accounted for: ${r.accounted ? 'yes' : 'NO'}); a candidate counts when the gate let it through (written or proposed).\n`,
  );
  console.log('| extractor | expected | found | kept | correct | precision | recall |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [k, t] of Object.entries(r.by_extractor).sort()) {
    console.log(
      `| ${k} | ${t.expected} | ${t.found} | ${t.kept} | ${t.correct} | ${f(t.precision)} | ${f(t.recall)} |`,
    );
  }
  const t = r.total;
  console.log(
    `| all | ${t.expected} | ${t.found} | ${t.kept} | ${t.correct} | ${f(t.precision)} | ${f(t.recall)} |`,
  );
  console.log(`\nRefused by the gate: ${r.rejected}.`);
  if (r.misses.length) console.log(`Missed:\n${r.misses.map((m) => `- ${m}`).join('\n')}`);
  if (r.false_positives.length)
    console.log(`Kept but not expected:\n${r.false_positives.map((m) => `- ${m}`).join('\n')}`);
}
