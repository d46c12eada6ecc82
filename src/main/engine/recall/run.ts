// What one recall carries through its stages: the context and arguments, the filter and
// the query's terms, the rows read so far (each row read once), the timings, the notes
// on what was degraded, and the stage trace. A stage is a function that returns its
// value with its trace entry; `RecallRun.stage` times it and records the entry, so no
// stage writes timings or trace by hand.
import type { z } from 'zod';
import type { Actor, RecallResult, TraceStage } from '../../../shared/api';
import type { RecallArgsSchema } from '../../../shared/schemas';
import type { Config } from '../config';
import type { Embedder } from '../embed/types';
import { conflictMarks, currentFirst } from '../conflicts/store';
import { MEMORY_COLUMNS, type MemoryRow } from '../memory/model';
import type { OpenStore } from '../store/registry';
import { stmt } from '../store/statements';
import type { Thresholds } from './calibration';
import { recallFilter } from './filter';
import type { Filter } from './lexical';
import { round } from './present';
import type { Recognizer } from './recognizer';
import { parseQuery, type QueryUnit } from './terms';
import type { VectorIndex } from './vectorIndex';
import { tellCaller } from '../warnings';

export type ParsedRecall = z.output<typeof RecallArgsSchema>;

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

/** A stage's answer: its value, and what its trace entry shows (items best first). */
export interface StageOutput<T> {
  value: T;
  items: { rid: number; score: number; note?: string }[];
  detail: Record<string, unknown>;
}

/** What recall says while `n` memories wait for their vectors. */
export function notEmbeddedNote(n: number): string {
  return `${n} ${n === 1 ? 'memory is' : 'memories are'} not embedded yet; until then only their words can match`;
}

export class RecallRun {
  readonly filter: Filter;
  readonly units: QueryUnit[];
  readonly degraded: string[];
  readonly timings: Record<string, number> = {};
  private readonly trace: TraceStage[] = [];
  private readonly rows = new Map<number, MemoryRow>();
  private readonly started = performance.now();
  private last = this.started;
  /**
   * Time spent waiting for the query's embedding, reported apart (`embed_ms`), not in
   * `total_ms` (with the embedding started early, only what was left of it).
   */
  private embedMs = 0;
  private queryVector: Promise<Float32Array[]> | null = null;

  constructor(
    readonly ctx: RecallContext,
    readonly args: ParsedRecall,
  ) {
    this.degraded = [...ctx.notes];
    if (ctx.vectors && ctx.vectors.pending > 0) {
      this.degraded.push(notEmbeddedNote(ctx.vectors.pending));
    }
    this.filter = recallFilter(args, ctx.actor);
    this.units = parseQuery(args.query);
    this.mark('parse');
  }

  get db() {
    return this.ctx.store.db;
  }

  /** Records the time since the previous mark as `<name>_ms`. */
  private mark(name: string): number {
    const now = performance.now();
    const ms = round(now - this.last);
    this.timings[`${name}_ms`] = ms;
    this.last = now;
    return ms;
  }

  /** Runs one stage, timing it and recording its trace entry. */
  stage<T>(name: TraceStage['name'], run: () => StageOutput<T>): T {
    const out = run();
    this.record(name, out);
    return out.value;
  }

  async stageAsync<T>(name: TraceStage['name'], run: () => Promise<StageOutput<T>>): Promise<T> {
    const out = await run();
    this.record(name, out);
    return out.value;
  }

  private record(name: TraceStage['name'], out: StageOutput<unknown>): void {
    const ms = this.mark(name);
    this.trace.push({ name, ms, items: this.items(out.items), detail: out.detail });
  }

  /**
   * Starts the query's embedding in the worker now, so that it runs while this thread
   * recognises and searches by word; the vector stage waits for what is left of it. A
   * query the recogniser answers never asks for it (the worker did a few ms for nothing,
   * and the vector is kept for the query's next time).
   */
  prefetchQuery(): void {
    const v = this.ctx.vectors;
    if (!v || this.units.length === 0 || this.queryVector) return;
    const pending = v.embedder.embed([this.args.query], 'query');
    // Its failure is the vector stage's to report (it awaits this same promise).
    pending.catch(() => undefined);
    this.queryVector = pending;
  }

  /** The query's vector: the prefetched one, else embedded now. */
  async embedQuery(): Promise<Float32Array> {
    const v = this.ctx.vectors;
    if (!v) throw new Error('no vectors to embed the query for');
    const pending = this.queryVector ?? v.embedder.embed([this.args.query], 'query');
    const [vector] = await this.embedding(() => pending);
    return vector as Float32Array;
  }

  /** Times an embedding of the query: counted apart, and not in the stage around it. */
  async embedding<T>(run: () => Promise<T>): Promise<T> {
    const t = performance.now();
    const value = await run();
    const now = performance.now();
    this.embedMs += now - t;
    this.last += now - t;
    return value;
  }

  /** Reads the rows of these memories that are not read yet. */
  hydrate(rids: readonly number[]): void {
    const missing = rids.filter((r) => !this.rows.has(r));
    if (missing.length === 0) return;
    for (const row of stmt(
      this.db,
      `SELECT ${MEMORY_COLUMNS} FROM memory m WHERE m.rid IN (${missing.map(() => '?').join(', ')})`,
    ).all(...missing) as MemoryRow[]) {
      this.rows.set(row.rid, row);
    }
  }

  row(rid: number): MemoryRow | undefined {
    return this.rows.get(rid);
  }

  /** The rows of these memories (read now where needed), those that exist. */
  rowsOf(rids: readonly number[]): Map<number, MemoryRow> {
    this.hydrate(rids);
    return new Map(
      rids.flatMap((r) => (this.rows.has(r) ? [[r, this.rows.get(r) as MemoryRow]] : [])),
    );
  }

  /** Whether a memory passes this recall's filter (visibility, kinds, tags, times…). */
  passes(rid: number): boolean {
    return (
      stmt(this.db, `SELECT 1 FROM memory m WHERE m.rid = ? AND ${this.filter.sql}`).get(
        rid,
        ...this.filter.params,
      ) !== undefined
    );
  }

  /** Trace items (only with `explain`): the first 30, with id and title. */
  private items(list: StageOutput<unknown>['items']): TraceStage['items'] {
    if (!this.args.explain) return [];
    const top = list.slice(0, 30);
    this.hydrate(top.map((i) => i.rid));
    return top.map((i) => ({
      id: this.rows.get(i.rid)?.id ?? String(i.rid),
      title: this.rows.get(i.rid)?.title ?? '',
      score: round(i.score, 4),
      ...(i.note ? { note: i.note } : {}),
    }));
  }

  /**
   * Older versions the answer leaves out: memories superseded by a live one (hidden
   * unless `history` or `as_of` is asked for) that hold every searchable word of the query
   * or were replaced by a memory in the answer — so that "nothing found" is never said
   * of what was only superseded.
   */
  private hiddenVersions(resultIds: readonly string[]): number {
    if (this.args.history || this.args.as_of) return 0;
    const words = this.units.filter((u) => !u.stopword);
    const match = (words.length ? words : this.units).map((u) => `(${u.expr})`).join(' AND ');
    if (!match && resultIds.length === 0) return 0;
    const all = recallFilter({ ...this.args, history: true }, this.ctx.actor);
    const marks = resultIds.map(() => '?').join(', ');
    const which = [
      ...(resultIds.length ? [`sm.id IN (${marks})`] : []),
      ...(match ? ['m.rid IN (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?)'] : []),
    ].join(' OR ');
    const row = stmt(
      this.db,
      `SELECT COUNT(DISTINCT m.rid) AS n FROM memory m
         JOIN link sl ON sl.dst = m.rid AND sl.type = 'supersedes'
         JOIN memory sm ON sm.rid = sl.src AND sm.deleted_at IS NULL
        WHERE ${all.sql} AND (${which})`,
    ).get(...all.params, ...resultIds, ...(match ? [match] : [])) as { n: number };
    return row.n;
  }

  /** The answer, with the timings, what was degraded and (with `explain`) the trace. */
  finish(
    result: Omit<RecallResult, 'store' | 'semantic' | 'timings' | 'degraded' | 'trace'>,
    extra: string[] = [],
  ): RecallResult {
    this.timings.total_ms = round(performance.now() - this.started - this.embedMs);
    if (this.embedMs > 0) this.timings.embed_ms = round(this.embedMs);
    const hidden = this.hiddenVersions(result.results.map((h) => h.id));
    // Open contradictions among the results: each says which of the two holds now, and
    // the one that holds ranks first.
    const marks = conflictMarks(
      this.ctx.store,
      this.ctx.actor,
      result.results.map((h) => h.id),
    );
    const results = marks.size
      ? currentFirst(
          result.results.map((h) => {
            const m = marks.get(h.id);
            return m ? { ...h, conflicts_with: m } : h;
          }),
        )
      : result.results;
    const degraded = [...this.degraded, ...extra];
    // Said to the caller as it happens too (MCP log notifications), not only in the answer.
    for (const note of degraded) tellCaller('warning', `recall: ${note}`);
    const out: RecallResult = {
      store: this.ctx.store.name,
      semantic: this.ctx.semantic ? 'on' : 'off',
      ...result,
      results,
      ...(hidden > 0 ? { hidden_versions: hidden } : {}),
      degraded,
      timings: this.timings,
    };
    if (this.args.explain) {
      out.trace = {
        query: this.args.query,
        terms: this.units.map((u) => u.text),
        stages: this.trace,
      };
    }
    return out;
  }
}
