// Retention of the bounded tables: earlier versions past `keep_versions` per memory,
// accesses past the newest 50 per memory, the read log past its age, dream reports past
// `keep_reports`, and review items decided more than 180 days ago. Memories themselves
// are never removed here.
import type { DreamChange } from '../../../../shared/api';
import { READ_LOG_RETENTION_DAYS } from '../../audit/readLog';
import { ACCESS_KEEP } from '../../memory/state';
import { stmt } from '../../store/statements';
import { DAY_MS, type DreamPhase } from '../types';

const REVIEW_KEEP_DAYS = 180;

interface Counts {
  versions: number;
  accesses: number;
  read_log: number;
  reports: number;
  reviews: number;
}

export const retention: DreamPhase<Counts> = {
  name: 'retention',
  async plan(ctx) {
    const db = ctx.store.db;
    const n = (sql: string, ...params: unknown[]) =>
      (stmt(db, sql).get(...params) as { n: number }).n;
    const counts: Counts = {
      versions: n(
        `SELECT COUNT(*) AS n FROM (SELECT ROW_NUMBER() OVER (PARTITION BY rid ORDER BY version DESC) AS rn
           FROM memory_version) WHERE rn > ?`,
        ctx.config.keep_versions,
      ),
      accesses: n(
        `SELECT COUNT(*) AS n FROM (SELECT ROW_NUMBER() OVER (PARTITION BY rid ORDER BY at DESC, rowid DESC) AS rn
           FROM access) WHERE rn > ?`,
        ACCESS_KEEP,
      ),
      read_log: n(
        'SELECT COUNT(*) AS n FROM read_log WHERE at < ?',
        ctx.now - READ_LOG_RETENTION_DAYS * DAY_MS,
      ),
      reports: Math.max(
        0,
        n(`SELECT COUNT(*) AS n FROM dream_report WHERE status <> 'running'`) -
          ctx.config.keep_reports,
      ),
      reviews: n(
        `SELECT COUNT(*) AS n FROM review_item WHERE state <> 'pending' AND decided_at < ?`,
        ctx.now - REVIEW_KEEP_DAYS * DAY_MS,
      ),
    };
    await ctx.yield();
    const limits: Record<keyof Counts, string> = {
      versions: `keep the newest ${ctx.config.keep_versions} earlier versions per memory`,
      accesses: `keep the newest ${ACCESS_KEEP} accesses per memory`,
      read_log: `keep ${READ_LOG_RETENTION_DAYS} days of MCP reads`,
      reports: `keep ${ctx.config.keep_reports} dream reports`,
      reviews: `keep decided review items ${REVIEW_KEEP_DAYS} days`,
    };
    const changes: DreamChange[] = (Object.keys(counts) as (keyof Counts)[])
      .filter((k) => counts[k] > 0)
      .map((k) => ({ kind: 'rows', target: k, before: counts[k], after: 0, note: limits[k] }));
    return {
      examined:
        n('SELECT COUNT(*) AS n FROM memory_version') + n('SELECT COUNT(*) AS n FROM dream_report'),
      changes,
      proposals: [],
      notes: ['The activity feed is kept in memory (the newest 2,000 calls) and needs no pruning.'],
      data: counts,
    };
  },
  apply(ctx, plan) {
    const db = ctx.store.db;
    const done: DreamChange[] = [];
    const run = (key: keyof Counts, sql: string, ...params: unknown[]) => {
      if (plan.data[key] === 0) return;
      const removed = stmt(db, sql).run(...params).changes;
      if (removed > 0)
        done.push({
          kind: 'rows',
          target: key,
          before: removed,
          after: 0,
          note: `${removed} rows removed`,
        });
    };
    run(
      'versions',
      `DELETE FROM memory_version WHERE (rid, version) IN (SELECT rid, version FROM
         (SELECT rid, version, ROW_NUMBER() OVER (PARTITION BY rid ORDER BY version DESC) AS rn FROM memory_version)
        WHERE rn > ?)`,
      ctx.config.keep_versions,
    );
    run(
      'accesses',
      `DELETE FROM access WHERE rowid IN (SELECT rowid FROM
         (SELECT rowid, ROW_NUMBER() OVER (PARTITION BY rid ORDER BY at DESC, rowid DESC) AS rn FROM access)
        WHERE rn > ?)`,
      ACCESS_KEEP,
    );
    run(
      'read_log',
      'DELETE FROM read_log WHERE at < ?',
      ctx.now - READ_LOG_RETENTION_DAYS * DAY_MS,
    );
    run(
      'reports',
      `DELETE FROM dream_report WHERE id IN (SELECT id FROM dream_report WHERE status <> 'running'
         ORDER BY started_at ASC, id ASC LIMIT ?)`,
      plan.data.reports,
    );
    run(
      'reviews',
      `DELETE FROM review_item WHERE state <> 'pending' AND decided_at < ?`,
      ctx.now - REVIEW_KEEP_DAYS * DAY_MS,
    );
    return done;
  },
};
