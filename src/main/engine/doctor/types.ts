// The doctor's vocabulary: a check produces one or more findings (ok · warn · fail, a
// line on what was found, a line on what to do) and may offer a fix that is safe to run
// unattended. Unsafe repairs are only explained in `fix`, never applied.
import type { Footprint } from '../footprint';
import type { DoctorCheck, DoctorStatus } from '../../../shared/api';
import type { AuditService } from '../audit/service';
import type { Serving } from '../engine';
import type { EngineEvents } from '../events';
import type { Semantic } from '../semantic';
import type { SetupEnvironment } from '../setup/setup';
import type { LockInfo } from '../store/lock';
import type { OpenStore, StoreRegistry } from '../store/registry';

export interface DoctorLimits {
  diskWarnBytes: number;
  diskFailBytes: number;
  walWarnBytes: number;
  dbWarnBytes: number;
  rssWarnBytes: number;
  rssFailBytes: number;
  /** A passed verification older than this is a warning. */
  auditStaleDays: number;
  httpTimeoutMs: number;
}

export const DEFAULT_LIMITS: DoctorLimits = {
  diskWarnBytes: 1024 ** 3,
  diskFailBytes: 200 * 1024 ** 2,
  walWarnBytes: 64 * 1024 ** 2,
  dbWarnBytes: 4 * 1024 ** 3,
  rssWarnBytes: 1.5 * 1024 ** 3,
  rssFailBytes: 3 * 1024 ** 3,
  auditStaleDays: 7,
  httpTimeoutMs: 2000,
};

/** What the doctor needs of the engine core (the Engine is one). */
export interface DoctorHost {
  readonly dataDir: string;
  readonly registry: Pick<StoreRegistry, 'vault'>;
  readonly lockInfo: LockInfo;
  readonly servedAt: Serving | null;
  readonly events: EngineEvents;
  readonly audit: Pick<AuditService, 'verify'>;
  readonly footprint: Pick<Footprint, 'lastTrim'>;
  readonly semantic: Pick<
    Semantic,
    'embedding' | 'models' | 'statusFor' | 'vectorsChanged' | 'scheduleBackfill'
  >;
  now(): number;
  store(name: string | undefined): Promise<OpenStore>;
  rewriteLock(): void;
  servingHost(): string | null;
  setupEnv(): SetupEnvironment;
}

/** What the checks may look at; tests replace the process-level probes. */
export interface DoctorContext {
  engine: DoctorHost;
  store: OpenStore;
  now: number;
  limits: DoctorLimits;
  statfs: (path: string) => Promise<{ bavail: number; bsize: number; blocks: number }>;
  memoryUsage: () => { rss: number; heapUsed: number };
  fetch: (url: string, init: { signal: AbortSignal }) => Promise<{ status: number }>;
}

export type Finding = Omit<DoctorCheck, 'id' | 'group' | 'title'> & {
  /** Set by checks that report several items (one per MCP client). */
  id?: string;
  title?: string;
};

export interface CheckDefinition {
  id: string;
  group: string;
  title: string;
  run(ctx: DoctorContext): Finding | Finding[] | Promise<Finding | Finding[]>;
  /** Applies the fix for this check (or the item `id` of a multi-item check). */
  fix?(ctx: DoctorContext, id: string): string | Promise<string>;
}

export const ok = (finding: string): Finding => ({
  status: 'ok',
  finding,
  fix: '',
  fixable: false,
});

export function finding(status: DoctorStatus, text: string, fix: string, fixable = false): Finding {
  return { status, finding: text, fix, fixable };
}

export { formatBytes as bytes } from '../../../shared/format';
