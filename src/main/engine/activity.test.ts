import { describe, expect, it } from 'vitest';
import { ActivityLog } from './activity';
import { EngineEvents } from './events';

const NOW = Date.parse('2026-12-03T12:00:30.000Z');

function call(log: ActivityLog, minutesAgo: number, actor: string, ms: number, ok = true) {
  log.record({
    at: new Date(NOW - minutesAgo * 60_000).toISOString(),
    actor,
    transport: 'stdio',
    tool: 'recall',
    ok,
    error_code: ok ? null : 'invalid-args',
    duration_ms: ms,
  });
}

describe('ActivityLog.stats', () => {
  it('counts calls per client over time, with errors and latency percentiles per bucket', () => {
    const log = new ActivityLog(new EngineEvents());
    for (let i = 0; i < 10; i++) call(log, 50, 'mcp:cursor', 10 + i);
    for (let i = 0; i < 3; i++) call(log, 50, 'mcp:claude-code', 100);
    call(log, 5, 'mcp:claude-code', 40, false);
    call(log, 2 * 24 * 60, 'mcp:cursor', 5); // two days ago: outside any window
    const s = log.stats(60, 6, NOW);
    expect(s.bucket_minutes).toBe(10);
    expect(s.buckets).toHaveLength(6);
    expect(s.clients).toEqual(['mcp:cursor', 'mcp:claude-code']);
    const early = s.buckets[0]!;
    expect(early.calls).toEqual({ 'mcp:cursor': 10, 'mcp:claude-code': 3 });
    expect(early.total).toBe(13);
    expect(early.p50_ms).toBe(16);
    expect(early.p95_ms).toBe(100);
    const late = s.buckets[5]!;
    expect(late).toMatchObject({ total: 1, errors: 1, p50_ms: 40 });
    expect(s.buckets.slice(1, 5).every((b) => b.total === 0 && b.p50_ms === null)).toBe(true);
    expect(s.buckets.reduce((n, b) => n + b.total, 0)).toBe(14);
  });
});
