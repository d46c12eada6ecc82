// npm run eval, devteam suite — retrieval quality on a dataset of memories and questions
// (JSONL), for several recall configurations compared in one run:
//   lexical            BM25 over every term, coverage, phrase and proximity (no vectors)
//   hybrid             + vector search, relevance only
//   hybrid+activation  + ACT-R, FSRS and salience in the ranking (the default blend)
//   full               + the recogniser fast path (the default configuration)
// Prints recall@5/10, MRR and nDCG@10 with 95 % bootstrap intervals, abstention
// precision/recall on unanswerable questions, per-category figures, and paired
// bootstrap differences with the minimum detectable effect.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHandlers, createInProcessClient } from '../../src/main/api';
import { Engine } from '../../src/main/engine/engine';
import type { LociClient } from '../../src/shared/api';
import {
  pairedDifference,
  reciprocalRank,
  recallAt,
  ndcgAt,
  summarize,
  type QuestionOutcome,
  type Summary,
} from '../../src/main/engine/eval/metrics';

interface MemoryRecord {
  id: string;
  content: string;
  title?: string;
  kind?: 'episodic' | 'semantic' | 'procedural' | 'affective' | 'prospective' | 'schematic';
  tags?: string[];
  valid_from?: string;
  valid_to?: string;
  links?: { to: string; type: string }[];
}

interface Question {
  id: string;
  query: string;
  relevant: string[];
  category: string;
  as_of?: string;
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

const CONFIGS: { name: string; recall: Record<string, unknown> }[] = [
  {
    name: 'lexical',
    recall: {
      use_vectors: false,
      use_recognizer: false,
      weights: { relevance: 1, activation: 0, retrievability: 0, salience: 0, pinned: 0 },
    },
  },
  {
    name: 'hybrid',
    recall: {
      use_recognizer: false,
      weights: { relevance: 1, activation: 0, retrievability: 0, salience: 0, pinned: 0 },
    },
  },
  { name: 'hybrid+activation', recall: { use_recognizer: false } },
  { name: 'full', recall: {} },
];

export async function runDevteam(datasetDir: string, modelPath: string): Promise<unknown> {
  const memories = readJsonl<MemoryRecord>(join(datasetDir, 'memories.jsonl'));
  const questions = readJsonl<Question>(join(datasetDir, 'questions.jsonl'));
  async function load(client: LociClient): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    const { results } = await client.call('memory.rememberMany', {
      items: memories.map((m) => ({
        content: m.content,
        ...(m.title ? { title: m.title } : {}),
        ...(m.kind ? { kind: m.kind } : {}),
        ...(m.tags ? { tags: m.tags } : {}),
        ...(m.valid_from ? { valid_from: m.valid_from } : {}),
        ...(m.valid_to ? { valid_to: m.valid_to } : {}),
      })),
    });
    memories.forEach((m, i) => ids.set(m.id, (results[i] as { id: string }).id));
    for (const m of memories) {
      for (const link of m.links ?? []) {
        await client.call('link.create', {
          from: ids.get(m.id) as string,
          to: ids.get(link.to) as string,
          type: link.type as 'related',
          weight: link.type === 'supersedes' ? 1 : 0.6,
        });
      }
    }
    return ids;
  }

  async function runConfig(config: (typeof CONFIGS)[number]): Promise<{
    outcomes: QuestionOutcome[];
    /** Per question (by id): the answer's confidence level. */
    levels: Map<string, string>;
    semantic: string;
    model: string;
    p50: number;
    threshold: string;
  }> {
    const dir = mkdtempSync(join(tmpdir(), 'loci-eval-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ recall: config.recall }));
    const engine = await Engine.open({
      dataDir: dir,
      owner: 'bench',
      embedWrites: 'await',
      env: { LOCI_MODEL_PATH: modelPath },
    });
    const client = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
    try {
      const ids = await load(client);
      // As the daemon does once a store has 20 memories: set the abstention bar from the store.
      const calibration =
        config.recall.use_vectors === false ? null : await client.call('recall.calibrate', {});
      const back = new Map([...ids.entries()].map(([k, v]) => [v, k]));
      const outcomes: QuestionOutcome[] = [];
      const levels = new Map<string, string>();
      const times: number[] = [];
      let semantic = 'off';
      for (const q of questions) {
        const t = performance.now();
        const r = await client.call('memory.recall', {
          query: q.query,
          limit: 10,
          rehearse: false,
          ...(q.as_of ? { as_of: q.as_of } : {}),
        });
        times.push(performance.now() - t);
        semantic = r.semantic;
        outcomes.push({
          id: q.id,
          category: q.category,
          relevant: q.relevant,
          returned: r.results.map((h) => back.get(h.id) ?? h.id),
          abstained: r.abstained,
        });
        levels.set(q.id, r.confidence.level);
      }
      times.sort((a, b) => a - b);
      const stats = await client.call('stats.get', {});
      return {
        outcomes,
        levels,
        semantic,
        model: stats.vectors.model,
        p50: times[Math.floor(times.length / 2)] as number,
        threshold: calibration
          ? `${calibration.threshold} (balanced accuracy ${calibration.balanced_accuracy})`
          : '—',
      };
    } finally {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const fmt = (x: number) => x.toFixed(3);
  const ci = (e: { mean: number; low: number; high: number }) =>
    `${fmt(e.mean)} [${fmt(e.low)}, ${fmt(e.high)}]`;

  const results: {
    name: string;
    summary: Summary;
    byCategory: Record<string, Summary>;
    outcomes: QuestionOutcome[];
    levels: Map<string, string>;
    semantic: string;
    model: string;
    p50: number;
    threshold: string;
  }[] = [];
  for (const config of CONFIGS) {
    process.stderr.write(`eval: ${config.name}…\n`);
    const run = await runConfig(config);
    const categories = [...new Set(questions.map((q) => q.category))];
    results.push({
      name: config.name,
      summary: summarize(run.outcomes),
      byCategory: Object.fromEntries(
        categories.map((c) => [c, summarize(run.outcomes.filter((o) => o.category === c))]),
      ),
      outcomes: run.outcomes,
      levels: run.levels,
      semantic: run.semantic,
      model: run.model,
      p50: run.p50,
      threshold: run.threshold,
    });
  }

  const counts = Object.entries(
    questions.reduce<Record<string, number>>(
      (acc, q) => ({ ...acc, [q.category]: (acc[q.category] ?? 0) + 1 }),
      {},
    ),
  )
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
  console.log(
    `dataset: ${datasetDir} — ${memories.length} memories, ${questions.length} questions (${counts})`,
  );
  console.log(
    `embeddings: ${results[1]?.model} (semantic ${results[1]?.semantic}); calibrated abstention bar: ${results[1]?.threshold}; machine: ${cpus()[0]?.model ?? '?'} × ${cpus().length}\n`,
  );
  console.log(
    '| configuration | recall@5 | recall@10 | MRR | nDCG@10 | abstention precision | abstention recall | false abstention | abstained or low, unanswerable | low, answerable | recall p50 (ms) |',
  );
  console.log('|---|---|---|---|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const s = r.summary;
    const share = (answerable: boolean, ok: (o: QuestionOutcome) => boolean) => {
      const set = r.outcomes.filter((o) => o.relevant.length > 0 === answerable);
      return set.length === 0 ? 0 : set.filter(ok).length / set.length;
    };
    const low = (o: QuestionOutcome) => r.levels.get(o.id) === 'low';
    console.log(
      `| ${r.name} | ${ci(s.recall5)} | ${ci(s.recall10)} | ${ci(s.mrr)} | ${ci(s.ndcg10)} | ${fmt(s.abstentionPrecision)} | ${fmt(s.abstentionRecall)} | ${fmt(s.falseAbstention)} | ${fmt(share(false, (o) => o.abstained || low(o)))} | ${fmt(share(true, (o) => !o.abstained && low(o)))} | ${r.p50.toFixed(1)} |`,
    );
  }

  console.log('\nnDCG@10 by category (95 % interval):\n');
  const categories = Object.keys(results[0]?.byCategory ?? {}).filter((c) => c !== 'unanswerable');
  console.log(`| configuration | ${categories.join(' | ')} |`);
  console.log(`|---|${categories.map(() => '---').join('|')}|`);
  for (const r of results)
    console.log(
      `| ${r.name} | ${categories.map((c) => ci(r.byCategory[c]!.ndcg10)).join(' | ')} |`,
    );

  console.log(
    '\nPaired differences in nDCG@10 and MRR (answerable questions, 95 % bootstrap interval; MDE = minimum detectable effect at 80 % power):\n',
  );
  console.log('| comparison | Δ nDCG@10 | MDE | Δ MRR | MDE |');
  console.log('|---|---|---:|---|---:|');
  const answerableIds = new Set(questions.filter((q) => q.relevant.length > 0).map((q) => q.id));
  const metricOf = (r: (typeof results)[number], f: (o: QuestionOutcome) => number) =>
    r.outcomes.filter((o) => answerableIds.has(o.id)).map(f);
  const pairs: [number, number][] = [];
  for (let i = 1; i < results.length; i++) {
    pairs.push([0, i]);
    if (i > 1) pairs.push([i - 1, i]);
  }
  for (const [a, b] of pairs) {
    const base = results[a] as (typeof results)[number];
    const cur = results[b] as (typeof results)[number];
    const dn = pairedDifference(
      metricOf(base, (o) => ndcgAt(o, 10)),
      metricOf(cur, (o) => ndcgAt(o, 10)),
    );
    const dm = pairedDifference(metricOf(base, reciprocalRank), metricOf(cur, reciprocalRank));
    console.log(
      `| ${cur.name} − ${base.name} | ${fmt(dn.mean)} [${fmt(dn.low)}, ${fmt(dn.high)}] | ${fmt(dn.mde)} | ${fmt(dm.mean)} [${fmt(dm.low)}, ${fmt(dm.high)}] | ${fmt(dm.mde)} |`,
    );
  }

  return {
    date: new Date().toISOString(),
    dataset: datasetDir,
    model: results[1]?.model,
    configs: results.map((r) => ({
      name: r.name,
      summary: r.summary,
      by_category: r.byCategory,
      p50_ms: r.p50,
      recall_at_10: r.outcomes.map((o) => ({ id: o.id, r10: recallAt(o, 10) })),
    })),
  };
}
