// The quality lab (`eval.*`): recalls a person marked become cases in the store
// (`eval_case`), and a run replays each case's query through the real recall pipeline —
// under the store's ranking or a changed one — and keeps the scores (`eval_run`) so the
// trend over time and the paired difference of two configurations can be shown.
// Runs never rehearse: measuring recall must not change what recall returns next.
import { monotonicFactory } from 'ulidx';
import type { Actor } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type {
  EvalCase,
  EvalCaseMemory,
  EvalCasesResult,
  EvalConfig,
  EvalOutcome,
  EvalRemoveResult,
  EvalRunResult,
  EvalRunsResult,
  EvalRunView,
  EvalSummary,
} from '../../../shared/eval';
import type { ParsedArgs } from '../../../shared/api';
import { RecallArgsSchema } from '../../../shared/schemas';
import type { Config } from '../config';
import type { Engine } from '../engine';
import { actorName, iso, isPerson } from '../memory/model';
import { recall } from '../recall/recall';
import type { OpenStore } from '../store/registry';
import {
  describeConfig,
  differenceOf,
  EVAL_DEPTH,
  scoreCase,
  summarizeOutcomes,
  type CaseForScoring,
} from './score';

interface CaseRow {
  id: string;
  query: string;
  expected: string;
  wrong: string;
  note: string | null;
  source_call: number | null;
  actor: string;
  created_at: number;
  updated_at: number;
}

interface RunRow {
  id: string;
  at: number;
  actor: string;
  label: string;
  config: string;
  cases: number;
  summary: string;
}

type Lab = Pick<Engine, 'store' | 'semantic' | 'config' | 'now' | 'events'>;

const newId = monotonicFactory();

function requirePerson(actor: Actor, what: string): void {
  if (!isPerson(actor)) {
    throw new LociError('forbidden', `Only a person (the observatory or the CLI) can ${what}.`);
  }
}

/** The store's ranking with a run's changes applied. */
export function mergeRecallConfig(base: Config['recall'], change: EvalConfig): Config['recall'] {
  const defined = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  const { weights, ...rest } = change;
  return { ...base, ...defined(rest), weights: { ...base.weights, ...defined(weights ?? {}) } };
}

export class QualityLab {
  constructor(private readonly engine: Lab) {}

  async mark(args: ParsedArgs<'eval.mark'>, actor: Actor): Promise<EvalCase> {
    requirePerson(actor, 'mark recalls for the quality lab');
    const store = await this.engine.store(args.store);
    for (const id of [...args.missed, ...args.wrong]) {
      const row = store.db.prepare('SELECT deleted_at FROM memory WHERE id = ?').get(id) as
        { deleted_at: number | null } | undefined;
      if (!row) throw new LociError('not-found', `No memory ${id} in store "${store.name}".`);
      if (row.deleted_at !== null)
        throw new LociError(
          'invalid-args',
          `Memory ${id} is forgotten: restore it before marking it for the quality lab.`,
        );
    }
    const now = this.engine.now();
    const query = args.query.trim();
    const id = store.db.transaction(() => {
      const existing = store.db.prepare('SELECT * FROM eval_case WHERE query = ?').get(query) as
        CaseRow | undefined;
      if (!existing) {
        const caseId = newId(now);
        store.db
          .prepare(
            `INSERT INTO eval_case (id, query, expected, wrong, note, source_call, actor, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            caseId,
            query,
            JSON.stringify(unique(args.missed)),
            JSON.stringify(unique(args.wrong)),
            args.note ?? null,
            args.call_id ?? null,
            actorName(actor),
            now,
            now,
          );
        return caseId;
      }
      // A later mark wins: a memory marked wrong stops being expected, and the reverse.
      const expected = unique([
        ...(JSON.parse(existing.expected) as string[]).filter((m) => !args.wrong.includes(m)),
        ...args.missed,
      ]);
      const wrong = unique([
        ...(JSON.parse(existing.wrong) as string[]).filter((m) => !args.missed.includes(m)),
        ...args.wrong,
      ]);
      store.db
        .prepare(
          `UPDATE eval_case SET expected = ?, wrong = ?, note = COALESCE(?, note),
             source_call = COALESCE(?, source_call), updated_at = ? WHERE id = ?`,
        )
        .run(
          JSON.stringify(expected),
          JSON.stringify(wrong),
          args.note ?? null,
          args.call_id ?? null,
          now,
          existing.id,
        );
      return existing.id;
    })();
    this.engine.events.emit('eval.changed', { store: store.name, change: 'marked' });
    const row = store.db.prepare('SELECT * FROM eval_case WHERE id = ?').get(id) as CaseRow;
    return this.view(store, row);
  }

  async cases(args: ParsedArgs<'eval.cases'>): Promise<EvalCasesResult> {
    const store = await this.engine.store(args.store);
    const rows = store.db
      .prepare('SELECT * FROM eval_case ORDER BY created_at, id')
      .all() as CaseRow[];
    return { store: store.name, cases: rows.map((r) => this.view(store, r)) };
  }

  async remove(args: ParsedArgs<'eval.remove'>, actor: Actor): Promise<EvalRemoveResult> {
    requirePerson(actor, 'remove quality-lab cases');
    const store = await this.engine.store(args.store);
    const { changes } = store.db.prepare('DELETE FROM eval_case WHERE id = ?').run(args.id);
    if (changes === 0)
      throw new LociError('not-found', `No eval case ${args.id} in store "${store.name}".`);
    this.engine.events.emit('eval.changed', { store: store.name, change: 'removed' });
    return { store: store.name, id: args.id, removed: true };
  }

  async run(args: ParsedArgs<'eval.run'>, actor: Actor): Promise<EvalRunResult> {
    requirePerson(actor, 'run the quality lab');
    const store = await this.engine.store(args.store);
    const rows = store.db
      .prepare('SELECT * FROM eval_case ORDER BY created_at, id')
      .all() as CaseRow[];
    if (rows.length === 0) {
      throw new LociError(
        'invalid-args',
        `Store "${store.name}" has no eval cases yet: mark recalls in the observatory's Activity view ("this recall missed…", "this one was wrong") first.`,
      );
    }
    const live = this.liveIds(store, rows);
    const scoring: CaseForScoring[] = [];
    let skipped = 0;
    for (const r of rows) {
      const c = {
        id: r.id,
        expected: (JSON.parse(r.expected) as string[]).filter((m) => live.has(m)),
        wrong: (JSON.parse(r.wrong) as string[]).filter((m) => live.has(m)),
      };
      if (c.expected.length + c.wrong.length === 0) skipped++;
      else scoring.push(c);
    }
    const queries = new Map(rows.map((r) => [r.id, r.query]));
    const once = async (change: EvalConfig, label: string | undefined) => {
      const outcomes = await this.replay(store, actor, scoring, queries, change);
      const view: EvalRunView = {
        id: null,
        at: iso(this.engine.now()),
        actor: actorName(actor),
        label: label ?? describeConfig(change),
        config: change,
        cases: scoring.length,
        summary: summarizeOutcomes(outcomes, skipped),
      };
      return { view, outcomes };
    };
    const first = await once(args.config ?? {}, args.label);
    const second = args.against ? await once(args.against, args.against_label) : null;
    if (args.save) {
      store.db.transaction(() => {
        for (const r of second ? [first, second] : [first]) r.view.id = this.save(store, r);
      })();
      this.engine.events.emit('eval.changed', { store: store.name, change: 'ran' });
    }
    return {
      store: store.name,
      run: first.view,
      outcomes: first.outcomes,
      against: second?.view ?? null,
      against_outcomes: second?.outcomes ?? null,
      difference: second ? differenceOf(first.outcomes, second.outcomes) : null,
    };
  }

  async runs(args: ParsedArgs<'eval.runs'>): Promise<EvalRunsResult> {
    const store = await this.engine.store(args.store);
    const rows = store.db
      .prepare(
        `SELECT id, at, actor, label, config, cases, summary FROM
           (SELECT * FROM eval_run ORDER BY at DESC, id DESC LIMIT ?) ORDER BY at, id`,
      )
      .all(args.limit) as RunRow[];
    return {
      store: store.name,
      runs: rows.map((r) => ({
        id: r.id,
        at: iso(r.at),
        actor: r.actor,
        label: r.label,
        config: JSON.parse(r.config) as EvalConfig,
        cases: r.cases,
        summary: JSON.parse(r.summary) as EvalSummary,
      })),
    };
  }

  private async replay(
    store: OpenStore,
    actor: Actor,
    cases: CaseForScoring[],
    queries: Map<string, string>,
    change: EvalConfig,
  ): Promise<EvalOutcome[]> {
    const config = mergeRecallConfig(this.engine.config.recall, change);
    const ctx = await this.engine.semantic.recallContext(
      store,
      actor,
      this.engine.now(),
      () => {},
      config,
    );
    const outcomes: EvalOutcome[] = [];
    for (const c of cases) {
      const result = await recall(
        ctx,
        RecallArgsSchema.parse({ query: queries.get(c.id), limit: EVAL_DEPTH, rehearse: false }),
      );
      outcomes.push(
        scoreCase(
          c,
          result.results.map((h) => h.id),
        ),
      );
    }
    return outcomes;
  }

  private save(store: OpenStore, r: { view: EvalRunView; outcomes: EvalOutcome[] }): string {
    const id = newId(this.engine.now());
    store.db
      .prepare(
        `INSERT INTO eval_run (id, at, actor, label, config, cases, summary, outcomes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        Date.parse(r.view.at),
        r.view.actor,
        r.view.label,
        JSON.stringify(r.view.config),
        r.view.cases,
        JSON.stringify(r.view.summary),
        JSON.stringify(r.outcomes),
      );
    return id;
  }

  /** The memories named by these cases that are still live (not forgotten, not erased). */
  private liveIds(store: OpenStore, rows: CaseRow[]): Set<string> {
    const ids = unique(
      rows.flatMap((r) => [...(JSON.parse(r.expected) as string[]), ...JSON.parse(r.wrong)]),
    ) as string[];
    const live = new Set<string>();
    const q = store.db.prepare('SELECT 1 FROM memory WHERE id = ? AND deleted_at IS NULL');
    for (const id of ids) if (q.get(id)) live.add(id);
    return live;
  }

  private view(store: OpenStore, row: CaseRow): EvalCase {
    const q = store.db.prepare('SELECT title, deleted_at FROM memory WHERE id = ?');
    const memory = (id: string): EvalCaseMemory => {
      const m = q.get(id) as { title: string; deleted_at: number | null } | undefined;
      return { id, title: m?.title ?? null, gone: !m || m.deleted_at !== null };
    };
    return {
      id: row.id,
      query: row.query,
      expected: (JSON.parse(row.expected) as string[]).map(memory),
      wrong: (JSON.parse(row.wrong) as string[]).map(memory),
      note: row.note,
      call_id: row.source_call,
      actor: row.actor,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
