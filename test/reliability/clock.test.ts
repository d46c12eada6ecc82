// Clock changes (issue 10, item 9): the engine's injected clock jumps backwards (an NTP
// correction, a VM restored from a snapshot, a user changing the date) in the middle of
// writes and recalls. The audit chain stays ordered by seq (not time) and verifies;
// memories written "before" others in wall time keep their seq order; ACT-R activation
// and FSRS retrievability stay finite and in range; rehearsal never moves a review into
// the past; recall keeps working.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../helpers/engine';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const DAY = 86_400_000;

describe('time running backwards', () => {
  it('keeps the audit chain ordered by seq and verifiable across a backwards jump', async () => {
    const a = await t.cli.call('memory.remember', {
      content: 'The staging database is on port 5433.',
    });
    t.advance(-3 * DAY); // the clock jumps three days back
    const b = await t.cli.call('memory.remember', {
      content: 'Releases are tagged from the main branch.',
    });
    await t.cli.call('memory.update', {
      id: a.id,
      content: 'The staging database is on port 5434.',
    });
    t.advance(-365 * DAY); // and a year back
    await t.cli.call('link.create', { from: a.id, to: b.id, type: 'related' });
    const list = await t.cli.call('audit.list', { limit: 100 });
    const seqs = list.entries.map((e) => e.seq);
    // Newest first by seq, whatever the timestamps say.
    expect(seqs).toEqual([...seqs].sort((x, y) => y - x));
    const times = list.entries.map((e) => Date.parse(e.at));
    expect(
      times.some((tm, i) => i > 0 && tm < (times[i - 1] as number) - 300 * DAY) ||
        times.some((tm, i) => i > 0 && tm > (times[i - 1] as number)),
    ).toBe(true);
    const verify = await t.cli.call('audit.verify', {});
    expect(verify.ok).toBe(true);
    expect(verify.checked).toBe(verify.total);
  });

  it('keeps activation and retrievability finite and in range, and recall working', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        (
          await t.cli.call('memory.remember', {
            content: `Runbook step ${i}: drain the queue before deploy ${i}.`,
          })
        ).id,
      );
      t.advance(DAY);
    }
    // Use them (rehearsal), then go back in time, use them again, then forward again.
    for (const step of [0, -10 * DAY, -30 * DAY, 40 * DAY, -DAY]) {
      t.advance(step);
      const r = await t.cli.call('memory.recall', {
        query: 'drain the queue before deploy',
        limit: 5,
      });
      expect(r.results.length).toBeGreaterThan(0);
      for (const hit of r.results) {
        expect(Number.isFinite(hit.score)).toBe(true);
      }
      await new Promise((res) => setTimeout(res, 20)); // let rehearsals flush
      for (const id of ids) {
        const m = await t.cli.call('memory.get', { id });
        if (m.activation !== null) expect(Number.isFinite(m.activation)).toBe(true);
        if (m.retrievability !== null) {
          expect(m.retrievability).toBeGreaterThanOrEqual(0);
          expect(m.retrievability).toBeLessThanOrEqual(1);
        }
        const fsrs = m.fsrs as unknown as Record<string, unknown>;
        for (const v of Object.values(fsrs))
          if (typeof v === 'number') expect(Number.isFinite(v), JSON.stringify(fsrs)).toBe(true);
      }
    }
  });

  it('never records a review before the last one when the clock goes back', async () => {
    const { id } = await t.cli.call('memory.remember', {
      content: 'The VPN needs the hardware key.',
    });
    await t.cli.call('memory.recall', { query: 'VPN hardware key' });
    await new Promise((res) => setTimeout(res, 20));
    const first = (await t.cli.call('memory.get', { id })).fsrs as unknown as {
      last_review: string | null;
      stability: number | null;
    };
    t.advance(-20 * DAY);
    await t.cli.call('memory.recall', { query: 'VPN hardware key' });
    await new Promise((res) => setTimeout(res, 20));
    const second = (await t.cli.call('memory.get', { id })).fsrs as unknown as {
      last_review: string | null;
      stability: number | null;
    };
    if (first.last_review !== null && second.last_review !== null)
      expect(Date.parse(second.last_review)).toBeGreaterThanOrEqual(Date.parse(first.last_review));
    if (first.stability !== null && second.stability !== null)
      expect(second.stability).toBeGreaterThan(0);
  });
});
