// Dream cycles for the engine: runs phases in order (plan → dry-run report → apply, each
// apply one transaction with its report row and audit entry), one cycle per store at a
// time, cancellable between slices; the inbox decisions; and the idle-time scheduler.
// Planning yields to the event loop, so a dream never holds up a recall for long.
import type {
  Actor,
  DreamCancelResult,
  DreamChange,
  DreamListResult,
  DreamPhaseName,
  DreamPhaseReport,
  DreamReport,
  ParsedArgs,
  ReviewDecideResult,
  ReviewKind,
  ReviewListResult,
} from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import type { MemoryChange } from '../../../shared/events';
import { DREAM_PHASES, REVIEW_KINDS } from '../../../shared/schemas';
import type { Config } from '../config';
import type { EngineEvents } from '../events';
import { actorName, iso } from '../memory/model';
import type { CreatedMemory } from '../memory/remember';
import type { OpenStore } from '../store/registry';
import { createLlmClient, llmSettings } from '../llm';
import { PHASES } from './phases/index';
import {
  finishReport,
  insertReport,
  listReports,
  loadReport,
  markInterrupted,
  savePhases,
  toSummary,
} from './reports';
import { acceptReviews, countReviews, insertProposals, listReviews, rejectReviews } from './review';
import { DREAM_ACTOR, type LlmClient, type PhaseContext } from './types';

/** Changes listed per phase in a report (the count is always complete). */
const LISTED_CHANGES = 200;
/** Slices of planning work between two yields to the event loop, at least this far apart. */
const SLICE_MS = 8;

export interface DreamHost {
  config: Config;
  events: EngineEvents;
  now: () => number;
  newId: () => string;
  env: Record<string, string | undefined>;
  store(name: string | undefined): Promise<OpenStore>;
  /** Writes pending rehearsals first, so replay sees every use. */
  flush(): Promise<void>;
  created(store: OpenStore, created: CreatedMemory[], actor: Actor): Promise<void>;
  changed(store: OpenStore, ids: string[], change: MemoryChange, actor: Actor): void;
  /** Nearest by meaning (the contradict phase). */
  nearestTo(store: OpenStore, rid: number, k: number): number[];
  /** Conflicts a phase recorded (their ids, and `newer->older` pairs): events follow. */
  conflictsFound(store: OpenStore, ids: string[], pairs: string[]): void;
}

export interface DreamHooks {
  /** Test seam: runs inside a phase's transaction, after its changes, before commit. */
  insidePhase?: (phase: DreamPhaseName) => void;
  /** Replaces fetch for the language model (tests use a local server instead). */
  fetch?: typeof fetch;
}

class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

interface Running {
  id: string;
  store: string;
  dryRun: boolean;
  phase: DreamPhaseName | null;
  cancelled: boolean;
}

export class DreamService {
  private readonly running = new Map<string, Running>();
  private lastActivity: number;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly host: DreamHost,
    private readonly hooks: DreamHooks = {},
  ) {
    this.lastActivity = host.now();
  }

  /** A call that used the store: scheduled dreams wait for idle time after it. */
  noteActivity(): void {
    this.lastActivity = this.host.now();
  }

  private get cfg(): Config['dream'] {
    return this.host.config.dream;
  }

  private llm(): LlmClient | null {
    return createLlmClient(llmSettings(this.host.config), this.host.env, this.hooks.fetch);
  }

  /** A dream cycle runs. */
  get working(): boolean {
    return this.running.size > 0;
  }

  private runningIn(store: string): Running | undefined {
    return [...this.running.values()].find((r) => r.store === store);
  }

  async run(
    args: ParsedArgs<'dream.run'>,
    actor: Actor,
    trigger: 'manual' | 'idle' = 'manual',
  ): Promise<DreamReport> {
    const store = await this.host.store(args.store);
    const busy = this.runningIn(store.name);
    if (busy) {
      throw new LociError(
        'conflict',
        `A dream (${busy.id}) is already running in store "${store.name}"; wait for it or cancel it (dream.cancel).`,
        { id: busy.id },
      );
    }
    await this.host.flush();
    const now = this.host.now();
    const id = args.id ?? this.host.newId();
    const dryRun = args.dry_run;
    const wanted = new Set<DreamPhaseName>(args.phases ?? DREAM_PHASES);
    const names = DREAM_PHASES.filter((p) => wanted.has(p));
    const state: Running = { id, store: store.name, dryRun, phase: null, cancelled: false };
    store.db.transaction(() => {
      markInterrupted(store, new Set(this.running.keys()), now);
      insertReport(store, { id, now, dryRun, trigger, actor: actorName(actor) });
    })();
    this.running.set(id, state);
    const emit = (
      step: 'started' | 'phase' | 'progress' | 'phase-done',
      phaseIndex: number,
      done: number | null = null,
      total: number | null = null,
    ) =>
      this.host.events.emit('dream.progressed', {
        store: store.name,
        cycle: id,
        dry_run: dryRun,
        step,
        phase: state.phase,
        phase_index: phaseIndex,
        phases: names.length,
        done,
        total,
      });
    emit('started', 0);
    const reports: DreamPhaseReport[] = [];
    let status: DreamReport['status'] = 'done';
    let error: string | null = null;
    const llm = this.llm();
    const shared: PhaseContext['shared'] = {};
    try {
      for (const [index, name] of names.entries()) {
        if (state.cancelled || this.closed) throw new Cancelled();
        state.phase = name;
        emit('phase', index);
        const started = performance.now();
        let sliceStart = performance.now();
        let lastProgress = 0;
        const ctx: PhaseContext = {
          store,
          config: this.cfg,
          now,
          cycle: id,
          dryRun,
          llm,
          shared,
          newId: this.host.newId,
          nearestTo: (rid, k) => this.host.nearestTo(store, rid, k),
          minConflictConfidence: this.host.config.conflicts.min_confidence,
          yield: async () => {
            if (state.cancelled || this.closed) throw new Cancelled();
            if (performance.now() - sliceStart < SLICE_MS) return;
            await new Promise<void>((resolve) => setImmediate(resolve));
            sliceStart = performance.now();
            if (state.cancelled || this.closed) throw new Cancelled();
          },
          progress: (done, total) => {
            const t = performance.now();
            if (t - lastProgress < 250) return;
            lastProgress = t;
            emit('progress', index, done, total);
          },
        };
        const report: DreamPhaseReport = {
          phase: name,
          status: 'done',
          examined: 0,
          changes: [],
          changes_total: 0,
          proposals: 0,
          notes: [],
          duration_ms: 0,
        };
        try {
          const plan = await PHASES[name].plan(ctx);
          if (state.cancelled || this.closed) throw new Cancelled();
          report.examined = plan.examined;
          report.notes = plan.notes;
          let proposed: { id: string; kind: ReviewKind }[] = [];
          let applied: DreamChange[] = plan.changes;
          if (dryRun) {
            report.proposals = plan.proposals.length;
            fill(report, applied, started);
            reports.push(report);
            savePhases(store, id, reports);
          } else {
            store.db.transaction(() => {
              applied = PHASES[name].apply(ctx, plan as never);
              proposed = insertProposals(store, plan.proposals, id, now, this.host.newId);
              report.proposals = proposed.length;
              if (applied.length > 0 || proposed.length > 0) {
                store.audit.append(
                  {
                    actor: 'dream',
                    action: `dream.${name}`,
                    target: id,
                    data: {
                      changes: applied.length,
                      proposals: proposed.length,
                      kinds: [...new Set(applied.map((c) => c.kind))].sort(),
                      digest: store.audit.fingerprint(
                        applied.map((c) => [c.kind, c.target, c.after]),
                      ),
                    },
                  },
                  now,
                );
              }
              fill(report, applied, started);
              this.hooks.insidePhase?.(name);
              savePhases(store, id, [...reports, report]);
            })();
            reports.push(report);
            await this.afterPhase(store, applied, proposed);
          }
        } catch (err) {
          report.duration_ms = round(performance.now() - started);
          if (err instanceof Cancelled) {
            report.status = 'cancelled';
            reports.push(report);
            throw err;
          }
          report.status = 'failed';
          report.notes = [
            ...report.notes,
            `Failed, nothing of this phase was kept: ${(err as Error)?.message ?? String(err)}`,
          ];
          reports.push(report);
          throw err;
        }
        emit('phase-done', index);
      }
    } catch (err) {
      if (err instanceof Cancelled) status = 'cancelled';
      else {
        status = 'failed';
        error = (err as Error)?.message ?? String(err);
      }
    } finally {
      this.running.delete(id);
      state.phase = null;
      try {
        finishReport(store, id, status, reports, error, this.host.now());
      } catch {
        /* the store closed under us: the row stays `running` and is marked interrupted next time */
      }
      const report = toReportSafe(store, id);
      this.host.events.emit('dream.finished', {
        store: store.name,
        cycle: id,
        dry_run: dryRun,
        status,
        changes: report?.totals.changes ?? 0,
        proposals: report?.totals.proposals ?? 0,
      });
    }
    return loadReport(store, id);
  }

  /** After a phase committed: events, and the proposals whose kind is auto-accepted. */
  private async afterPhase(
    store: OpenStore,
    applied: DreamChange[],
    proposed: { id: string; kind: ReviewKind }[],
  ): Promise<void> {
    const found = applied.filter((c) => c.kind === 'conflict');
    if (found.length) {
      this.host.conflictsFound(
        store,
        found.map((c) => (c.after as { conflict: string }).conflict),
        found.map((c) => c.target),
      );
    }
    const forgotten = applied.filter((c) => c.kind === 'forget').map((c) => c.target);
    if (forgotten.length) this.host.changed(store, forgotten, 'forgotten', DREAM_ACTOR);
    for (const c of applied.filter((x) => x.kind === 'link').slice(0, 200)) {
      const [from, to] = c.target.split('->') as [string, string];
      this.host.events.emit('link.changed', {
        store: store.name,
        from,
        to,
        change: 'created',
        actor: 'dream',
      });
    }
    if (proposed.length === 0) return;
    this.host.events.emit('review.changed', {
      store: store.name,
      ids: proposed.map((p) => p.id),
      state: 'pending',
    });
    const auto = proposed.filter((p) => this.cfg.auto_accept[p.kind]).map((p) => p.id);
    if (auto.length > 0) await this.accept(store, auto, undefined, DREAM_ACTOR);
  }

  cancel(args: ParsedArgs<'dream.cancel'>): DreamCancelResult {
    const target = args.id ? this.running.get(args.id) : [...this.running.values()][0];
    if (!target) return { id: args.id ?? null, cancelled: false };
    target.cancelled = true;
    return { id: target.id, cancelled: true };
  }

  async list(args: ParsedArgs<'dream.list'>): Promise<DreamListResult> {
    const store = await this.host.store(args.store);
    markInterrupted(store, new Set(this.running.keys()), this.host.now());
    const cycles = listReports(store, args.limit).map(toSummary);
    const last = this.lastApplied(store);
    const running = this.runningIn(store.name);
    const cfg = this.cfg;
    return {
      store: store.name,
      cycles,
      running: running ? { id: running.id, phase: running.phase, dry_run: running.dryRun } : null,
      schedule: {
        enabled: cfg.schedule,
        idle_minutes: cfg.idle_minutes,
        interval_hours: cfg.interval_hours,
        last_cycle_at: last === null ? null : iso(last),
        next_eligible_at: cfg.schedule ? iso((last ?? 0) + cfg.interval_hours * 3_600_000) : null,
        llm: (() => {
          const llm = llmSettings(this.host.config);
          return { configured: llm.url !== undefined, model: llm.url ? llm.model : null };
        })(),
        auto_accept: Object.fromEntries(REVIEW_KINDS.map((k) => [k, cfg.auto_accept[k]])) as Record<
          ReviewKind,
          boolean
        >,
      },
      pending_reviews: countReviews(store).pending,
    };
  }

  async get(args: ParsedArgs<'dream.get'>): Promise<DreamReport> {
    return loadReport(await this.host.store(args.store), args.id);
  }

  async reviewList(args: ParsedArgs<'review.list'>): Promise<ReviewListResult> {
    return listReviews(await this.host.store(args.store), args);
  }

  async reviewAccept(args: ParsedArgs<'review.accept'>, actor: Actor): Promise<ReviewDecideResult> {
    return this.accept(await this.host.store(args.store), args.ids, args.edit, actor);
  }

  private async accept(
    store: OpenStore,
    ids: string[],
    edit: ParsedArgs<'review.accept'>['edit'],
    actor: Actor,
  ): Promise<ReviewDecideResult> {
    const out = await acceptReviews(store, ids, edit, actor, this.host.now(), this.host.newId);
    if (out.created.length) await this.host.created(store, out.created, actor);
    if (out.updated.length) this.host.changed(store, out.updated, 'updated', actor);
    if (out.forgotten.length) this.host.changed(store, out.forgotten, 'forgotten', actor);
    for (const l of out.links)
      this.host.events.emit('link.changed', {
        store: store.name,
        ...l,
        change: 'created',
        actor: actorName(actor),
      });
    this.host.events.emit('review.changed', {
      store: store.name,
      ids: out.result.results.map((r) => r.id),
      state: 'accepted',
    });
    return out.result;
  }

  async reviewReject(args: ParsedArgs<'review.reject'>, actor: Actor): Promise<ReviewDecideResult> {
    const store = await this.host.store(args.store);
    const result = rejectReviews(store, args.ids, args.reason, actor, this.host.now());
    this.host.events.emit('review.changed', {
      store: store.name,
      ids: result.results.map((r) => r.id),
      state: 'rejected',
    });
    return result;
  }

  private lastApplied(store: OpenStore): number | null {
    const row = store.db
      .prepare(
        `SELECT MAX(finished_at) AS t FROM dream_report WHERE dry_run = 0 AND status IN ('done', 'cancelled', 'failed', 'interrupted')`,
      )
      .get() as { t: number | null };
    return row.t;
  }

  /**
   * Scheduled dreams (the daemon and the app call this): every `tickMs`, when idle for
   * `idle_minutes` and the store's last cycle is `interval_hours` old, one cycle runs.
   */
  startSchedule(stores: () => string[] = () => ['default'], tickMs = 60_000): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(stores()).catch(() => undefined), tickMs);
    this.timer.unref();
  }

  /** One look at the schedule; returns the cycle it ran, if any. */
  async tick(stores: string[]): Promise<DreamReport | null> {
    const cfg = this.cfg;
    if (!cfg.schedule || this.closed || this.running.size > 0) return null;
    const now = this.host.now();
    if (now - this.lastActivity < cfg.idle_minutes * 60_000) return null;
    for (const name of stores) {
      const store = await this.host.store(name);
      const last = this.lastApplied(store);
      if (last !== null && now - last < cfg.interval_hours * 3_600_000) continue;
      return this.run({ store: name, dry_run: false }, DREAM_ACTOR, 'idle');
    }
    return null;
  }

  /** Stops the scheduler and any running cycle (at its next slice), and waits for it. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const r of this.running.values()) r.cancelled = true;
    const deadline = Date.now() + 10_000;
    while (this.running.size > 0 && Date.now() < deadline) {
      await new Promise<void>((resolve) => setTimeout(resolve, 5));
    }
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function fill(report: DreamPhaseReport, changes: DreamChange[], started: number): void {
  report.changes = changes.slice(0, LISTED_CHANGES);
  report.changes_total = changes.length;
  report.duration_ms = round(performance.now() - started);
}

function toReportSafe(store: OpenStore, id: string): DreamReport | null {
  try {
    return loadReport(store, id);
  } catch {
    return null;
  }
}
