// The conversational suite of `npm run eval`: every turn of a conversation stored as one
// memory ("<speaker>: <text>", with the session's time, the speaker and the session id),
// then every question asked with one recall (limit 25). Systems compared on the same data:
//   bm25          the reference: plain BM25, stop words, no stemming (./bm25.ts)
//   no model      Loci as installed, before a model: defaults, hashing fallback vectors
//   lexical       Loci's lexical ranking alone (no vectors, no recogniser, relevance only)
//   hybrid        + vectors of the real model (no recogniser, relevance only)
//   full          the default configuration with the real model
//   just written  the default configuration, the daemon's way: one remember call per turn
//                 with background embedding, each question asked right after (read your writes)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Presets, SingleBar } from 'cli-progress';
import { createHandlers, createInProcessClient } from '../../../src/main/api';
import { Engine } from '../../../src/main/engine/engine';
import { mergeRecallConfig } from '../../../src/main/engine/eval/lab';
import { recall } from '../../../src/main/engine/recall/recall';
import type { LociClient, RecallResult } from '../../../src/shared/api';
import type { EvalConfig } from '../../../src/shared/eval';
import { RecallArgsSchema } from '../../../src/shared/schemas';
import { Bm25 } from './bm25';
import { turnContent, type ConversationSet } from './types';

export const RECALL_LIMIT = 25;

export interface ConversationOutcome {
  id: string;
  category: string;
  answerable: boolean;
  evidence: string[];
  /** Turn ids returned, best first. */
  returned: string[];
  abstained: boolean;
  /** The answer's confidence (0–1) and level; null for the BM25 reference. */
  confidence: number | null;
  level: 'high' | 'medium' | 'low' | null;
  /** Per returned turn: its confidence. */
  hitConfidence: number[];
  how: string | null;
  ms: number;
  /** Features for fitting the confidence model (with --fit-confidence). */
  features?: {
    coverage: number;
    absent: number;
    margin: number | null;
    hits: {
      coverage: number;
      margin: number | null;
      relevance: number;
      rank: number;
      neighbourOnly: boolean;
      relevant: boolean;
    }[];
  };
}

export interface SystemRun {
  name: string;
  outcomes: ConversationOutcome[];
  /** Answers that said they were degraded by memories not yet embedded. */
  notEmbedded: number;
  model: string | null;
}

const RELEVANCE_ONLY = { relevance: 1, activation: 0, retrievability: 0, salience: 0, pinned: 0 };
const LEXICAL: EvalConfig & Record<string, unknown> = {
  use_vectors: false,
  use_recognizer: false,
  weights: RELEVANCE_ONLY,
};
const HYBRID: EvalConfig & Record<string, unknown> = {
  use_recognizer: false,
  weights: RELEVANCE_ONLY,
};

/** Each conversation signal switched off in turn, then all three. */
const ABLATIONS: (readonly [string, Record<string, unknown>])[] = [
  ['no session neighbours', { neighbour_weight: 0 }],
  ['no speaker boost', { speaker_boost: 0 }],
  ['no time boost', { time_boost: 0 }],
  ['none of the three', { neighbour_weight: 0, speaker_boost: 0, time_boost: 0 }],
];

function bar(label: string, total: number): SingleBar {
  const b = new SingleBar(
    {
      format: `${label.padEnd(34)} [{bar}] {value}/{total}`,
      hideCursor: true,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
  b.start(total, 0);
  return b;
}

interface Loaded {
  engine: Engine;
  client: LociClient;
  /** Per conversation: its store, memory id → turn id, and its calibrated bar (models only). */
  stores: Map<string, { store: string; turns: Map<string, string>; threshold: number | null }>;
  dir: string;
}

async function load(
  set: ConversationSet,
  mode: 'model' | 'none' | 'one-by-one',
  modelPath: string | null,
): Promise<Loaded> {
  const dir = mkdtempSync(join(tmpdir(), 'loci-eval-conv-'));
  if (mode === 'none') {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ embedding: { model: 'none' } }));
  }
  const engine = await Engine.open({
    dataDir: dir,
    owner: 'bench',
    embedWrites: mode === 'one-by-one' ? 'background' : 'await',
    env: { LOCI_MODEL_PATH: mode === 'none' ? '' : (modelPath ?? '') },
  });
  const client = createInProcessClient(createHandlers(engine), {
    actor: { kind: 'mcp', client: 'eval', transport: 'in-process' },
  });
  const person = createInProcessClient(createHandlers(engine), { actor: { kind: 'cli' } });
  const stores: Loaded['stores'] = new Map();
  const total = set.conversations.reduce(
    (n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0),
    0,
  );
  const progress = bar(`${set.name}: storing turns (${mode})`, total);
  let done = 0;
  for (const [i, c] of set.conversations.entries()) {
    const store = `c${i}-${c.id.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`.slice(0, 60);
    await person.call('store.create', { name: store });
    const turns = new Map<string, string>();
    const items = c.sessions.flatMap((s) =>
      s.turns.map((t) => ({
        turn: t.id,
        item: { content: turnContent(t), session: s.id, speaker: t.speaker, occurred_at: s.at },
      })),
    );
    if (mode === 'one-by-one') {
      for (const { turn, item } of items) {
        const r = await client.call('memory.remember', { store, ...item });
        turns.set(r.id, turn);
        progress.update(++done);
      }
    } else {
      for (let at = 0; at < items.length; at += 500) {
        const chunk = items.slice(at, at + 500);
        const r = await client.call('memory.rememberMany', {
          store,
          items: chunk.map((c) => c.item),
        });
        chunk.forEach((c, j) => turns.set((r.results[j] as { id: string }).id, c.turn));
        done += chunk.length;
        progress.update(done);
      }
    }
    // As the daemon does once a store has grown: set the abstention bar from the store.
    const calibration =
      mode === 'one-by-one'
        ? null
        : await person.call('recall.calibrate', { store }).catch(() => null);
    const semantic = engine.semantic.embedding.status().semantic;
    stores.set(c.id, {
      store,
      turns,
      threshold: semantic ? (calibration?.threshold ?? null) : null,
    });
  }
  progress.stop();
  return { engine, client, stores, dir };
}

async function close(l: Loaded): Promise<void> {
  await l.engine.close();
  rmSync(l.dir, { recursive: true, force: true });
}

function outcomeOf(
  q: ConversationSet['conversations'][number]['questions'][number],
  r: RecallResult,
  turns: Map<string, string>,
  ms: number,
  withFeatures: boolean,
  threshold: number | null,
): ConversationOutcome {
  const returned = r.results.map((h) => turns.get(h.id) ?? h.id);
  const out: ConversationOutcome = {
    id: q.id,
    category: q.category,
    answerable: q.answerable,
    evidence: q.evidence,
    returned,
    abstained: r.abstained,
    confidence: r.confidence.value,
    level: r.confidence.level,
    hitConfidence: r.results.map((h) => h.confidence),
    how: r.how,
    ms,
  };
  if (withFeatures) {
    const detail = r.trace?.stages.find((s) => s.name === 'abstention')?.detail as
      { best_coverage?: number; absent?: number; best_similarity?: number | null } | undefined;
    const margin = (sim: number | null | undefined) =>
      threshold !== null && sim !== null && sim !== undefined ? sim - threshold : null;
    out.features = {
      coverage: detail?.best_coverage ?? 0,
      absent: detail?.absent ?? 0,
      margin: margin(detail?.best_similarity),
      hits: r.results.map((h, i) => ({
        coverage: h.breakdown?.coverage ?? 0,
        margin: margin(h.breakdown?.vector),
        relevance: Math.min(1, (h.breakdown?.relevance ?? 0) + (h.breakdown?.spread ?? 0)),
        rank: i + 1,
        neighbourOnly:
          (h.breakdown?.lexical_rank ?? null) === null &&
          (h.breakdown?.vector_rank ?? null) === null,
        relevant: q.evidence.includes(returned[i] as string),
      })),
    };
  }
  return out;
}

/** Asks every question of the set under one ranking configuration of a loaded engine. */
async function ask(
  set: ConversationSet,
  loaded: Loaded,
  name: string,
  change: Record<string, unknown> | null,
  withFeatures: boolean,
): Promise<SystemRun> {
  const outcomes: ConversationOutcome[] = [];
  let notEmbedded = 0;
  const total = set.conversations.reduce((n, c) => n + c.questions.length, 0);
  const progress = bar(`${set.name}: ${name}`, total);
  let model: string | null = null;
  for (const c of set.conversations) {
    const { store, turns, threshold } = loaded.stores.get(c.id) as Loaded['stores'] extends Map<
      string,
      infer V
    >
      ? V
      : never;
    const open = await loaded.engine.store(store);
    for (const q of c.questions) {
      const t = performance.now();
      let r: RecallResult;
      const args = {
        store,
        query: q.question,
        limit: RECALL_LIMIT,
        rehearse: false,
        ...(withFeatures ? { format: 'verbose' as const, explain: true } : {}),
      };
      if (change === null) {
        r = await loaded.client.call('memory.recall', args);
      } else {
        const config = mergeRecallConfig(loaded.engine.config.recall, change as EvalConfig);
        const ctx = await loaded.engine.semantic.recallContext(
          open,
          { kind: 'mcp', client: 'eval', transport: 'in-process' },
          loaded.engine.now(),
          () => undefined,
          config,
        );
        r = await recall(ctx, RecallArgsSchema.parse(args));
      }
      const ms = performance.now() - t;
      if (r.degraded.some((d) => /not embedded yet/.test(d))) notEmbedded++;
      model = loaded.engine.semantic.embedding.modelId;
      outcomes.push(outcomeOf(q, r, turns, ms, withFeatures, threshold));
      progress.increment();
    }
  }
  progress.stop();
  return { name, outcomes, notEmbedded, model };
}

function bm25Run(set: ConversationSet): SystemRun {
  const outcomes: ConversationOutcome[] = [];
  for (const c of set.conversations) {
    const index = new Bm25();
    for (const s of c.sessions) for (const t of s.turns) index.add(t.id, turnContent(t));
    for (const q of c.questions) {
      const t = performance.now();
      const returned = index.search(q.question, RECALL_LIMIT);
      outcomes.push({
        id: q.id,
        category: q.category,
        answerable: q.answerable,
        evidence: q.evidence,
        returned,
        abstained: returned.length === 0,
        confidence: null,
        level: null,
        hitConfidence: [],
        how: null,
        ms: performance.now() - t,
      });
    }
  }
  return { name: 'bm25 reference', outcomes, notEmbedded: 0, model: null };
}

export interface SuiteOptions {
  modelPath: string | null;
  /** Also each conversation signal switched off, and rank fusion instead of linear. */
  ablation?: boolean;
  /** Also the one-remember-per-turn run with background embedding (slow with a model). */
  justWritten: boolean;
  /** Collect features for fitting the confidence model. */
  features: boolean;
}

export async function runConversationSuite(
  set: ConversationSet,
  options: SuiteOptions,
): Promise<SystemRun[]> {
  const runs: SystemRun[] = [bm25Run(set)];
  const none = await load(set, 'none', null);
  try {
    runs.push(await ask(set, none, 'no model (as installed)', null, options.features));
    runs.push(await ask(set, none, 'lexical', LEXICAL, options.features));
    if (options.ablation) {
      for (const [name, off] of ABLATIONS)
        runs.push(await ask(set, none, `lexical, ${name}`, { ...LEXICAL, ...off }, false));
    }
  } finally {
    await close(none);
  }
  if (options.modelPath) {
    const withModel = await load(set, 'model', options.modelPath);
    try {
      runs.push(await ask(set, withModel, 'hybrid', HYBRID, options.features));
      runs.push(await ask(set, withModel, 'full', null, options.features));
      if (options.ablation) {
        for (const [name, off] of [
          ...ABLATIONS,
          ['rank fusion (k 60)', { fusion: 'rrf', rrf_k: 60 }] as const,
        ])
          runs.push(await ask(set, withModel, `hybrid, ${name}`, { ...HYBRID, ...off }, false));
      }
    } finally {
      await close(withModel);
    }
    if (options.justWritten) {
      const oneByOne = await load(set, 'one-by-one', options.modelPath);
      try {
        runs.push(await ask(set, oneByOne, 'full, just written', null, false));
      } finally {
        await close(oneByOne);
      }
    }
  }
  return runs;
}
