// What `loci setup` writes for stdio clients: this installation's bin/loci.js run by
// Node, or, inside the desktop app (whose executable will not run scripts: its RunAsNode
// fuse is off), the `loci` CLI from PATH.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/engine';
import { binScript, setupEnvironment } from './environment';

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
});
