// `loci setup --check` and the doctor's client checks: each editor's entry found up to
// date, stale, duplicated, missing or unreadable.
// Nothing here may read or write the real home folder (helpers/setupHome.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ClientId } from '../../src/main/engine/setup/clients';
import {
  check,
  pointsAtLoci,
  write,
  type SetupEnvironment,
} from '../../src/main/engine/setup/setup';
import {
  TOKEN,
  NOW,
  NODE,
  SCRIPT,
  home,
  envFor,
  stdio,
  http,
  put,
  useSetupSandbox,
} from '../helpers/setupHome';

useSetupSandbox();

describe('check', () => {
  const statusOf = (e: SetupEnvironment = envFor()) =>
    Object.fromEntries(check(e).map((c) => [c.client, c.status]));
  const one = (id: ClientId, e: SetupEnvironment = envFor()) =>
    check(e).find((c) => c.client === id);

  it('says not-installed, missing, then ok', () => {
    expect(new Set(Object.values(statusOf()))).toEqual(new Set(['not-installed']));
    mkdirSync(join(home, '.cursor'));
    put('.claude.json', '{ "mcpServers": { "other": { "command": "x" } } }');
    expect(one('cursor')).toEqual({
      client: 'cursor',
      name: 'Cursor',
      installed: true,
      file: join(home, '.cursor', 'mcp.json'),
      status: 'missing',
      problems: ['no Loci entry: run `loci setup`'],
    });
    expect(one('claude-code')?.status).toBe('missing');
    write(envFor(), 'cursor', undefined, NOW);
    write(envFor({ daemonRunning: true }), 'claude-code', undefined, NOW);
    expect(statusOf()).toEqual({
      'claude-code': 'ok',
      'claude-desktop': 'not-installed',
      cursor: 'ok',
      vscode: 'not-installed',
      windsurf: 'not-installed',
      zed: 'not-installed',
    });
  });

  it('finds a stale port and a rotated or absent token', () => {
    put(
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { loci: { url: 'http://127.0.0.1:4700/mcp', headers: {} } } }),
    );
    expect(one('cursor', envFor({ daemonRunning: true, port: 5000 }))).toMatchObject({
      status: 'stale',
      problems: [
        '"loci" points at http://127.0.0.1:4700/mcp, but Loci is serving at http://127.0.0.1:5000/mcp',
        '"loci" sends no token',
      ],
    });
    put('.cursor/mcp.json', JSON.stringify({ mcpServers: { loci: http(4747, 'old-token') } }));
    expect(one('cursor')).toMatchObject({
      status: 'stale',
      problems: ['"loci" has an old or revoked token'],
    });
    // Windsurf's serverUrl, with a lower-case header name.
    put(
      '.codeium/windsurf/mcp_config.json',
      JSON.stringify({
        mcpServers: {
          loci: {
            serverUrl: 'http://localhost:4800/mcp',
            headers: { authorization: `Bearer ${TOKEN}` },
          },
        },
      }),
    );
    expect(one('windsurf')).toMatchObject({
      status: 'stale',
      problems: [
        '"loci" points at http://localhost:4800/mcp, but Loci serves by default at http://127.0.0.1:4747/mcp',
      ],
    });
  });

  it('finds a stdio entry whose program is gone, but not one started through npx', () => {
    const gone = join(home, 'old', 'bin', 'loci.js');
    put(
      '.config/zed/settings.json',
      JSON.stringify({ context_servers: { loci: { command: NODE, args: [gone, 'mcp'] } } }),
    );
    expect(one('zed')).toMatchObject({
      status: 'stale',
      problems: [`"loci" starts ${gone}, which no longer exists`],
    });
    const node = join(home, '.nvm', 'versions', 'node', 'v18.0.0', 'bin', 'node');
    put(
      '.config/zed/settings.json',
      JSON.stringify({ context_servers: { loci: { command: node, args: [SCRIPT, 'mcp'] } } }),
    );
    expect(one('zed')).toMatchObject({
      status: 'stale',
      problems: [`"loci" starts ${node}, which no longer exists`],
    });
    put(
      '.config/zed/settings.json',
      JSON.stringify({ context_servers: { mem: { command: 'npx', args: ['-y', 'loci', 'mcp'] } } }),
    );
    expect(one('zed')).toMatchObject({ status: 'ok', problems: [] });
  });

  it('finds duplicate entries pointing at Loci', () => {
    put(
      '.config/Code/User/mcp.json',
      JSON.stringify({
        servers: {
          loci: { type: 'http', ...http() },
          'loci-stdio': { type: 'stdio', ...stdio },
          github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
        },
      }),
    );
    expect(one('vscode')).toMatchObject({
      status: 'duplicate',
      problems: ['2 entries point at Loci (loci, loci-stdio): keep one'],
    });
  });

  it('recognises Loci entries and nothing else', () => {
    for (const yes of [
      { url: 'http://127.0.0.1:4747/mcp' },
      { serverUrl: 'http://localhost:1/mcp' },
      { url: 'http://[::1]:4747/mcp' },
      { command: 'loci', args: ['mcp'] },
      { command: '/usr/local/bin/loci', args: ['mcp', '--store', 'work'] },
      { command: NODE, args: [SCRIPT, 'mcp'] },
      { command: 'npx', args: ['-y', 'loci', 'mcp'] },
      { command: 'C:\\Users\\me\\AppData\\Roaming\\npm\\loci.cmd', args: ['mcp'] },
    ]) {
      expect(pointsAtLoci(yes), JSON.stringify(yes)).toBe(true);
    }
    for (const no of [
      null,
      'loci',
      { url: 'https://example.com/mcp' },
      { url: 'http://127.0.0.1:4747/api' },
      { command: 'loci', args: ['serve'] },
      { command: 'velociloci', args: ['mcp'] },
      { command: 'npx', args: ['-y', 'other-mcp'] },
    ]) {
      expect(pointsAtLoci(no), JSON.stringify(no)).toBe(false);
    }
  });
});
