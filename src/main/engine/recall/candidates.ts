// Stage 3 of recall: one relevance per candidate from its branches (DESIGN.md §6, step 2).
// Lexical and vector scores are fused (a weighted sum of the BM25 score relative to the
// best match and the cosine similarity, or reciprocal rank fusion), then the conversation
// signals apply: a speaker the query names, a time it names, and the neighbours of each
// match in its session, which borrow part of its relevance (and join the candidates).
import type { Config } from '../config';
import { eventTime, type MemoryRow } from '../memory/model';
import type { Db } from '../store/database';
import { sessionNeighbours } from './conversation';
import type { Filter, LexicalHit } from './lexical';
import { rrf } from './ranking';
import { timeFit, type TimeCues } from './timeQuery';
import type { VectorHit } from './vectorIndex';

export interface Candidate {
  rid: number;
  lexical: LexicalHit | null;
  lexicalRank: number | null;
  vector: VectorHit | null;
  vectorRank: number | null;
  /** Cosine similarity to the query when known (a vector hit, or computed for a neighbour). */
  similarity: number | null;
  /** Branch fusion before the conversation signals. */
  fused: number;
  /** The query names its speaker. */
  speaker: boolean;
  /** How well when it happened fits a time the query names (0–1). */
  time: number;
  /** Relevance lent by a matching neighbour in its session. */
  neighbour: number;
  /** Relevance after every signal, 0–1 (the best candidate is 1). */
  relevance: number;
  spread: number;
  row?: MemoryRow;
  activation: number | null;
  retrievability: number | null;
  final: number;
  /** Probability that it is one of the memories asked for (set once ranked). */
  confidence: number;
}

/** Candidates whose neighbours are looked up: the best few (two index seeks each). */
const NEIGHBOUR_SEEDS = 30;
/** How much the newest of the candidates gains over the oldest when the query says "recently". */
const RECENCY_BOOST = 0.3;

export interface FusionInput {
  db: Db;
  filter: Filter;
  lexical: LexicalHit[];
  vectors: VectorHit[];
  /** Whether vector similarity means meaning (a model) or spelling (the hashing fallback). */
  semantic: boolean;
  config: Config['recall'];
  speakers: Set<string>;
  time: TimeCues;
  /** Reads rows (hydrated in bulk) and stored vectors' similarities for new neighbours. */
  rows: (rids: number[]) => Map<number, MemoryRow>;
  similarities: (rids: number[]) => Map<number, number>;
}

export function emptyCandidate(rid: number): Candidate {
  return {
    rid,
    lexical: null,
    lexicalRank: null,
    vector: null,
    vectorRank: null,
    similarity: null,
    fused: 0,
    speaker: false,
    time: 0,
    neighbour: 0,
    relevance: 0,
    spread: 0,
    activation: null,
    retrievability: null,
    final: 0,
    confidence: 0,
  };
}

export function fuseCandidates(input: FusionInput): Map<number, Candidate> {
  const { config } = input;
  const byRid = new Map<number, Candidate>();
  const candidate = (rid: number) => {
    let c = byRid.get(rid);
    if (!c) {
      c = emptyCandidate(rid);
      byRid.set(rid, c);
    }
    return c;
  };
  input.lexical.forEach((h, i) =>
    Object.assign(candidate(h.rid), { lexical: h, lexicalRank: i + 1 }),
  );
  input.vectors.forEach((h, i) =>
    Object.assign(candidate(h.rid), { vector: h, vectorRank: i + 1, similarity: h.similarity }),
  );
  const hasVectors = input.vectors.length > 0;
  const vectorWeight = !hasVectors
    ? 0
    : input.semantic
      ? config.vector_weight
      : config.spelling_weight;
  const bestLexical = input.lexical.reduce((m, h) => Math.max(m, h.score), 0);
  const fuse = (c: Candidate) => {
    if (config.fusion === 'rrf') {
      return rrf([c.lexicalRank, c.vectorRank], config.rrf_k, hasVectors ? 2 : 1);
    }
    const lex = c.lexical && bestLexical > 0 ? c.lexical.score / bestLexical : 0;
    return (1 - vectorWeight) * lex + vectorWeight * Math.max(0, c.similarity ?? 0);
  };

  const rows = input.rows([...byRid.keys()]);
  const signals = (c: Candidate, row: MemoryRow | undefined) => {
    c.fused = fuse(c);
    c.speaker = row?.speaker != null && input.speakers.has(row.speaker);
    c.time = row && input.time.windows.length > 0 ? timeFit(eventTime(row), input.time.windows) : 0;
    return c.fused * (c.speaker ? 1 + config.speaker_boost : 1) * (1 + config.time_boost * c.time);
  };
  const base = new Map<number, number>();
  for (const c of byRid.values()) base.set(c.rid, signals(c, rows.get(c.rid)));

  // Neighbours in a session borrow from the best matches next to them.
  if (config.neighbour_weight > 0) {
    const seeds = [...base.entries()]
      .filter(([, b]) => b > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, NEIGHBOUR_SEEDS);
    const links = sessionNeighbours(
      input.db,
      seeds.map(([rid]) => rid),
      input.filter,
    );
    const fresh = [...new Set(links.map((l) => l.rid).filter((rid) => !byRid.has(rid)))];
    if (fresh.length > 0) {
      const freshRows = input.rows(fresh);
      const sims = hasVectors ? input.similarities(fresh) : new Map<number, number>();
      for (const rid of fresh) {
        const c = candidate(rid);
        c.similarity = sims.get(rid) ?? null;
        base.set(rid, signals(c, freshRows.get(rid)));
        rows.set(rid, freshRows.get(rid) as MemoryRow);
      }
    }
    for (const l of links) {
      const lent = config.neighbour_weight * (base.get(l.of) ?? 0);
      const c = byRid.get(l.rid) as Candidate;
      if (lent > c.neighbour) c.neighbour = lent;
    }
  }

  // "Recently": among the candidates, the newer the better.
  let recency = (_rid: number) => 0;
  if (input.time.recent) {
    const times = [...byRid.keys()].map((rid) => {
      const row = rows.get(rid);
      return row ? eventTime(row) : 0;
    });
    const lo = Math.min(...times);
    const hi = Math.max(...times);
    if (hi > lo) {
      recency = (rid) => {
        const row = rows.get(rid);
        return row ? (RECENCY_BOOST * (eventTime(row) - lo)) / (hi - lo) : 0;
      };
    }
  }

  let best = 0;
  for (const c of byRid.values()) {
    c.relevance = ((base.get(c.rid) ?? 0) + c.neighbour) * (1 + recency(c.rid));
    best = Math.max(best, c.relevance);
  }
  if (best > 0) for (const c of byRid.values()) c.relevance /= best;
  return byRid;
}
