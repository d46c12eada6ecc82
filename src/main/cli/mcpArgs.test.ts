import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMcpArgs } from './mcpArgs';

describe('parseMcpArgs', () => {
  const env = { LOCI_HOME: '/data/loci' };

  it('reads the command line editors are given', () => {
    expect(parseMcpArgs(['mcp'], env)).toEqual({ dataDir: '/data/loci', initTimeoutMs: 60_000 });
    expect(
      parseMcpArgs(['mcp', '--store', 'work', '--init-timeout', '5', '--home', 'rel/dir'], env),
    ).toEqual({ dataDir: resolve('rel/dir'), store: 'work', initTimeoutMs: 5000 });
    expect(parseMcpArgs(['mcp', '-s', 'notes', '--json'], env)?.store).toBe('notes');
  });

  it('finds the platform data directory without LOCI_HOME', () => {
    const args = parseMcpArgs(['mcp'], { HOME: '/home/me', XDG_CONFIG_HOME: '/xdg' });
    expect(args?.dataDir).toBe(process.platform === 'linux' ? '/xdg/Loci' : args?.dataDir);
  });

  it('leaves anything it does not read exactly to the full CLI', () => {
    for (const argv of [
      ['mcp', '--help'],
      ['mcp', '-h'],
      ['mcp', '--init-timeout', 'soon'],
      ['mcp', '--init-timeout'],
      ['mcp', '--no-such-option'],
      ['mcp', 'extra'],
      ['mcp', '--init-timeout', '-1'],
    ]) {
      expect(parseMcpArgs(argv, env), argv.join(' ')).toBeNull();
    }
  });
});
