// The recall pipeline (DESIGN.md §6): recognise → lexical and vector candidates fused by
// reciprocal rank → spreading activation over links → ranking with activation,
// retrievability and salience → abstention → diversity → token budget → rehearsal.
// Every answer says how it was found, what was degraded and how long each stage took;
// `explain` adds the stage-by-stage trace.
import type { z } from 'zod';
import type {
  Actor,
  RecallHit,
  RecallResult,
  RecallTrace,
  ScoreBreakdown,
  TraceStage,
} from '../../../shared/api';
import type { RecallArgsSchema } from '../../../shared/schemas';
import type { Config } from '../config';
import { embeddingText } from '../embed/backfill';
import type { Embedder } from '../embed/types';
import { dot } from '../embed/pooling';
import {
  iso,
  isPerson,
  MEMORY_COLUMNS,
  parseTags,
  parseTime,
  visibilityFilter,
  type MemoryRow,
} from '../memory/model';
import { readUseMany } from '../memory/state';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import { applyBudget, loadTokenCounter, truncateText } from './budget';
import { lexicalSearch, type Filter, type LexicalHit } from './lexical';
import { finalScore, mmr, rrf, setJaccard, wordSet } from './ranking';
import type { Thresholds } from './calibration';
import type { Recognizer } from './recognizer';
import { spreadActivation } from './spreading';
import { parseQuery, queryPhrase } from './terms';
import { searchVectors, type VectorHit, type VectorIndex } from './vectorIndex';
import { injectionFlags } from '../write/injection';

export type ParsedRecall = z.output<typeof RecallArgsSchema>;

/** Compact answers carry about this many characters of each memory. */
export const COMPACT_CHARS = 320;
/** Candidates taken from each branch per requested result. */
const BRANCH_FACTOR = 3;
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

export function recallFilter(args: ParsedRecall, actor: Actor): Filter {
  const where: string[] = ['m.deleted_at IS NULL'];
  const params: unknown[] = [];
  const vis = visibilityFilter(actor);
  where.push(vis.sql);
  params.push(...vis.params);
  // Agents never see quarantined memories; a person may ask to include them.
  if (!(args.include_quarantined && isPerson(actor))) where.push(`m.trust = 'trusted'`);
  if (args.kinds && args.kinds.length > 0) {
    where.push(`m.kind IN (${args.kinds.map(() => '?').join(', ')})`);
    params.push(...args.kinds);
  }
  if (args.tags && args.tags.length > 0) {
    const tags = [...new Set(args.tags)];
    where.push(
      `m.rid IN (SELECT rid FROM memory_tag WHERE tag IN (${tags.map(() => '?').join(', ')})
                 GROUP BY rid HAVING COUNT(*) = ${tags.length})`,
    );
    params.push(...tags);
  }
  if (args.as_of) {
    const t = parseTime(args.as_of);
    where.push(
      '(m.valid_from IS NULL OR m.valid_from <= ?) AND (m.valid_to IS NULL OR m.valid_to > ?)',
    );
    params.push(t, t);
  } else if (!args.history) {
    // A memory replaced by a live one is history: hidden unless asked for (or asked about a past time).
    where.push(
      `NOT EXISTS (SELECT 1 FROM link sl JOIN memory sm ON sm.rid = sl.src
                    WHERE sl.dst = m.rid AND sl.type = 'supersedes' AND sm.deleted_at IS NULL)`,
    );
  }
  return { sql: where.join(' AND '), params };
}

interface Candidate {
  rid: number;
  lexical: LexicalHit | null;
  lexicalRank: number | null;
  vector: VectorHit | null;
  vectorRank: number | null;
  fused: number;
  spread: number;
  row?: MemoryRow;
  activation: number | null;
  retrievability: number | null;
  final: number;
}

const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

function why(c: Candidate, units: number, now: number, semantic: boolean): string {
  const parts: string[] = [];
  if (c.lexical) {
    parts.push(
      c.lexical.matched === units
        ? units === 1
          ? 'matched the query term'
          : `matched all ${units} query terms`
        : `matched ${c.lexical.matched} of ${units} query terms`,
    );
  }
  if (c.vector)
    parts.push(
      `${semantic ? 'similar in meaning' : 'similar in spelling'} (${c.vector.similarity.toFixed(2)})`,
    );
  if (c.spread > 0 && !c.lexical && !c.vector) parts.push('linked to other results');
  else if (c.spread > 0.05) parts.push('also linked to other results');
  const row = c.row as MemoryRow;
  if (row.valid_to !== null && row.valid_to <= now) parts.push(`valid until ${iso(row.valid_to)}`);
  return parts.join('; ');
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
  if (recognized.hit) {
    hydrate([recognized.hit.rid]);
    const row = rowsByRid.get(recognized.hit.rid) as MemoryRow;
    const hit = toHit(row, args, {
      score: round(recognized.hit.score, 4),
      why: `named by the query (recognised, ${recognized.hit.score.toFixed(2)} vs ${recognized.hit.runnerUp.toFixed(2)} for the next)`,
      breakdown: null,
    });
    const budget = applyBudget([hit], args.max_tokens ?? null, count);
    if (args.rehearse && budget.kept.length > 0) ctx.rehearse([row.rid], []);
    return finish({
      how: 'fastpath',
      abstained: false,
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
        results: [],
        omitted: 0,
        tokens: { used: 0, max: args.max_tokens ?? null },
      },
      ['the query has no searchable words'],
    );
  }

  // ---------------------------------------------------------------- 2. candidates
  const branchK = Math.min(100, args.limit * BRANCH_FACTOR);
  const lexical =
    units.length > 0
      ? lexicalSearch(db, units, filter, branchK, queryPhrase(args.query))
      : { hits: [], units: 0, tiersRun: 0 };
  const lexicalMs = mark('lexical');
  trace.push({
    name: 'lexical',
    ms: lexicalMs,
    items: traceItems(
      lexical.hits.map((h) => ({
        rid: h.rid,
        score: h.bm25,
        note: h.phrase ? 'the exact phrase' : `${h.matched}/${lexical.units} terms`,
      })),
    ),
    detail: { terms: lexical.units, tiers_run: lexical.tiersRun },
  });

  let vectorHits: VectorHit[] = [];
  let belowBar: VectorHit[] = [];
  let vectorDetail: Record<string, unknown> = { used: false };
  if (ctx.vectors) {
    const te = performance.now();
    const [queryVector] = await ctx.vectors.embedder.embed([args.query], 'query');
    embedMs = performance.now() - te;
    mark('embed_wall');
    const search = searchVectors(
      db,
      ctx.vectors.index,
      queryVector as Float32Array,
      branchK,
      filter,
    );
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
  const branches = ctx.vectors ? 2 : 1;
  const byRid = new Map<number, Candidate>();
  const candidate = (rid: number) => {
    let c = byRid.get(rid);
    if (!c) {
      c = {
        rid,
        lexical: null,
        lexicalRank: null,
        vector: null,
        vectorRank: null,
        fused: 0,
        spread: 0,
        activation: null,
        retrievability: null,
        final: 0,
      };
      byRid.set(rid, c);
    }
    return c;
  };
  lexical.hits.forEach((h, i) =>
    Object.assign(candidate(h.rid), { lexical: h, lexicalRank: i + 1 }),
  );
  vectorHits.forEach((h, i) => Object.assign(candidate(h.rid), { vector: h, vectorRank: i + 1 }));
  for (const c of byRid.values())
    c.fused = rrf([c.lexicalRank, c.vectorRank], ctx.config.rrf_k, branches);
  const fusedOrder = [...byRid.values()].sort((a, b) => b.fused - a.fused);
  const fusionMs = mark('fusion');
  trace.push({
    name: 'fusion',
    ms: fusionMs,
    items: traceItems(fusedOrder.map((c) => ({ rid: c.rid, score: c.fused }))),
    detail: { k: ctx.config.rrf_k },
  });

  // ---------------------------------------------------------------- 4. spreading
  const spread = spreadActivation(
    db,
    fusedOrder.slice(0, SPREAD_SEEDS).map((c) => ({ rid: c.rid, score: c.fused })),
    {
      hops: ctx.config.spread_hops,
      decay: ctx.config.spread_decay,
      maxNodes: ctx.config.spread_nodes,
    },
    filter,
  );
  for (const [rid, energy] of spread) candidate(rid).spread = energy;
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
            fused: c.fused,
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
  const bestVector = vectorDetail.best as number | null | undefined;
  const fullLexical = lexical.units >= 1 && lexical.hits.some((h) => h.matched === lexical.units);
  const anyLexical = lexical.hits.length > 0;
  // Evidence: a memory with every query term, or a vector neighbour above the bar. With
  // no vectors at all, a lexical match of enough terms is the only evidence there is.
  const strongVector = (bestVector ?? 0) >= ctx.threshold.value;
  const evidence = fullLexical || (ctx.vectors ? strongVector : anyLexical);
  const abstained = ranked.length === 0 || !evidence;
  const abstentionMs = mark('abstention');
  trace.push({
    name: 'abstention',
    ms: abstentionMs,
    items: [],
    detail: {
      abstained,
      threshold: round(ctx.threshold.value, 4),
      floor: round(ctx.threshold.floor, 4),
      threshold_source: ctx.threshold.source,
      best_similarity: bestVector ?? null,
      all_terms_matched: fullLexical,
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
            why: `near miss: ${why(c, units_, ctx.now, ctx.semantic) || 'weak match'}`,
            breakdown: breakdown(c, units_),
          }),
        ),
        ...belowBar
          .filter((h) => !byRid.has(h.rid) && rowsByRid.has(h.rid))
          .map((h) =>
            toHit(rowsByRid.get(h.rid) as MemoryRow, args, {
              score: round(h.similarity, 4),
              why: `near miss: ${ctx.semantic ? 'similarity' : 'spelling similarity'} ${h.similarity.toFixed(2)}, under the bar of ${bar}`,
              breakdown: null,
            }),
          ),
      ].slice(0, 3);
    }
    return finish({
      how: ctx.vectors ? 'hybrid' : 'lexical',
      abstained: true,
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
      return va && vb ? dot(va, vb) : setJaccard(wordsOf(a), wordsOf(b));
    },
    args.limit,
    ctx.config.mmr_lambda,
  );
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
      score: round(c.final, 4),
      why: why(c, units_, ctx.now, ctx.semantic),
      breakdown: breakdown(c, units_),
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
    how: ctx.vectors ? 'hybrid' : 'lexical',
    abstained: false,
    results: budget.kept.map(({ rid: _rid, ...hit }) => hit),
    omitted: budget.omitted,
    tokens: { used: budget.used, max: args.max_tokens ?? null },
  });
}

function breakdown(c: Candidate, units: number): ScoreBreakdown {
  return {
    lexical: c.lexical ? round(c.lexical.bm25, 4) : null,
    lexical_rank: c.lexicalRank,
    vector: c.vector ? round(c.vector.similarity, 4) : null,
    vector_rank: c.vectorRank,
    fused: round(c.fused, 4),
    spread: round(c.spread, 4),
    activation: c.activation === null ? null : round(c.activation, 4),
    retrievability: c.retrievability === null ? null : round(c.retrievability, 4),
    salience: (c.row as MemoryRow).salience,
    matched_terms: c.lexical?.matched ?? 0,
    query_terms: units,
    final: round(c.final, 4),
  };
}

function toHit(
  row: MemoryRow,
  args: ParsedRecall,
  scored: { score: number; why: string; breakdown: ScoreBreakdown | null },
): RecallHit {
  const verbose = args.format === 'verbose';
  const body = verbose
    ? { text: row.content, truncated: false }
    : truncateText(row.content, COMPACT_CHARS);
  // Signs of instructions aimed at the reader: always in verbose results, and in compact
  // ones whenever there are any, so an agent is warned by default.
  const flags = injectionFlags(`${row.title}\n${row.content}`);
  return {
    id: row.id,
    title: row.title,
    content: body.text,
    truncated: body.truncated,
    tags: parseTags(row),
    kind: row.kind,
    created_at: iso(row.created_at),
    score: scored.score,
    why: scored.why,
    pinned: row.pinned === 1,
    quarantined: row.trust === 'quarantined',
    ...(verbose || flags.length > 0 ? { flags } : {}),
    ...(verbose && scored.breakdown ? { breakdown: scored.breakdown } : {}),
  };
}
