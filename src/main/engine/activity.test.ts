import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_KEEP,
  ActivityLog,
  OLD_PAYLOAD_HEAD_CHARS,
  PAYLOAD_BUDGET_CHARS,
} from './activity';
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

describe('ActivityLog payloads', () => {
  const at = new Date(NOW).toISOString();
  const base = { at, actor: 'mcp:cursor', transport: 'stdio', tool: 'remember', ok: true };
  const record = (log: ActivityLog, args: unknown, result: unknown) =>
    log.record({ ...base, error_code: null, duration_ms: 1, args, result });

  it('gives back what a call sent and received, shortened past 16,000 characters', () => {
    const log = new ActivityLog(new EngineEvents());
    const small = record(
      log,
      { content: 'Kemal prefers ClickHouse', tags: ['db'] },
      { text: 'ok' },
    );
    const big = record(log, { content: 'x'.repeat(20_000) }, undefined);
    expect(log.get(small.id)).toMatchObject({
      args: { content: 'Kemal prefers ClickHouse', tags: ['db'] },
      result: { text: 'ok' },
    });
    const shortened = log.get(big.id).args as { truncated: boolean; chars: number; head: string };
    expect(shortened).toMatchObject({ truncated: true, chars: 20_014 });
    expect(shortened.head).toHaveLength(16_000);
    expect(log.get(big.id).result).toBeNull();
  });

  it('keeps payloads within its budget: the oldest calls keep the head of theirs', () => {
    const log = new ActivityLog(new EngineEvents());
    const n = Math.ceil(PAYLOAD_BUDGET_CHARS / 20_000) + 50;
    const ids = Array.from(
      { length: n },
      (_, i) =>
        record(log, { content: `${i} ${'a'.repeat(9_990)}` }, { text: 'b'.repeat(10_000) }).id,
    );
    const payload = (id: number) => {
      const item = log.get(id);
      return JSON.stringify(item.args).length + JSON.stringify(item.result).length;
    };
    const total = ids.reduce((sum, id) => sum + payload(id), 0);
    expect(total).toBeLessThanOrEqual(PAYLOAD_BUDGET_CHARS);
    // The newest whole, the oldest down to a head that says how much there was.
    expect(log.get(ids[n - 1]!).args).toEqual({ content: `${n - 1} ${'a'.repeat(9_990)}` });
    const oldest = log.get(ids[0]!);
    expect(oldest.args).toMatchObject({ truncated: true, chars: 10_006 });
    expect((oldest.args as { head: string }).head).toBe(
      `{"content":"0 ${'a'.repeat(OLD_PAYLOAD_HEAD_CHARS - 14)}`,
    );
    expect(oldest.result).toMatchObject({ truncated: true, chars: 10_011 });
    // The calls themselves are all still listed.
    expect(log.list({ limit: n })).toHaveLength(n);
  });

  it('keeps the last calls only, and says so for an older one', () => {
    const log = new ActivityLog(new EngineEvents());
    const first = record(log, {}, null);
    for (let i = 0; i < ACTIVITY_KEEP; i++) record(log, { i }, null);
    expect(() => log.get(first.id)).toThrow(/keeps the last 2000 calls/);
    expect(log.get(first.id + 1).args).toEqual({ i: 0 });
  });
});
