// `npm start` chooses the desktop app or the headless daemon (scripts/runtime.mjs).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { browserCommand, detectElectron, observatoryUrlFrom } from '../scripts/runtime.mjs';

const dir = mkdtempSync(join(tmpdir(), 'loci-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start: runtime detection', () => {
  it('runs the app only when the electron package names a binary that exists', () => {
    const binary = join(dir, 'electron');
    writeFileSync(binary, '');
    const fake = (main: () => unknown, installed = true) =>
      Object.assign((id: string) => (id === 'electron' ? main() : undefined), {
        resolve: (id: string) => {
          if (!installed) throw new Error(`Cannot find module '${id}'`);
          return join(dir, id);
        },
      });
    expect(detectElectron(dir, { require: fake(() => binary) })).toEqual({ binary, reason: null });

    const missing = detectElectron(dir, { require: fake(() => join(dir, 'dist', 'electron')) });
    expect(missing.binary).toBeNull();
    expect(missing.reason).toMatch(/binary is missing/);

    // The package installed without its download throws when required.
    const noDownload = detectElectron(dir, {
      require: fake(() => {
        throw new Error('Electron failed to install correctly');
      }),
    });
    expect(noDownload.binary).toBeNull();
    expect(noDownload.reason).toMatch(/installed without its binary/);
    expect(detectElectron(dir, { require: fake(() => binary, false) })).toEqual({
      binary: null,
      reason: 'the `electron` package is not installed',
    });
    expect(detectElectron(dir, { require: fake(() => '') }).binary).toBeNull();
  });

  it('on this machine: agrees with what require("electron") gives', () => {
    const real = detectElectron(process.cwd());
    let named: unknown = null;
    try {
      named = createRequire(join(process.cwd(), 'package.json'))('electron');
    } catch {
      named = null;
    }
    if (typeof named === 'string' && existsSync(named))
      expect(real).toEqual({ binary: named, reason: null });
    else expect(real.binary).toBeNull();
  });

  it('finds the observatory address in what `loci serve` prints', () => {
    expect(observatoryUrlFrom('  Observatory:   http://127.0.0.1:4747/#token=abc_DEF-123')).toBe(
      'http://127.0.0.1:4747/#token=abc_DEF-123',
    );
    expect(observatoryUrlFrom('  Observatory:   not built in this installation')).toBeNull();
    expect(observatoryUrlFrom('  MCP:   http://127.0.0.1:4747/mcp')).toBeNull();
    expect(observatoryUrlFrom('  Observatory:   http://evil.example:80/')).toBeNull();
  });

  it('opens the browser with the platform opener, and not where there is none', () => {
    const url = 'http://127.0.0.1:4747/#token=t';
    expect(browserCommand(url, 'darwin', {})).toEqual({ command: 'open', args: [url] });
    expect(browserCommand(url, 'win32', {})).toEqual({
      command: 'cmd',
      args: ['/c', 'start', '', url],
    });
    expect(browserCommand(url, 'linux', { DISPLAY: ':0' })).toEqual({
      command: 'xdg-open',
      args: [url],
    });
    expect(browserCommand(url, 'linux', {})).toBeNull();
    expect(browserCommand(url, 'darwin', { CI: '1' })).toBeNull();
    expect(browserCommand(url, 'darwin', { LOCI_NO_BROWSER: '1' })).toBeNull();
  });
});
