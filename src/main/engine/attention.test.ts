import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../test/helpers/engine';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const ids = async () => (await t.cli.call('stats.attention', {})).items.map((i) => i.id);

describe('stats.attention', () => {
  it('lists what waits for a person, worst first, each with the route that deals with it', async () => {
    await t.cli.call('memory.remember', { content: 'Billing runs on port 8080' });
    await t.cli.call('memory.remember', { content: 'Billing runs on port 8081' });
    await t.cli.call('memory.remember', { content: `CI token ghp_${'Qx9'.repeat(12)}` });
    const r = await t.cli.call('stats.attention', {});
    const by = new Map(r.items.map((i) => [i.id, i]));
    expect(by.get('conflicts')).toMatchObject({ count: 1, route: '/conflicts', severity: 'warn' });
    expect(by.get('quarantine')).toMatchObject({
      count: 1,
      route: '/memories?trust=quarantined',
    });
    expect(by.get('audit')?.title).toBe('The audit chain was never verified');
    expect(by.get('review')).toBeUndefined();
    const rank = { fail: 0, warn: 1, info: 2 };
    const order = r.items.map((i) => rank[i.severity]);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('drops an item once it is dealt with, and asks again when the last verification is old', async () => {
    expect(await ids()).toContain('audit');
    await t.cli.call('audit.verify', {});
    expect(await ids()).not.toContain('audit');
    t.advance(8 * 86_400_000);
    const again = (await t.cli.call('stats.attention', {})).items.find((i) => i.id === 'audit');
    expect(again?.title).toBe('The audit chain was last verified 8 days ago');
  });

  it('keeps the doctor report it used for an hour, then runs the doctor again', async () => {
    const first = await t.cli.call('stats.attention', {});
    t.advance(10 * 60_000);
    expect((await t.cli.call('stats.attention', {})).doctor_ran_at).toBe(first.doctor_ran_at);
    t.advance(60 * 60_000);
    expect((await t.cli.call('stats.attention', {})).doctor_ran_at).not.toBe(first.doctor_ran_at);
  });
});
