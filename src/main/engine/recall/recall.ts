// The recall pipeline (DESIGN.md §6): recognise → lexical and vector candidates → fusion
// with the conversation signals (candidates.ts) → spreading activation over links →
// ranking with activation, retrievability and salience → confidence and abstention →
// diversity → token budget → rehearsal. Every answer says how it was found, how sure it
// is, what was degraded and how long each stage took; `explain` adds the stage trace.
import type { z } from 'zod';
import type { Actor, RecallHit, RecallResult, RecallTrace, TraceStage } from '../../../shared/api';
import type { RecallArgsSchema } from '../../../shared/schemas';
import type { Config } from '../config';
import { embeddingText } from '../embed/backfill';
import type { Embedder } from '../embed/types';
import { dot } from '../embed/pooling';
import { MEMORY_COLUMNS, type MemoryRow } from '../memory/model';
import { readUseMany } from '../memory/state';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { applyBudget, loadTokenCounter } from './budget';
import { emptyCandidate, fuseCandidates, type Candidate } from './candidates';
import { assessEvidence, hitConfidence } from './confidence';
import { namedSpeakers, storeSpeakers } from './conversation';
import { lexicalSearch } from './lexical';
import { finalScore, mmr, setJaccard, wordSet } from './ranking';
import { answerConfidence, breakdown, round, toHit, why } from './present';
import { timeCues } from './timeQuery';
import type { Thresholds } from './calibration';
import type { Recognizer } from './recognizer';
import { spreadActivation } from './spreading';
import { parseQuery, queryPhrase } from './terms';
import { recallFilter } from './filter';
import { searchVectors, type VectorHit, type VectorIndex } from './vectorIndex';

export type ParsedRecall = z.output<typeof RecallArgsSchema>;

/** Candidates taken from each branch per requested result. */
const BRANCH_FACTOR = 3;
/** … and at least this many, so a small `limit` still ranks from a fair pool. */
const MIN_BRANCH = 30;
/**
 * The recogniser answers only past an absolute bar and a margin over the runner-up; its
 * answers were right 23 times of 29 on the evaluation sets (devteam 21/23, LoCoMo's
 * development conversations 2/6: turns have no titles to name).
 */
const RECOGNISED_CONFIDENCE = 0.8;
const NAMED_CONFIDENCE: RecallResult['confidence'] = {
  value: RECOGNISED_CONFIDENCE,
  level: 'high',
  basis: 'the query names a memory (the recogniser cleared its bar and its margin)',
};
/** Similarity below which two results do not count as redundant (MMR). */
const MMR_TAU = 0.8;
/** Fused candidates that seed spreading activation. */
const SPREAD_SEEDS = 10;

export interface RecallVectors {
  embedder: Embedder;
  index: VectorIndex;
  /** Live memories still waiting for a vector of this model. */
  pending: number;
}

export interface RecallContext {
  store: OpenStore;
  actor: Actor;
  now: number;
  config: Config['recall'];
  /** Null when the store has no vectors of the active model yet. */
  vectors: RecallVectors | null;
  semantic: boolean;
  recognizer: Recognizer;
  threshold: Thresholds;
  /** Notes from the embedding service (why semantic is off, …). */
  notes: string[];
  rehearse: (rids: number[], pairs: [number, number][]) => void;
}

function loadVectors(ctx: RecallContext, rids: number[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  if (!ctx.vectors || rids.length === 0) return out;
  const rows = stmt(
    ctx.store.db,
    `SELECT rid, vector FROM memory_embedding WHERE model = ? AND rid IN (${rids.map(() => '?').join(', ')})`,
  ).all(ctx.vectors.index.model, ...rids) as { rid: number; vector: Buffer }[];
  for (const r of rows)
    out.set(
      r.rid,
      new Float32Array(
        r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength),
      ),
    );
  return out;
}

/** What recall says while `n` memories wait for their vectors. */
export function notEmbeddedNote(n: number): string {
  return `${n} ${n === 1 ? 'memory is' : 'memories are'} not embedded yet; until then only their words can match`;
}

export async function recall(ctx: RecallContext, args: ParsedRecall): Promise<RecallResult> {
  const count = await loadTokenCounter();
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  const trace: TraceStage[] = [];
  const mark = (() => {
    let last = performance.now();
    return (name: string) => {
      const now = performance.now();
      timings[`${name}_ms`] = round(now - last);
      last = now;
      return timings[`${name}_ms`] as number;
    };
  })();
  let embedMs = 0;
  const degraded = [...ctx.notes];
  if (ctx.vectors && ctx.vectors.pending > 0) degraded.push(notEmbeddedNote(ctx.vectors.pending));
  const filter = recallFilter(args, ctx.actor);
  const units = parseQuery(args.query);
  mark('parse');
  const db = ctx.store.db;
  const rowsByRid = new Map<number, MemoryRow>();
  const hydrate = (rids: number[]) => {
    const missing = rids.filter((r) => !rowsByRid.has(r));
    if (missing.length === 0) return;
    for (const row of stmt(
      db,
      `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE m.rid IN (${missing.map(() => '?').join(', ')})`,
    ).all(...missing) as MemoryRow[]) {
      rowsByRid.set(row.rid, row);
    }
  };
  const traceItems = (
    list: { rid: number; score: number; note?: string }[],
  ): TraceStage['items'] => {
    if (!args.explain) return [];
    const top = list.slice(0, 30);
    hydrate(top.map((i) => i.rid));
    return top.map((i) => ({
      id: rowsByRid.get(i.rid)?.id ?? String(i.rid),
      title: rowsByRid.get(i.rid)?.title ?? '',
      score: round(i.score, 4),
      ...(i.note ? { note: i.note } : {}),
    }));
  };
  const passes = (rid: number) =>
    stmt(db, `SELECT 1 FROM memory m WHERE m.rid = ? AND ${filter.sql}`).get(
      rid,
      ...filter.params,
    ) !== undefined;
  const base = { store: ctx.store.name, semantic: (ctx.semantic ? 'on' : 'off') as 'on' | 'off' };
  const finish = (
    result: Omit<RecallResult, 'store' | 'semantic' | 'timings' | 'degraded' | 'trace'>,
    extra: string[] = [],
  ): RecallResult => {
    timings.total_ms = round(performance.now() - t0 - embedMs);
    if (embedMs > 0) timings.embed_ms = round(embedMs);
    const out: RecallResult = { ...base, ...result, degraded: [...degraded, ...extra], timings };
    if (args.explain) {
      const t: RecallTrace = { query: args.query, terms: units.map((u) => u.text), stages: trace };
      out.trace = t;
    }
    return out;
  };

  // ---------------------------------------------------------------- 1. recognition
  const recognized = ctx.config.use_recognizer
    ? ctx.recognizer.recognize(args.query, passes, { explain: args.explain === true })
    : { hit: null, best: null };
  const recognizeMs = mark('recognise');
  trace.push({
    name: 'recognise',
    ms: recognizeMs,
    items: traceItems(
      (recognized.best?.considered ?? []).map((c) => ({ rid: c.rid, score: c.score })),
    ),
    detail: {
      answered: recognized.hit !== null,
      best: recognized.best ? round(recognized.best.score, 4) : null,
      runner_up: recognized.best ? round(recognized.best.runnerUp, 4) : null,
    },
  });
  // A query that names one memory: that memory answers. Asked for one result, it is the
  // whole answer; asked for more, it leads and the words of the query find the rest (no
  // query embedding: the fast path stays fast).
  const named = recognized.hit;
  const namedWhy = named
    ? `named by the query (recognised, ${named.score.toFixed(2)} vs ${named.runnerUp.toFixed(2)} for the next)`
    : '';
  if (named && (args.limit === 1 || units.length === 0)) {
    hydrate([named.rid]);
    const row = rowsByRid.get(named.rid) as MemoryRow;
    const hit = toHit(row, args, {
      score: round(named.score, 4),
      confidence: RECOGNISED_CONFIDENCE,
      why: namedWhy,
      breakdown: null,
    });
    const budget = applyBudget([hit], args.max_tokens ?? null, count);
    if (args.rehearse && budget.kept.length > 0) ctx.rehearse([row.rid], []);
    return finish({
      how: 'fastpath',
      abstained: false,
      confidence: NAMED_CONFIDENCE,
      results: budget.kept,
      omitted: budget.omitted,
      tokens: { used: budget.used, max: args.max_tokens ?? null },
    });
  }

  if (units.length === 0) {
    // Nothing to match by word, and a vector of no words would be noise.
    return finish(
      {
        how: ctx.vectors ? 'hybrid' : 'lexical',
        abstained: true,
        confidence: { value: 0, level: 'low', basis: 'the query has no searchable words' },
        results: [],
        omitted: 0,
        tokens: { used: 0, max: args.max_tokens ?? null },
      },
      ['the query has no searchable words'],
    );
  }

  // ---------------------------------------------------------------- 2. candidates
  const branchK = Math.min(100, Math.max(args.limit * BRANCH_FACTOR, MIN_BRANCH));
  const lexical = lexicalSearch(db, units, filter, branchK, queryPhrase(args.query));
  const lexicalMs = mark('lexical');
  trace.push({
    name: 'lexical',
    ms: lexicalMs,
    items: traceItems(
      lexical.hits.map((h) => ({
        rid: h.rid,
        score: h.score,
        note: h.phrase ? 'the exact phrase' : `${h.matched}/${lexical.units} terms`,
      })),
    ),
    detail: {
      terms: lexical.units,
      queries_run: lexical.tiersRun,
      idf: lexical.idf.map((v) => round(v, 2)),
    },
  });

  let vectorHits: VectorHit[] = [];
  let belowBar: VectorHit[] = [];
  let vectorDetail: Record<string, unknown> = { used: false };
  let queryVector: Float32Array | null = null;
  if (ctx.vectors && !named) {
    const te = performance.now();
    const [embedded] = await ctx.vectors.embedder.embed([args.query], 'query');
    queryVector = embedded as Float32Array;
    embedMs = performance.now() - te;
    mark('embed_wall');
    const search = searchVectors(db, ctx.vectors.index, queryVector, branchK, filter);
    // Below the floor a vector neighbour is off-topic noise, not a candidate.
    vectorHits = search.hits.filter((h) => h.similarity >= ctx.threshold.floor);
    belowBar = search.hits.filter((h) => h.similarity < ctx.threshold.value).slice(0, 3);
    vectorDetail = {
      used: true,
      model: ctx.vectors.embedder.id,
      exact: search.exact,
      rescored: search.candidates,
      floor: round(ctx.threshold.floor, 4),
      best: search.hits[0] ? round(search.hits[0].similarity, 4) : null,
    };
    delete timings.embed_wall_ms;
  }
  const vectorMs = mark('vector');
  trace.push({
    name: 'vector',
    ms: vectorMs,
    items: traceItems(vectorHits.map((h) => ({ rid: h.rid, score: h.similarity }))),
    detail: vectorDetail,
  });

  // ---------------------------------------------------------------- 3. fusion
  const time = timeCues(args.query, ctx.now);
  const speakers = namedSpeakers(args.query, storeSpeakers(db));
  const byRid = fuseCandidates({
    db,
    filter,
    lexical: lexical.hits,
    vectors: vectorHits,
    semantic: ctx.semantic,
    config: ctx.config,
    speakers,
    time,
    rows: (rids) => {
      hydrate(rids);
      return new Map(
        rids.flatMap((r) => (rowsByRid.has(r) ? [[r, rowsByRid.get(r) as MemoryRow]] : [])),
      );
    },
    similarities: (rids) => {
      const out = new Map<number, number>();
      if (!queryVector) return out;
      for (const [rid, v] of loadVectors(ctx, rids)) out.set(rid, dot(queryVector, v));
      return out;
    },
  });
  const fusedOrder = [...byRid.values()].sort((a, b) => b.relevance - a.relevance);
  const fusionMs = mark('fusion');
  trace.push({
    name: 'fusion',
    ms: fusionMs,
    items: traceItems(
      fusedOrder.map((c) => ({
        rid: c.rid,
        score: c.relevance,
        ...(c.neighbour > 0 && !c.lexical && !c.vector ? { note: 'next to a match' } : {}),
      })),
    ),
    detail: {
      method: ctx.config.fusion,
      ...(ctx.config.fusion === 'rrf' ? { k: ctx.config.rrf_k } : {}),
      speakers: [...speakers],
      times: time.windows.map((w) => w.text).filter((t, i, all) => all.indexOf(t) === i),
      recent: time.recent,
    },
  });

  // ---------------------------------------------------------------- 4. spreading
  const spread = spreadActivation(
    db,
    fusedOrder.slice(0, SPREAD_SEEDS).map((c) => ({ rid: c.rid, score: c.relevance })),
    {
      hops: ctx.config.spread_hops,
      decay: ctx.config.spread_decay,
      maxNodes: ctx.config.spread_nodes,
    },
    filter,
  );
  for (const [rid, energy] of spread) {
    let c = byRid.get(rid);
    if (!c) {
      c = emptyCandidate(rid);
      byRid.set(rid, c);
    }
    c.spread = energy;
  }
  const spreadMs = mark('spreading');
  trace.push({
    name: 'spreading',
    ms: spreadMs,
    items: traceItems(
      [...spread.entries()].sort((a, b) => b[1] - a[1]).map(([rid, s]) => ({ rid, score: s })),
    ),
    detail: { hops: ctx.config.spread_hops, decay: ctx.config.spread_decay, reached: spread.size },
  });

  // ---------------------------------------------------------------- 5. ranking
  const all = [...byRid.values()];
  hydrate(all.map((c) => c.rid));
  const use = readUseMany(
    db,
    all.map((c) => rowsByRid.get(c.rid)).filter((r): r is MemoryRow => r !== undefined),
    ctx.now,
  );
  for (const c of all) {
    c.row = rowsByRid.get(c.rid);
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
  const rankingMs = mark('ranking');
  trace.push({
    name: 'ranking',
    ms: rankingMs,
    items: traceItems(ranked.map((c) => ({ rid: c.rid, score: c.final }))),
    detail: { weights: ctx.config.weights },
  });

  // ---------------------------------------------------------------- 6. abstention
  const evidence = assessEvidence({
    lexical,
    bestSimilarity: (vectorDetail.best as number | null | undefined) ?? null,
    semantic: ctx.semantic && ctx.vectors !== null,
    threshold: ctx.threshold,
  });
  ranked.forEach((c, i) => {
    c.confidence = hitConfidence(c, i + 1, evidence);
  });
  const abstained = !named && (ranked.length === 0 || evidence.abstain);
  const abstentionMs = mark('abstention');
  trace.push({
    name: 'abstention',
    ms: abstentionMs,
    items: [],
    detail: {
      abstained,
      confidence: round(evidence.confidence, 3),
      level: evidence.level,
      basis: evidence.basis,
      threshold: round(ctx.threshold.value, 4),
      floor: round(ctx.threshold.floor, 4),
      threshold_source: ctx.threshold.source,
      best_similarity: (vectorDetail.best as number | null | undefined) ?? null,
      best_coverage: round(evidence.coverage, 3),
      absent: round(evidence.absent, 3),
    },
  });
  const units_ = lexical.units;
  if (abstained) {
    let nearMisses: RecallHit[] | undefined;
    if (args.format === 'verbose') {
      // The closest candidates, then the vector neighbours that stayed under the bar.
      hydrate(belowBar.map((h) => h.rid));
      const bar = ctx.threshold.value.toFixed(2);
      nearMisses = [
        ...ranked.slice(0, 3).map((c) =>
          toHit(c.row as MemoryRow, args, {
            score: round(c.final, 4),
            confidence: round(c.confidence, 3),
            why: `near miss: ${why(c, units_, ctx.now, ctx.semantic) || 'weak match'}`,
            breakdown: breakdown(c, units_, ctx.config.weights),
          }),
        ),
        ...belowBar
          .filter((h) => !byRid.has(h.rid) && rowsByRid.has(h.rid))
          .map((h) =>
            toHit(rowsByRid.get(h.rid) as MemoryRow, args, {
              score: round(h.similarity, 4),
              confidence: 0,
              why: `near miss: ${ctx.semantic ? 'similarity' : 'spelling similarity'} ${h.similarity.toFixed(2)}, under the bar of ${bar}`,
              breakdown: null,
            }),
          ),
      ].slice(0, 3);
    }
    return finish({
      how: ctx.vectors ? 'hybrid' : 'lexical',
      abstained: true,
      confidence: answerConfidence(evidence),
      results: [],
      ...(nearMisses ? { near_misses: nearMisses } : {}),
      omitted: 0,
      tokens: { used: 0, max: args.max_tokens ?? null },
    });
  }

  // ---------------------------------------------------------------- 7. diversity
  const pool = ranked.slice(0, Math.max(args.limit * 2, args.limit));
  const vectors = loadVectors(
    ctx,
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
      hydrate([named.rid]);
      lead = { ...emptyCandidate(named.rid), row: rowsByRid.get(named.rid) as MemoryRow };
    }
    lead.confidence = RECOGNISED_CONFIDENCE;
    const rest = chosen.filter((c) => c.rid !== named.rid);
    chosen.splice(0, chosen.length, lead, ...rest.slice(0, args.limit - 1));
  }
  const diversityMs = mark('diversity');
  trace.push({
    name: 'diversity',
    ms: diversityMs,
    items: traceItems(chosen.map((c) => ({ rid: c.rid, score: c.final }))),
    detail: { lambda: ctx.config.mmr_lambda },
  });

  // ---------------------------------------------------------------- 8. budget
  const hits = chosen.map((c) => ({
    rid: c.rid,
    ...toHit(c.row as MemoryRow, args, {
      score: round(named?.rid === c.rid ? Math.max(c.final, named.score) : c.final, 4),
      confidence: round(c.confidence, 3),
      why: named?.rid === c.rid ? namedWhy : why(c, units_, ctx.now, ctx.semantic),
      breakdown: breakdown(c, units_, ctx.config.weights),
    }),
  }));
  const budget = applyBudget(hits, args.max_tokens ?? null, count);
  const budgetMs = mark('budget');
  trace.push({
    name: 'budget',
    ms: budgetMs,
    items: traceItems(budget.kept.map((h) => ({ rid: h.rid, score: h.score }))),
    detail: { max_tokens: args.max_tokens ?? null, used: budget.used, omitted: budget.omitted },
  });
  if (budget.omitted > 0) {
    degraded.push(
      `${budget.omitted} more result${budget.omitted === 1 ? '' : 's'} left out to stay within max_tokens`,
    );
  }

  // ---------------------------------------------------------------- 9. rehearsal
  if (args.rehearse && budget.kept.length > 0) {
    const rids = budget.kept.map((h) => h.rid);
    const top = rids.slice(0, 5);
    const pairs: [number, number][] = [];
    for (let i = 0; i < top.length; i++)
      for (let j = i + 1; j < top.length; j++) pairs.push([top[i] as number, top[j] as number]);
    ctx.rehearse(rids, pairs);
  }
  return finish({
    how: named ? 'fastpath' : ctx.vectors ? 'hybrid' : 'lexical',
    abstained: false,
    confidence:
      named && NAMED_CONFIDENCE.value > evidence.confidence
        ? NAMED_CONFIDENCE
        : answerConfidence(evidence),
    results: budget.kept.map(({ rid: _rid, ...hit }) => hit),
    omitted: budget.omitted,
    tokens: { used: budget.used, max: args.max_tokens ?? null },
  });
}
