import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/engine';
import { LociError } from '../../../shared/errors';
import { StoreRegistry } from './registry';

const dirs: string[] = [];
const fresh = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as LociError).code;
  }
  return null;
};

describe('StoreRegistry', () => {
  it('creates the default store on first use and never falls back to it', () => {
    const reg = new StoreRegistry(fresh());
    expect(reg.resolve(undefined)).toBe('default');
    expect(reg.list().map((s) => s.name)).toEqual(['default']);
    expect(code(() => reg.resolve('work'))).toBe('store-not-found');
    reg.create('work');
    expect(reg.resolve('work')).toBe('work');
    expect(reg.list().map((s) => s.name)).toEqual(['default', 'work']);
  });

  it('rejects bad and duplicate names', () => {
    const reg = new StoreRegistry(fresh());
    reg.create('work');
    expect(code(() => reg.create('work'))).toBe('store-exists');
    for (const bad of ['Work', '../x', 'a b', '', '-x', 'x'.repeat(64)])
      expect(
        code(() => reg.create(bad)),
        bad,
      ).toBe('invalid-args');
  });

  it('moves a damaged database aside, keeps the store closed, and reopens empty after a reset', async () => {
    const dataDir = fresh();
    const reg = new StoreRegistry(dataDir);
    reg.create('work');
    const opened = await reg.open('work');
    opened.db.close();
    writeFileSync(opened.file, 'garbage that is not SQLite '.repeat(200));

    const first = await reg.open('work').catch((e: LociError) => e);
    expect(first).toBeInstanceOf(LociError);
    expect((first as LociError).code).toBe('store-corrupt');
    expect((first as LociError).message).toMatch(/moved to .*loci\.db\.corrupt-/);
    expect((first as LociError).message).toMatch(/loci stores reset work/);
    const movedTo = (first as LociError).data?.moved_to as string;
    expect(existsSync(movedTo)).toBe(true);
    expect(existsSync(opened.file)).toBe(false);

    // It stays closed (no silent empty store) until the user decides.
    const again = await reg.open('work').catch((e: LociError) => e);
    expect((again as LociError).code).toBe('store-corrupt');

    expect(reg.resetCorrupt('work')).toEqual({ moved_to: movedTo });
    const reopened = await reg.open('work');
    expect((reopened.db.prepare('SELECT COUNT(*) AS n FROM memory').get() as { n: number }).n).toBe(
      0,
    );
    reopened.db.close();
    // The damaged file is still there.
    expect(readdirSync(join(dataDir, 'stores', 'work')).some((f) => f.includes('.corrupt-'))).toBe(
      true,
    );
  });
});
