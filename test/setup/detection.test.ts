// `loci setup`: which MCP clients are found on each OS, where their files are, and the
// plan it shows before writing anything.
// Nothing here may read or write the real home folder (helpers/setupHome.ts).
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENTS, type ClientId, type SetupContext } from '../../src/main/engine/setup/clients';
import { plan, type SetupEnvironment } from '../../src/main/engine/setup/setup';
import {
  NODE,
  SCRIPT,
  home,
  envFor,
  stdio,
  http,
  snapshot,
  put,
  read,
  thrown,
  useSetupSandbox,
} from '../helpers/setupHome';

useSetupSandbox();

describe('client detection and paths', () => {
  const files = (ctx: Partial<SetupContext>) =>
    Object.fromEntries(
      plan(envFor({ ctx })).map((p) => [p.client, relative(home, p.file).split('\\').join('/')]),
    );

  it('knows the six clients', () => {
    expect(CLIENTS.map((c) => c.id)).toEqual([
      'claude-code',
      'claude-desktop',
      'cursor',
      'vscode',
      'windsurf',
      'zed',
    ]);
  });

  it('uses the Linux locations, following an absolute XDG_CONFIG_HOME', () => {
    expect(files({ platform: 'linux' })).toEqual({
      'claude-code': '.claude.json',
      'claude-desktop': '.config/Claude/claude_desktop_config.json',
      cursor: '.cursor/mcp.json',
      vscode: '.config/Code/User/mcp.json',
      windsurf: '.codeium/windsurf/mcp_config.json',
      zed: '.config/zed/settings.json',
    });
    const xdg = join(home, 'xdg');
    expect(files({ platform: 'linux', env: { XDG_CONFIG_HOME: xdg } })).toEqual({
      'claude-code': '.claude.json',
      'claude-desktop': 'xdg/Claude/claude_desktop_config.json',
      cursor: '.cursor/mcp.json',
      vscode: 'xdg/Code/User/mcp.json',
      windsurf: '.codeium/windsurf/mcp_config.json',
      zed: 'xdg/zed/settings.json',
    });
    // The XDG spec: an empty or a relative value is ignored.
    for (const XDG_CONFIG_HOME of ['', 'relative/dir']) {
      expect(files({ platform: 'linux', env: { XDG_CONFIG_HOME } }).vscode).toBe(
        '.config/Code/User/mcp.json',
      );
    }
  });

  it('uses the macOS locations (Zed keeps ~/.config/zed there, whatever XDG says)', () => {
    const expected = {
      'claude-code': '.claude.json',
      'claude-desktop': 'Library/Application Support/Claude/claude_desktop_config.json',
      cursor: '.cursor/mcp.json',
      vscode: 'Library/Application Support/Code/User/mcp.json',
      windsurf: '.codeium/windsurf/mcp_config.json',
      zed: '.config/zed/settings.json',
    };
    expect(files({ platform: 'darwin' })).toEqual(expected);
    expect(files({ platform: 'darwin', env: { XDG_CONFIG_HOME: join(home, 'xdg') } })).toEqual(
      expected,
    );
  });

  it('uses the Windows locations (APPDATA, or its default under the profile)', () => {
    const appData = join(home, 'Roaming');
    expect(files({ platform: 'win32', env: { APPDATA: appData } })).toEqual({
      'claude-code': '.claude.json',
      'claude-desktop': 'Roaming/Claude/claude_desktop_config.json',
      cursor: '.cursor/mcp.json',
      vscode: 'Roaming/Code/User/mcp.json',
      windsurf: '.codeium/windsurf/mcp_config.json',
      zed: 'Roaming/Zed/settings.json',
    });
    expect(files({ platform: 'win32' })).toMatchObject({
      'claude-desktop': 'AppData/Roaming/Claude/claude_desktop_config.json',
      vscode: 'AppData/Roaming/Code/User/mcp.json',
      zed: 'AppData/Roaming/Zed/settings.json',
    });
  });

  it('reports as installed only the clients whose folder or file exists', () => {
    const installed = () =>
      plan(envFor())
        .filter((p) => p.installed)
        .map((p) => p.client);
    expect(installed()).toEqual([]);
    mkdirSync(join(home, '.cursor'));
    mkdirSync(join(home, '.config', 'zed'), { recursive: true });
    expect(installed()).toEqual(['cursor', 'zed']);
    put('.claude.json', '{}');
    mkdirSync(join(home, '.config', 'Code'), { recursive: true });
    expect(installed()).toEqual(['claude-code', 'cursor', 'vscode', 'zed']);
    // Claude Code is also found by its folder alone; Windsurf by ~/.codeium/windsurf, not ~/.codeium.
    rmSync(join(home, '.claude.json'));
    mkdirSync(join(home, '.claude'));
    mkdirSync(join(home, '.codeium'));
    expect(installed()).toEqual(['claude-code', 'cursor', 'vscode', 'zed']);
    mkdirSync(join(home, '.codeium', 'windsurf'));
    mkdirSync(join(home, '.config', 'Claude'));
    expect(installed()).toEqual(CLIENTS.map((c) => c.id));
    // Detection wrote nothing.
    expect(snapshot()).toEqual({});
  });

  it('finds clients per OS in the right folders', () => {
    mkdirSync(join(home, 'Library', 'Application Support', 'Claude'), { recursive: true });
    mkdirSync(join(home, 'AppData', 'Roaming', 'Zed'), { recursive: true });
    const installed = (platform: NodeJS.Platform) =>
      plan(envFor({ ctx: { platform } }))
        .filter((p) => p.installed)
        .map((p) => p.client);
    expect(installed('darwin')).toEqual(['claude-desktop']);
    expect(installed('win32')).toEqual(['zed']);
    expect(installed('linux')).toEqual([]);
  });
});

describe('plan', () => {
  it('shows the change without writing anything', () => {
    const original = '{\n  "mcpServers": {\n    "other": { "command": "other-mcp" }\n  }\n}\n';
    const file = put('.cursor/mcp.json', original);
    const before = snapshot();
    const mtime = statSync(file).mtimeMs;
    const [p] = plan(envFor(), 'cursor');
    expect(p).toEqual({
      client: 'cursor',
      name: 'Cursor',
      installed: true,
      file,
      transport: 'stdio',
      entry: 'loci',
      action: 'add',
      before: null,
      after: stdio,
      diff: [
        'mcpServers.loci',
        '- (none)',
        '+ {',
        `+   "command": ${JSON.stringify(NODE)},`,
        '+   "args": [',
        `+     ${JSON.stringify(SCRIPT)},`,
        '+     "mcp"',
        '+   ]',
        '+ }',
      ].join('\n'),
      problem: null,
    });
    expect(snapshot()).toEqual(before);
    expect(read(file)).toBe(original);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });

  it('plans an update with the old entry, and nothing once the entry is current', () => {
    put('.cursor/mcp.json', JSON.stringify({ mcpServers: { loci: http(4700) } }));
    const [p] = plan(envFor({ daemonRunning: true }), 'cursor');
    expect(p).toMatchObject({ action: 'update', transport: 'http', before: http(4700) });
    expect(p?.diff).toContain('-   "url": "http://127.0.0.1:4700/mcp",');
    expect(p?.diff).toContain('+   "url": "http://127.0.0.1:4747/mcp",');
    // The same entry with its keys in another order is current.
    put(
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { loci: { headers: http().headers, url: http().url } } }),
    );
    expect(plan(envFor({ daemonRunning: true }), 'cursor')[0]).toMatchObject({
      action: 'unchanged',
      diff: '',
    });
  });

  it('prefers HTTP when the daemon runs, stdio otherwise, and stdio for the stdio-only clients', () => {
    const transports = (e: SetupEnvironment, t?: 'http' | 'stdio') =>
      Object.fromEntries(plan(e, undefined, t).map((p) => [p.client, p.transport]));
    expect(new Set(Object.values(transports(envFor())))).toEqual(new Set(['stdio']));
    expect(transports(envFor({ daemonRunning: true }))).toEqual({
      'claude-code': 'http',
      'claude-desktop': 'stdio',
      cursor: 'http',
      vscode: 'http',
      windsurf: 'http',
      zed: 'stdio',
    });
    // Asking for HTTP across all clients keeps the stdio-only ones on stdio...
    expect(transports(envFor(), 'http')).toEqual({
      'claude-code': 'http',
      'claude-desktop': 'stdio',
      cursor: 'http',
      vscode: 'http',
      windsurf: 'http',
      zed: 'stdio',
    });
    // ...but asking it of one of them is an error.
    for (const id of ['claude-desktop', 'zed'] as const) {
      const err = thrown(() => plan(envFor(), id, 'http'));
      expect(err.code).toBe('invalid-args');
      expect(err.message).toMatch(/takes only a stdio entry/);
    }
    expect(thrown(() => plan(envFor(), 'nope' as ClientId)).message).toBe(
      'Unknown client "nope". Known: claude-code, claude-desktop, cursor, vscode, windsurf, zed.',
    );
  });
});
