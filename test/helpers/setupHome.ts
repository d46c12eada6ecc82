// The harness of the `loci setup` tests: a temporary home folder per test, a decoy for
// the process's own home (so a regression that ignores the given home writes where the
// check sees it, never into the real one), and helpers to lay out and read editor files.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { LociError } from '../../src/shared/errors';
import type { SetupContext } from '../../src/main/engine/setup/clients';
import { binScript } from '../../src/main/engine/setup/environment';
import type { SetupEnvironment } from '../../src/main/engine/setup/setup';
import { tempDir } from './engine';

export const TOKEN = 'tok_0123456789abcdefghijklmnopqrstuvwxyz';
export const NOW = new Date('2026-03-01T09:00:00.000Z');
export const STAMP = '2026-03-01T09-00-00-000Z';
// Real paths, so that a stdio entry is not reported stale for a missing program.
export const NODE = process.execPath;
export const SCRIPT = binScript();
export const windows = process.platform === 'win32';

/** The current test's home folder (a fresh temporary one per test). */
export let home: string;

/** Registers the per-test home and the decoy; call once at the top of a test file. */
export function useSetupSandbox(): void {
  beforeEach(() => {
    home = tempDir('loci-setup-home-');
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
  });

  // A safety net: while this file runs, the process's own home (what os.homedir() and a
  // stray process.env would give) is a decoy folder, so a regression that ignores the given
  // home writes there, where the check below sees it, and never into the real one.
  const DECOY_VARS = ['HOME', 'USERPROFILE', 'XDG_CONFIG_HOME', 'APPDATA'] as const;
  const saved: Partial<Record<(typeof DECOY_VARS)[number], string | undefined>> = {};
  let decoy: string;
  beforeAll(() => {
    decoy = tempDir('loci-setup-decoy-');
    for (const name of DECOY_VARS) saved[name] = process.env[name];
    process.env.HOME = decoy;
    process.env.USERPROFILE = decoy;
    process.env.XDG_CONFIG_HOME = join(decoy, '.config');
    process.env.APPDATA = join(decoy, 'AppData', 'Roaming');
    expect(homedir()).toBe(decoy);
  });
  afterEach(() => {
    const stray = readdirSync(decoy);
    for (const name of stray) rmSync(join(decoy, name), { recursive: true, force: true });
    expect(stray, 'something was written outside the test home').toEqual([]);
  });
  afterAll(() => {
    for (const name of DECOY_VARS) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    rmSync(decoy, { recursive: true, force: true });
  });
}

export function envFor(
  over: { port?: number; daemonRunning?: boolean; ctx?: Partial<SetupContext> } = {},
): SetupEnvironment {
  return {
    ctx: { home, platform: 'linux', env: {}, ...over.ctx },
    endpoint: {
      url: `http://127.0.0.1:${over.port ?? 4747}/mcp`,
      token: TOKEN,
      command: NODE,
      args: [SCRIPT, 'mcp'],
    },
    daemonRunning: over.daemonRunning ?? false,
  };
}

export const stdio = { command: NODE, args: [SCRIPT, 'mcp'] };
export const http = (port = 4747, token = TOKEN) => ({
  url: `http://127.0.0.1:${port}/mcp`,
  headers: { Authorization: `Bearer ${token}` },
});

/** Every file under the fake home, with its bytes: proves what changed and what did not. */
export function snapshot(dir = home): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

export function put(rel: string, text: string): string {
  const file = join(home, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

export const read = (file: string) => readFileSync(file, 'utf8');
export const json = (file: string) =>
  JSON.parse(read(file)) as Record<string, Record<string, unknown>>;
export const backups = (file: string) =>
  readdirSync(dirname(file)).filter((n) => n.includes('.loci-backup-'));

export function thrown(fn: () => unknown): LociError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LociError);
    return err as LociError;
  }
  throw new Error('expected an error');
}
