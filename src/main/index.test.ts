// The Electron entry under plain Node: it must start nothing (no Electron here), and it
// points the engine at the Electron build of better-sqlite3 and the bundled models.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => {
  throw new Error('electron must not be loaded outside Electron');
});

const { configureEnvironment, findElectronSqliteBinding, nativeRoots } = await import('./index');

const dir = mkdtempSync(join(tmpdir(), 'loci-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Electron entry', () => {
  it('finds native/electron/better_sqlite3.node in resources, then in the repository', () => {
    const resources = join(dir, 'resources');
    const repo = join(dir, 'repo');
    expect(findElectronSqliteBinding([resources, repo])).toBeNull();
    mkdirSync(join(repo, 'native', 'electron'), { recursive: true });
    writeFileSync(join(repo, 'native', 'electron', 'better_sqlite3.node'), '');
    expect(findElectronSqliteBinding([resources, repo])).toBe(
      join(repo, 'native', 'electron', 'better_sqlite3.node'),
    );
    expect(nativeRoots('/res', join('/repo', 'out', 'main'))).toEqual(['/res', '/repo']);
    expect(nativeRoots(undefined, join('/repo', 'out', 'main'))).toEqual(['/repo']);
  });

  it('adds the bundled models to LOCI_MODEL_PATH once, keeping the user’s', () => {
    const resources = join(dir, 'packed');
    mkdirSync(join(resources, 'models'), { recursive: true });
    mkdirSync(join(resources, 'native', 'electron'), { recursive: true });
    writeFileSync(join(resources, 'native', 'electron', 'better_sqlite3.node'), '');
    const env: Record<string, string | undefined> = { LOCI_MODEL_PATH: '/mine' };
    configureEnvironment(env, resources);
    configureEnvironment(env, resources);
    expect(env.LOCI_MODEL_PATH).toBe(['/mine', join(resources, 'models')].join(delimiter));
    expect(env.LOCI_SQLITE_BINDING).toBe(
      join(resources, 'native', 'electron', 'better_sqlite3.node'),
    );
    const mine = { LOCI_SQLITE_BINDING: '/custom.node' };
    configureEnvironment(mine, resources);
    expect(mine.LOCI_SQLITE_BINDING).toBe('/custom.node');
  });
});
