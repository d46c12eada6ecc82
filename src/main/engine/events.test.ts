import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../test/helpers/engine';
import type { EventMap } from '../../shared/events';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

describe('engine events', () => {
  it('announces each committed change with the actor, and nothing for reads or failures', async () => {
    const seen: (
      EventMap['memory.changed'] | EventMap['link.changed'] | EventMap['store.created']
    )[] = [];
    const offs = [
      t.engine.events.on('memory.changed', (e) => seen.push(e)),
      t.engine.events.on('link.changed', (e) => seen.push(e)),
      t.engine.events.on('store.created', (e) => seen.push(e)),
    ];
    const a = await t
      .agent('cursor')
      .call('memory.remember', { content: 'An event-producing memory' });
    await t.agent('cursor').call('memory.remember', { content: 'An event-producing memory' }); // duplicate: no event
    const b = await t.cli.call('memory.remember', { content: 'Another memory for links' });
    await t.cli.call('memory.update', { id: a.id, title: 'Renamed' });
    await t.cli.call('link.create', { from: a.id, to: b.id });
    await t.cli.call('memory.forget', { id: b.id });
    await t.cli.call('memory.recall', { query: 'event producing' });
    await t.cli.call('store.create', { name: 'work' });
    await t.cli.call('memory.update', { id: a.id, title: 'x' }).catch(() => undefined);
    await t.cli.call('memory.remember', { content: ' \u200B ' }).catch(() => undefined);
    for (const off of offs) off();
    expect(seen).toEqual([
      { store: 'default', ids: [a.id], change: 'created', actor: 'mcp:cursor' },
      { store: 'default', ids: [b.id], change: 'created', actor: 'cli' },
      { store: 'default', ids: [a.id], change: 'updated', actor: 'cli' },
      { store: 'default', from: a.id, to: b.id, change: 'created', actor: 'cli' },
      { store: 'default', ids: [b.id], change: 'forgotten', actor: 'cli' },
      { store: 'work' },
      { store: 'default', ids: [a.id], change: 'updated', actor: 'cli' },
    ]);
  });

  it('isolates a listener that throws', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const off = t.engine.events.on('memory.changed', () => {
      throw new Error('listener bug');
    });
    await expect(
      t.cli.call('memory.remember', { content: 'Still written despite the listener' }),
    ).resolves.toMatchObject({ duplicate: false });
    off();
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(warnings.join()).toMatch(/listener bug/);
  });
});
