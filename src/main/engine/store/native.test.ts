import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteBindingOptions, unpackedPath } from './native';

const dir = mkdtempSync(join(tmpdir(), 'loci-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('native files under Electron', () => {
  it('uses the separate binding only under Electron, when one is named', () => {
    const electron = { ...process.versions, electron: '40.10.2' } as NodeJS.ProcessVersions;
    expect(
      sqliteBindingOptions(electron, { LOCI_SQLITE_BINDING: '/r/native/electron/b.node' }),
    ).toEqual({
      nativeBinding: '/r/native/electron/b.node',
    });
    expect(sqliteBindingOptions(electron, {})).toEqual({});
    expect(sqliteBindingOptions(process.versions, { LOCI_SQLITE_BINDING: '/x.node' })).toEqual({});
  });

  it('better-sqlite3 opens through a binding kept in its own folder', () => {
    // The Node build copied elsewhere stands in for the Electron build: the mechanism
    // (nativeBinding → that file, node_modules untouched) is the same.
    const require = createRequire(import.meta.url);
    const pkg = dirname(require.resolve('better-sqlite3-multiple-ciphers/package.json'));
    const copy = join(dir, 'native', 'electron', 'better_sqlite3.node');
    mkdirSync(dirname(copy), { recursive: true });
    copyFileSync(join(pkg, 'build', 'Release', 'better_sqlite3.node'), copy);
    const options = sqliteBindingOptions(
      { ...process.versions, electron: '40.0.0' },
      {
        LOCI_SQLITE_BINDING: copy,
      },
    );
    const db = new Database(':memory:', options);
    expect((db.prepare('select 1 + 1 as two').get() as { two: number }).two).toBe(2);
    db.close();
    expect(() => new Database(':memory:', { nativeBinding: join(dir, 'missing.node') })).toThrow();
  });

  it('maps files packed in app.asar to app.asar.unpacked', () => {
    const packed = [
      '',
      'Applications',
      'Loci.app',
      'Resources',
      'app.asar',
      'node_modules',
      'sqlite-vec-darwin-arm64',
      'vec0.dylib',
    ].join(sep);
    expect(unpackedPath(packed)).toBe(
      packed.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`),
    );
    const plain = join('/repo', 'node_modules', 'sqlite-vec', 'vec0.so');
    expect(unpackedPath(plain)).toBe(plain);
  });
});
