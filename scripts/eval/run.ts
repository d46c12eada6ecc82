// npm run eval — recall and distillation quality, in one run (bench-results/eval.json):
//   devteam        memories and questions of an engineering team (eval/datasets/devteam),
//                  four recall configurations (scripts/eval/devteam.ts)
//   distill        agent sessions read into journals, and what the extractors and the gate
//                  kept, matched against labels (scripts/eval/distill.ts)
//   conversations  every turn of a conversation as one memory, every question one recall:
//                  LoCoMo's development conversations (../shared/datasets/conversations-dev)
//                  and our own team chat (eval/datasets/ferrylog), against a plain BM25
//                  (scripts/eval/conversations/suite.ts)
// With the real model (LOCI_MODEL_PATH, or ../shared/models when present) the hybrid and
// full configurations run too; without it they are left out and the output says so.
//
//   npm run eval [-- --suite devteam|conversations|distill] [--dataset DIR] [--conversations PATH]…
//                [--model-path DIR] [--quick] [--ablation] [--fit-confidence]
//   --quick: without the one-remember-per-turn run; --ablation: each conversation signal
//   switched off in turn, and rank fusion instead of linear.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { readConversationSet } from './conversations/dataset';
import { fitConfidence } from './conversations/fit';
import { byCategory, summarize } from './conversations/report';
import { printContradictions, runContradictions } from './contradictions';
import { printVerify, runVerify } from './verify';
import { runConversationSuite, RECALL_LIMIT, type SystemRun } from './conversations/suite';
import { runDevteam } from './devteam';
import { printDistill, runDistill } from './distill';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const args = (name: string) =>
  argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1] as string] : []));
const suite = arg('--suite') ?? 'all';
if (!['all', 'devteam', 'conversations', 'distill', 'contradictions', 'verify'].includes(suite)) {
  console.error(
    `eval: --suite is devteam, conversations, distill, contradictions, verify or all, not "${suite}"`,
  );
  process.exit(2);
}

const defaultModelPath = resolve('../shared/models');
const modelPath =
  arg('--model-path') ??
  process.env.LOCI_MODEL_PATH ??
  (existsSync(defaultModelPath) ? defaultModelPath : '');
const devSet = resolve('../shared/datasets/conversations-dev');
const conversationPaths = args('--conversations').length
  ? args('--conversations').map((p) => resolve(p))
  : [...(existsSync(devSet) ? [devSet] : []), resolve('eval/datasets/ferrylog')];

const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: `${cpus()[0]?.model ?? '?'} × ${cpus().length}`,
  model_path: modelPath || null,
};

if (suite === 'all' || suite === 'distill') {
  console.log('## distill\n');
  const distill = await runDistill();
  printDistill(distill);
  report.distill = distill;
  console.log('');
}

if (suite === 'all' || suite === 'contradictions') {
  console.log('## contradictions\n');
  const contradictions = runContradictions();
  printContradictions(contradictions);
  report.contradictions = contradictions;
  console.log('');
}

if (suite === 'all' || suite === 'verify') {
  console.log('## verify\n');
  const verify = await runVerify(modelPath);
  printVerify(verify);
  report.verify = verify;
  console.log('');
}

if (suite === 'all' || suite === 'devteam') {
  console.log('## devteam\n');
  report.devteam = await runDevteam(
    resolve(arg('--dataset') ?? 'eval/datasets/devteam'),
    modelPath,
  );
  console.log('');
}

const fmt = (x: number) => x.toFixed(3);
const ci = (e: { mean: number; low: number; high: number }) =>
  `${fmt(e.mean)} [${fmt(e.low)}, ${fmt(e.high)}]`;
const pct = (e: { mean: number; low: number; high: number }) =>
  `${(e.mean * 100).toFixed(1)} % [${(e.low * 100).toFixed(1)}, ${(e.high * 100).toFixed(1)}]`;

if (suite === 'all' || suite === 'conversations') {
  const sets: Record<string, unknown> = {};
  const allRuns: SystemRun[][] = [];
  for (const path of conversationPaths) {
    const set = readConversationSet(path);
    const turns = set.conversations.reduce(
      (n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0),
      0,
    );
    const sessions = set.conversations.reduce((n, c) => n + c.sessions.length, 0);
    const questions = set.conversations.flatMap((c) => c.questions);
    console.log(
      `## conversations: ${set.name}\n\n${set.description}: ${set.conversations.length} conversation(s), ${sessions} sessions, ${turns} turns, ${questions.filter((q) => q.answerable && q.evidence.length > 0).length} answerable questions with evidence, ${questions.filter((q) => !q.answerable).length} unanswerable; one recall per question (limit ${RECALL_LIMIT}).`,
    );
    if (!modelPath) {
      console.log(
        '\nNo embedding model found (LOCI_MODEL_PATH, or ../shared/models): hybrid and full are not measured.',
      );
    }
    const runs = await runConversationSuite(set, {
      modelPath: modelPath || null,
      justWritten: !argv.includes('--quick'),
      features: argv.includes('--fit-confidence'),
      ablation: argv.includes('--ablation'),
    });
    allRuns.push(runs);
    console.log(
      '\n| system | recall@5 | recall@10 | recall@25 | nDCG@10 | abstained, answerable | abstained or low, unanswerable | low, answerable | ECE | p50 ms |',
    );
    console.log('|---|---|---|---|---|---|---|---|---:|---:|');
    const summaries = runs.map((r) => ({ run: r, s: summarize(r) }));
    for (const { run, s } of summaries) {
      const loci = run.name !== 'bm25 reference';
      console.log(
        `| ${run.name} | ${ci(s.recall5)} | ${ci(s.recall10)} | ${ci(s.recall25)} | ${ci(s.ndcg10)} | ${pct(s.abstainedAnswerable)} | ${loci && s.unanswerable > 0 ? pct(s.flaggedUnanswerable) : '—'} | ${loci ? pct(s.lowAnswerable) : '—'} | ${s.ece === null ? '—' : fmt(s.ece)} | ${s.p50.toFixed(1)} |`,
      );
    }
    const notEmbedded = runs.find((r) => r.name === 'full, just written')?.notEmbedded;
    if (notEmbedded !== undefined)
      console.log(
        `\n"full, just written": ${notEmbedded} answers said some memories were not embedded yet.`,
      );
    const cats = Object.keys(byCategory(runs[0] as SystemRun));
    console.log(
      `\nrecall@10 by category:\n\n| system | ${cats.join(' | ')} |\n|---|${cats.map(() => '---').join('|')}|`,
    );
    for (const r of runs) {
      const c = byCategory(r);
      console.log(`| ${r.name} | ${cats.map((k) => (c[k] ? ci(c[k]) : '—')).join(' | ')} |`);
    }
    console.log('');
    sets[set.name] = {
      description: set.description,
      turns,
      sessions,
      systems: summaries.map(({ run, s }) => ({
        name: run.name,
        model: run.model,
        summary: s,
        by_category: byCategory(run),
        not_embedded: run.notEmbedded,
      })),
    };
  }
  report.conversations = sets;
  if (argv.includes('--fit-confidence')) {
    console.log('## confidence model fitted on these runs\n');
    const runs = allRuns.flat();
    mkdirSync('bench-results', { recursive: true });
    writeFileSync('bench-results/confidence-runs.json', JSON.stringify(runs));
    console.log(fitConfidence(runs));
  }
}

mkdirSync('bench-results', { recursive: true });
writeFileSync('bench-results/eval.json', JSON.stringify(report, null, 2));
