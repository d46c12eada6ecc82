// What `loci setup` writes for stdio clients: this installation's bin/loci.js run by
// Node, or, inside the desktop app (whose executable will not run scripts: its RunAsNode
// fuse is off), the `loci` CLI from PATH.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/engine';
import { binScript, setupEnvironment, stdioCommand } from './environment';

const dir = tempDir('loci-setup-env-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  delete (process.versions as Record<string, string | undefined>).electron;
});

describe('setup environment', () => {
  it('under Node: this installation’s bin/loci.js, run by this Node', () => {
    const env = setupEnvironment(dir, { home: dir, env: {} });
    expect(binScript()).toMatch(/bin[/\\]loci\.js$/);
    expect(env.endpoint.command).toBe(process.execPath);
    expect(env.endpoint.args).toEqual([binScript(), 'mcp']);
    expect(env.endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('inside the desktop app: `loci mcp` from PATH, never the app’s own executable', () => {
    Object.defineProperty(process.versions, 'electron', {
      value: '40.10.2',
      configurable: true,
      enumerable: true,
    });
    const env = setupEnvironment(dir, { home: dir, env: {} });
    expect(env.endpoint.command).toBe('loci');
    expect(env.endpoint.args).toEqual(['mcp']);
  });

  it('finds bin/loci.js of the npm package (loci-memory), not of another package', () => {
    const pkg = join(dir, 'node_modules', 'loci-memory');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    mkdirSync(join(pkg, 'out', 'main'), { recursive: true });
    writeFileSync(join(pkg, 'bin', 'loci.js'), '');
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'loci-memory' }));
    expect(binScript(join(pkg, 'out', 'main', 'daemon.js'))).toBe(join(pkg, 'bin', 'loci.js'));
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'not-loci' }));
    expect(binScript(join(pkg, 'out', 'main', 'daemon.js'))).not.toBe(join(pkg, 'bin', 'loci.js'));
  });

  it('from npx’s cache, `npx -y loci-memory mcp`; elsewhere this Node and the script', () => {
    const cached = ['', 'home', 'u', '.npm', '_npx', '0a1b', 'node_modules', 'loci-memory'];
    const script = [...cached, 'bin', 'loci.js'].join(sep);
    expect(stdioCommand(script)).toEqual({ command: 'npx', args: ['-y', 'loci-memory', 'mcp'] });
    const installed = ['', 'opt', 'node_modules', 'loci-memory', 'bin', 'loci.js'].join(sep);
    expect(stdioCommand(installed)).toEqual({
      command: process.execPath,
      args: [installed, 'mcp'],
    });
    expect(stdioCommand('loci')).toEqual({ command: 'loci', args: ['mcp'] });
  });
});
