import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallProgress } from '../../shared/api';
import { HEARTBEAT_MS, progressSink, stopIfCancelled } from './progress';

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'performance'],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('progressSink', () => {
  it('sends growing values only, at most every 200 ms, the held-back one at the end of the interval', () => {
    const sent: CallProgress[] = [];
    const sink = progressSink({ progress: (p) => sent.push(p) });
    sink.report({ done: 1, total: 10 });
    sink.report({ done: 1, total: 10 }); // not growing: dropped
    sink.report({ done: 2, total: 10 }); // too soon: held
    sink.report({ done: 3, total: 10 }); // replaces the held one
    expect(sent.map((p) => p.done)).toEqual([1]);
    vi.advanceTimersByTime(200);
    expect(sent.map((p) => p.done)).toEqual([1, 3]);
    sink.report({ done: 2, total: 10 }); // went back: dropped
    vi.advanceTimersByTime(200);
    expect(sent.map((p) => p.done)).toEqual([1, 3]);
    sink.close();
  });

  it('says a call is still at work when nothing moved for a while, a hair further on', () => {
    const sent: CallProgress[] = [];
    const sink = progressSink({ progress: (p) => sent.push(p) });
    sink.report({ done: 5, total: 10, message: 'reading big.pdf' });
    vi.advanceTimersByTime(HEARTBEAT_MS * 3 + 10);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < sent.length; i++) {
      expect(sent[i]!.done).toBeGreaterThan(sent[i - 1]!.done);
      expect(sent[i]!.done).toBeLessThan(5.01);
      expect(sent[i]!.message).toBe('reading big.pdf');
    }
    // A real step still goes through.
    sink.report({ done: 6, total: 10 });
    vi.advanceTimersByTime(200);
    expect(sent.at(-1)!.done).toBe(6);
    const n = sent.length;
    sink.close();
    vi.advanceTimersByTime(HEARTBEAT_MS * 3);
    expect(sent.length).toBe(n);
  });

  it('sends what is held back when closed, and nothing after', () => {
    const sent: CallProgress[] = [];
    const sink = progressSink({ progress: (p) => sent.push(p) });
    sink.report({ done: 1 });
    sink.report({ done: 2 });
    sink.close();
    sink.report({ done: 3 });
    expect(sent.map((p) => p.done)).toEqual([1, 2]);
  });

  it('does nothing without a caller who listens', () => {
    const sink = progressSink({});
    sink.report({ done: 1 });
    sink.close();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('stopIfCancelled', () => {
  it('throws a cancelled error once the signal is aborted', () => {
    const c = new AbortController();
    expect(() => stopIfCancelled({ signal: c.signal }, 'The import')).not.toThrow();
    c.abort();
    expect(() => stopIfCancelled({ signal: c.signal }, 'The import')).toThrow(
      expect.objectContaining({
        code: 'cancelled',
        message: expect.stringMatching(/^The import was cancelled/),
      }),
    );
  });
});
