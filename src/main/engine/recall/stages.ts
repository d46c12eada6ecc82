// The stages of a recall (DESIGN.md §6), each a function of the run and what the stages
// before it found, returning its value with its trace entry (see run.ts). recall.ts
// strings them together; the score contributions of the ranking stage are typed in
// ranking.ts (scoreParts) and reach the answer as each hit's breakdown.
import type { RecallHit } from '../../../shared/api';
import { embeddingText } from '../embed/backfill';
import { dot } from '../embed/pooling';
import type { MemoryRow } from '../memory/model';
import { readUseMany } from '../memory/state';
import { stmt } from '../store/statements';
import { applyBudget, type Budgeted, type TokenCounter } from './budget';
import { emptyCandidate, fuseCandidates, type Candidate } from './candidates';
import { assessEvidence, hitConfidence, type Evidence } from './confidence';
import { namedSpeakers, storeSpeakers } from './conversation';
import { lexicalSearch, type LexicalResult } from './lexical';
import { breakdown, round, toHit, why } from './present';
import { finalScore, mmr, setJaccard, wordSet } from './ranking';
import type { Recognition } from './recognizer';
import type { RecallRun, StageOutput } from './run';
import { spreadActivation } from './spreading';
import { queryPhrase } from './terms';
import { timeCues } from './timeQuery';
import { searchVectors, type VectorHit } from './vectorIndex';

/** Candidates taken from each branch per requested result. */
const BRANCH_FACTOR = 3;
/** … and at least this many, so a small `limit` still ranks from a fair pool. */
const MIN_BRANCH = 30;
/**
 * The recogniser answers only past an absolute bar and a margin over the runner-up; its
 * answers were right 23 times of 29 on the evaluation sets (devteam 21/23, LoCoMo's
 * development conversations 2/6: turns have no titles to name).
 */
export const RECOGNISED_CONFIDENCE = 0.8;
/** Similarity below which two results do not count as redundant (MMR). */
const MMR_TAU = 0.8;
/** Fused candidates that seed spreading activation. */
const SPREAD_SEEDS = 10;

/** How many candidates each branch (lexical, vector) contributes. */
export const branchSize = (limit: number) =>
  Math.min(100, Math.max(limit * BRANCH_FACTOR, MIN_BRANCH));

/** The vectors of the active model for these memories. */
function loadVectors(run: RecallRun, rids: number[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  const vectors = run.ctx.vectors;
  if (!vectors || rids.length === 0) return out;
  const rows = stmt(
    run.db,
    `SELECT rid, vector FROM memory_embedding WHERE model = ? AND rid IN (${rids.map(() => '?').join(', ')})`,
  ).all(vectors.index.model, ...rids) as { rid: number; vector: Buffer }[];
  for (const r of rows)
    out.set(
      r.rid,
      new Float32Array(
        r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength),
      ),
    );
  return out;
}

// ------------------------------------------------------------------ 1. recognise

/** Whether the query names one memory (the recogniser cleared its bar and margin). */
export function recognise(
  run: RecallRun,
): StageOutput<{ hit: Recognition | null; best: Recognition | null }> {
  const { ctx, args } = run;
  const recognized = ctx.config.use_recognizer
    ? ctx.recognizer.recognize(args.query, (rid) => run.passes(rid), {
        explain: args.explain === true,
      })
    : { hit: null, best: null };
  return {
    value: recognized,
    items: (recognized.best?.considered ?? []).map((c) => ({ rid: c.rid, score: c.score })),
    detail: {
      answered: recognized.hit !== null,
      best: recognized.best ? round(recognized.best.score, 4) : null,
      runner_up: recognized.best ? round(recognized.best.runnerUp, 4) : null,
    },
  };
}

// ------------------------------------------------------------------ 2. candidates

export function lexical(run: RecallRun): StageOutput<LexicalResult> {
  const { args } = run;
  const found = lexicalSearch(
    run.db,
    run.units,
    run.filter,
    branchSize(args.limit),
    queryPhrase(args.query),
  );
  return {
    value: found,
    items: found.hits.map((h) => ({
      rid: h.rid,
      score: h.score,
      note: h.phrase ? 'the exact phrase' : `${h.matched}/${found.units} terms`,
    })),
    detail: {
      terms: found.units,
      queries_run: found.tiersRun,
      idf: found.idf.map((v) => round(v, 2)),
    },
  };
}

export interface VectorFound {
  /** Neighbours at or above the floor: candidates. */
  hits: VectorHit[];
  /** The nearest few under the bar (near misses of an abstention). */
  belowBar: VectorHit[];
  query: Float32Array | null;
  /** The best similarity seen, or null when no vector search ran. */
  best: number | null;
}

/** The query's nearest memories by vector (none when the recogniser answered). */
export async function vector(
  run: RecallRun,
  named: Recognition | null,
): Promise<StageOutput<VectorFound>> {
  const { ctx, args } = run;
  if (!ctx.vectors || named) {
    return {
      value: { hits: [], belowBar: [], query: null, best: null },
      items: [],
      detail: { used: false },
    };
  }
  const { embedder, index } = ctx.vectors;
  const query = await run.embedQuery();
  const search = searchVectors(run.db, index, query, branchSize(args.limit), run.filter);
  // Below the floor a vector neighbour is off-topic noise, not a candidate.
  const hits = search.hits.filter((h) => h.similarity >= ctx.threshold.floor);
  const best = search.hits[0] ? round(search.hits[0].similarity, 4) : null;
  return {
    value: {
      hits,
      belowBar: search.hits.filter((h) => h.similarity < ctx.threshold.value).slice(0, 3),
      query,
      best,
    },
    items: hits.map((h) => ({ rid: h.rid, score: h.similarity })),
    detail: {
      used: true,
      model: embedder.id,
      exact: search.exact,
      rescored: search.candidates,
      floor: round(ctx.threshold.floor, 4),
      best,
    },
  };
}

// ------------------------------------------------------------------ 3. fusion

/** Lexical and vector candidates fused with the conversation and time signals. */
export function fuse(
  run: RecallRun,
  lexicalFound: LexicalResult,
  vectors: VectorFound,
): StageOutput<Map<number, Candidate>> {
  const { ctx, args } = run;
  const time = timeCues(args.query, ctx.now);
  const speakers = namedSpeakers(args.query, storeSpeakers(run.db));
  const byRid = fuseCandidates({
    db: run.db,
    filter: run.filter,
    lexical: lexicalFound.hits,
    vectors: vectors.hits,
    semantic: ctx.semantic,
    config: ctx.config,
    speakers,
    time,
    rows: (rids) => run.rowsOf(rids),
    similarities: (rids) => {
      const out = new Map<number, number>();
      const q = vectors.query;
      if (!q) return out;
      for (const [rid, v] of loadVectors(run, rids)) out.set(rid, dot(q, v));
      return out;
    },
  });
  const order = [...byRid.values()].sort((a, b) => b.relevance - a.relevance);
  return {
    value: byRid,
    items: order.map((c) => ({
      rid: c.rid,
      score: c.relevance,
      ...(c.neighbour > 0 && !c.lexical && !c.vector ? { note: 'next to a match' } : {}),
    })),
    detail: {
      method: ctx.config.fusion,
      ...(ctx.config.fusion === 'rrf' ? { k: ctx.config.rrf_k } : {}),
      speakers: [...speakers],
      times: time.windows.map((w) => w.text).filter((t, i, all) => all.indexOf(t) === i),
      recent: time.recent,
    },
  };
}

// ------------------------------------------------------------------ 4. spreading

/** Activation spread from the best fused candidates over links; adds the memories it reaches. */
export function spread(run: RecallRun, byRid: Map<number, Candidate>): StageOutput<void> {
  const { config } = run.ctx;
  const seeds = [...byRid.values()]
    .sort((a, b) => b.relevance - a.relevance)
    .slice(0, SPREAD_SEEDS)
    .map((c) => ({ rid: c.rid, score: c.relevance }));
  const hopOf = new Map<number, number>();
  const reached = spreadActivation(
    run.db,
    seeds,
    { hops: config.spread_hops, decay: config.spread_decay, maxNodes: config.spread_nodes },
    run.filter,
    hopOf,
  );
  for (const [rid, energy] of reached) {
    let c = byRid.get(rid);
    if (!c) {
      c = emptyCandidate(rid);
      byRid.set(rid, c);
    }
    c.spread = energy;
  }
  return {
    value: undefined,
    // Each reached memory says at which hop it was reached (the Atlas replays them so).
    items: [...reached.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([rid, s]) => ({ rid, score: s, note: `hop ${hopOf.get(rid) ?? 1}` })),
    detail: {
      hops: config.spread_hops,
      decay: config.spread_decay,
      reached: reached.size,
      seeds: seeds.length,
    },
  };
}

// ------------------------------------------------------------------ 5. ranking

/** The final score of every candidate (ranking.ts: fused, spread, use, salience, pin). */
export function rank(run: RecallRun, byRid: Map<number, Candidate>): StageOutput<Candidate[]> {
  const { ctx } = run;
  const all = [...byRid.values()];
  const rows = run.rowsOf(all.map((c) => c.rid));
  const use = readUseMany(run.db, [...rows.values()], ctx.now);
  for (const c of all) {
    c.row = rows.get(c.rid);
    const u = use.get(c.rid);
    c.activation = u?.activation ?? null;
    c.retrievability = u?.retrievability ?? null;
    c.final = c.row
      ? finalScore(
          {
            fused: c.relevance,
            spread: c.spread,
            activation: c.activation,
            retrievability: c.retrievability,
            salience: c.row.salience,
            pinned: c.row.pinned === 1,
          },
          ctx.config.weights,
        )
      : 0;
  }
  const ranked = all.filter((c) => c.row).sort((a, b) => b.final - a.final);
  return {
    value: ranked,
    items: ranked.map((c) => ({ rid: c.rid, score: c.final })),
    detail: { weights: ctx.config.weights },
  };
}

// ------------------------------------------------------------------ 6. abstention

/** How strong the evidence is; each candidate's confidence; whether to answer at all. */
export function abstain(
  run: RecallRun,
  ranked: Candidate[],
  lexicalFound: LexicalResult,
  vectors: VectorFound,
  named: Recognition | null,
): StageOutput<{ evidence: Evidence; abstained: boolean }> {
  const { ctx } = run;
  const evidence = assessEvidence({
    lexical: lexicalFound,
    bestSimilarity: vectors.best,
    semantic: ctx.semantic && ctx.vectors !== null,
    threshold: ctx.threshold,
  });
  ranked.forEach((c, i) => {
    c.confidence = hitConfidence(c, i + 1, evidence);
  });
  const abstained = !named && (ranked.length === 0 || evidence.abstain);
  return {
    value: { evidence, abstained },
    items: [],
    detail: {
      abstained,
      confidence: round(evidence.confidence, 3),
      level: evidence.level,
      basis: evidence.basis,
      threshold: round(ctx.threshold.value, 4),
      floor: round(ctx.threshold.floor, 4),
      threshold_source: ctx.threshold.source,
      best_similarity: vectors.best,
      best_coverage: round(evidence.coverage, 3),
      absent: round(evidence.absent, 3),
    },
  };
}

/**
 * What an abstention shows in verbose format: the closest candidates, then the vector
 * neighbours that stayed under the bar.
 */
export function nearMisses(
  run: RecallRun,
  ranked: Candidate[],
  byRid: Map<number, Candidate>,
  vectors: VectorFound,
  units: number,
): RecallHit[] {
  const { ctx, args } = run;
  const below = run.rowsOf(vectors.belowBar.map((h) => h.rid));
  const bar = ctx.threshold.value.toFixed(2);
  return [
    ...ranked.slice(0, 3).map((c) =>
      toHit(c.row as MemoryRow, args, {
        score: round(c.final, 4),
        confidence: round(c.confidence, 3),
        why: `near miss: ${why(c, units, ctx.now, ctx.semantic) || 'weak match'}`,
        breakdown: breakdown(c, units, ctx.config.weights),
      }),
    ),
    ...vectors.belowBar
      .filter((h) => !byRid.has(h.rid) && below.has(h.rid))
      .map((h) =>
        toHit(below.get(h.rid) as MemoryRow, args, {
          score: round(h.similarity, 4),
          confidence: 0,
          why: `near miss: ${ctx.semantic ? 'similarity' : 'spelling similarity'} ${h.similarity.toFixed(2)}, under the bar of ${bar}`,
          breakdown: null,
        }),
      ),
  ].slice(0, 3);
}

// ------------------------------------------------------------------ 7. diversity

/** Maximal marginal relevance over the best candidates; a named memory leads. */
export function diversify(
  run: RecallRun,
  ranked: Candidate[],
  byRid: Map<number, Candidate>,
  named: Recognition | null,
): StageOutput<Candidate[]> {
  const { ctx, args } = run;
  const pool = ranked.slice(0, Math.max(args.limit * 2, args.limit));
  const vectors = loadVectors(
    run,
    pool.map((c) => c.rid),
  );
  // Without both vectors, the word overlap of title and head stands in (sets built once).
  const words = new Map<number, Set<string>>();
  const wordsOf = (c: Candidate) => {
    let w = words.get(c.rid);
    if (!w) {
      const row = c.row as MemoryRow;
      w = wordSet(embeddingText(row.title, row.content.slice(0, 400)));
      words.set(c.rid, w);
    }
    return w;
  };
  const chosen = mmr(
    pool,
    (c) => c.final,
    (a, b) => {
      const va = vectors.get(a.rid);
      const vb = vectors.get(b.rid);
      const sim = va && vb ? dot(va, vb) : setJaccard(wordsOf(a), wordsOf(b));
      // Only near-duplicates are redundant: two turns of one conversation about the same
      // thing are both worth returning.
      return Math.max(0, sim - MMR_TAU) / (1 - MMR_TAU);
    },
    args.limit,
    ctx.config.mmr_lambda,
  );
  if (named) {
    let lead = byRid.get(named.rid);
    if (!lead) {
      lead = {
        ...emptyCandidate(named.rid),
        row: run.rowsOf([named.rid]).get(named.rid) as MemoryRow,
      };
    }
    lead.confidence = RECOGNISED_CONFIDENCE;
    const rest = chosen.filter((c) => c.rid !== named.rid);
    chosen.splice(0, chosen.length, lead, ...rest.slice(0, args.limit - 1));
  }
  return {
    value: chosen,
    items: chosen.map((c) => ({ rid: c.rid, score: c.final })),
    detail: { lambda: ctx.config.mmr_lambda },
  };
}

// ------------------------------------------------------------------ 8. budget

export type BudgetedHits = Budgeted<RecallHit & { rid: number }>;

/** The hits as the caller sees them, cut to `max_tokens`. */
export async function budget(
  run: RecallRun,
  chosen: Candidate[],
  named: Recognition | null,
  namedWhy: string,
  units: number,
  count: TokenCounter,
): Promise<StageOutput<BudgetedHits>> {
  const { ctx, args } = run;
  const hits = chosen.map((c) => ({
    rid: c.rid,
    ...toHit(c.row as MemoryRow, args, {
      score: round(named?.rid === c.rid ? Math.max(c.final, named.score) : c.final, 4),
      confidence: round(c.confidence, 3),
      why: named?.rid === c.rid ? namedWhy : why(c, units, ctx.now, ctx.semantic),
      breakdown: breakdown(c, units, ctx.config.weights),
    }),
  }));
  const kept = await applyBudget(hits, args.max_tokens ?? null, count);
  return {
    value: kept,
    items: kept.kept.map((h) => ({ rid: h.rid, score: h.score })),
    detail: { max_tokens: args.max_tokens ?? null, used: kept.used, omitted: kept.omitted },
  };
}

// ------------------------------------------------------------------ 9. rehearsal

/** A recall is a use of what it returned; the first five strengthen their links. */
export function rehearse(run: RecallRun, rids: number[]): void {
  if (!run.args.rehearse || rids.length === 0) return;
  const top = rids.slice(0, 5);
  const pairs: [number, number][] = [];
  for (let i = 0; i < top.length; i++)
    for (let j = i + 1; j < top.length; j++) pairs.push([top[i] as number, top[j] as number]);
  run.ctx.rehearse(rids, pairs);
}
