import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../test/helpers/engine';
import { METHOD_NAMES } from '../../shared/api';
import { LociError } from '../../shared/errors';
import { Engine } from '../engine/engine';
import { HandlerRegistry } from './registry';

let t: TestEngine;
beforeEach(async () => {
  t = await openTestEngine();
});
afterEach(async () => {
  await t.close();
});

const ctx = { actor: { kind: 'cli' as const } };
const error = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: LociError) => e,
  );

describe('createHandlers', () => {
  it('registers a handler for every method of the contract', () => {
    expect(t.handlers.names().sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('is the only table of methods: the engine core names none of them', () => {
    const members = new Set(Object.getOwnPropertyNames(Engine.prototype));
    const named = METHOD_NAMES.map((m) => m.split('.')[1] as string).filter((verb) =>
      members.has(verb),
    );
    expect(named).toEqual([]);
  });

  it('refuses to register a method twice', () => {
    const registry = new HandlerRegistry();
    registry.register('stats.get', () => Promise.reject(new Error('unused')));
    expect(() => registry.register('stats.get', () => Promise.reject(new Error('unused')))).toThrow(
      /registered twice/,
    );
  });
});

describe('dispatch', () => {
  it('validates with the shared schemas and names each problem', async () => {
    const e = await error(
      t.handlers.dispatch('memory.recall', { query: '', limit: 1000, extra: 1 }, ctx),
    );
    expect(e).toBeInstanceOf(LociError);
    expect(e?.code).toBe('invalid-args');
    expect(e?.message).toMatch(/^memory\.recall: /);
    expect(e?.message).toMatch(/query: the query is empty/);
    expect(e?.message).toMatch(/limit: /);
    expect(e?.message).toMatch(/unknown field "extra"/);
    expect(e?.data?.issues).toBeInstanceOf(Array);
  });

  it('rejects arguments that are not an object', async () => {
    expect((await error(t.handlers.dispatch('stats.get', 'nope', ctx)))?.code).toBe('invalid-args');
    expect((await error(t.handlers.dispatch('stats.get', [1, 2], ctx)))?.code).toBe('invalid-args');
  });

  it('answers an unknown method with unknown-method', async () => {
    const e = await error(t.handlers.dispatch('memory.teleport', {}, ctx));
    expect(e?.code).toBe('unknown-method');
    expect(e?.message).toBe('There is no method "memory.teleport".');
  });

  it('hides the details of unexpected failures', async () => {
    const registry = new HandlerRegistry();
    registry.register('stats.get', () => {
      throw new Error('SQLITE_IOERR at /home/ada/secret/path.db');
    });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const e = await error(registry.dispatch('stats.get', {}, ctx));
    process.off('warning', onWarning);
    expect(e?.code).toBe('internal');
    expect(e?.message).not.toMatch(/secret|SQLITE/);
  });
});
