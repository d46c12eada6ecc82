// Runs every check of one store and applies a safe fix by check id. The report's status
// is the worst of its checks; a check that throws is reported as a failure of its own,
// never as a crash of the whole doctor.
import { statfs } from 'node:fs/promises';
import type { DoctorCheck, DoctorFixResult, DoctorReport, DoctorStatus } from '../../../shared/api';
import { LociError } from '../../../shared/errors';
import { contentChecks } from './content';
import { databaseChecks } from './database';
import { embeddingChecks } from './embedding';
import { encryptionChecks } from './encryption';
import { runtimeChecks } from './runtime';
import {
  DEFAULT_LIMITS,
  type CheckDefinition,
  type DoctorContext,
  type DoctorHost,
  type Finding,
} from './types';
import { progressSink, stopIfCancelled, type CallWatch } from '../progress';

export const CHECKS: CheckDefinition[] = [
  ...databaseChecks,
  ...encryptionChecks,
  ...embeddingChecks,
  ...contentChecks,
  ...runtimeChecks,
];

const RANK: Record<DoctorStatus, number> = { ok: 0, warn: 1, fail: 2 };

export type DoctorProbes = Partial<Omit<DoctorContext, 'engine' | 'store' | 'now'>>;

export class Doctor {
  constructor(
    private readonly engine: DoctorHost,
    private readonly probes: DoctorProbes = {},
  ) {}

  private async context(store: string | undefined): Promise<DoctorContext> {
    return {
      engine: this.engine,
      store: await this.engine.store(store),
      now: this.engine.now(),
      limits: { ...DEFAULT_LIMITS, ...this.probes.limits },
      statfs: this.probes.statfs ?? ((p) => statfs(p)),
      memoryUsage: this.probes.memoryUsage ?? (() => process.memoryUsage()),
      fetch: this.probes.fetch ?? ((url, init) => fetch(url, init)),
    };
  }

  private async runOne(def: CheckDefinition, ctx: DoctorContext): Promise<DoctorCheck[]> {
    let found: Finding[];
    try {
      const r = await def.run(ctx);
      found = Array.isArray(r) ? r : [r];
    } catch (err) {
      found = [
        {
          status: 'fail',
          finding: `The check itself failed: ${(err as Error).message}`,
          fix: 'Report this; the rest of the report is still valid.',
          fixable: false,
        },
      ];
    }
    return found.map((f) => ({
      id: f.id ?? def.id,
      group: def.group,
      title: f.title ?? def.title,
      status: f.status,
      finding: f.finding,
      fix: f.fix,
      fixable: f.fixable && def.fix !== undefined,
    }));
  }

  private readonly reports = new Map<string, DoctorReport>();

  /** The newest report of a store made by this process, if any. */
  lastReport(store: string): DoctorReport | undefined {
    return this.reports.get(store);
  }

  async run(store: string | undefined, watch?: CallWatch): Promise<DoctorReport> {
    const started = performance.now();
    const ctx = await this.context(store);
    const checks: DoctorCheck[] = [];
    const progress = progressSink(watch ?? {});
    try {
      for (const [i, def] of CHECKS.entries()) {
        stopIfCancelled(watch, 'The doctor');
        progress.report({ done: i, total: CHECKS.length, message: def.title });
        checks.push(...(await this.runOne(def, ctx)));
      }
      progress.report({ done: CHECKS.length, total: CHECKS.length, message: 'done' });
    } finally {
      progress.close();
    }
    const counts: Record<DoctorStatus, number> = { ok: 0, warn: 0, fail: 0 };
    let status: DoctorStatus = 'ok';
    for (const c of checks) {
      counts[c.status]++;
      if (RANK[c.status] > RANK[status]) status = c.status;
    }
    this.engine.events.emit('doctor.finished', { store: ctx.store.name, status });
    const report: DoctorReport = {
      store: ctx.store.name,
      status,
      checks,
      counts,
      ran_at: new Date(ctx.now).toISOString(),
      duration_ms: Math.round(performance.now() - started),
    };
    this.reports.set(ctx.store.name, report);
    return report;
  }

  /** Applies the fix of one check, if it is safe and needed; returns the check after. */
  async fix(store: string | undefined, id: string): Promise<DoctorFixResult> {
    const def = CHECKS.find((d) => d.id === id || (d.id === 'clients' && id.startsWith('client.')));
    if (!def) {
      throw new LociError(
        'not-found',
        `There is no doctor check "${id}". Known: ${CHECKS.map((d) => d.id).join(', ')}, client.<name>.`,
      );
    }
    const ctx = await this.context(store);
    const before = (await this.runOne(def, ctx)).find((c) => c.id === id);
    if (!before) throw new LociError('not-found', `There is no doctor check "${id}".`);
    if (before.status === 'ok') {
      return {
        store: ctx.store.name,
        check: id,
        done: 'Nothing to fix: the check passes.',
        after: before,
      };
    }
    if (!before.fixable || !def.fix) {
      throw new LociError('forbidden', `"${id}" has no safe automatic fix. ${before.fix}`, {
        check: id,
      });
    }
    const done = await def.fix(ctx, id);
    const after =
      (await this.runOne(def, { ...ctx, now: this.engine.now() })).find((c) => c.id === id) ??
      before;
    return { store: ctx.store.name, check: id, done, after };
  }
}
