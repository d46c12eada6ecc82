// `loci setup` end to end against a temporary home folder: which MCP clients are found
// (per OS), the plan it shows, what it writes (backups, comments and other servers kept,
// each client's own entry shape), the audit, and the same through the API and the CLI.
// Nothing here may read or write the real home folder: every path is checked against it.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'jsonc-parser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SetupCheckResult, SetupPlanResult, SetupWriteResult } from '../src/shared/api';
import { LociError } from '../src/shared/errors';
import { EXIT_CODES, EXIT_FINDINGS, runCli } from '../src/main/cli/program';
import { CLIENTS, type ClientId, type SetupContext } from '../src/main/engine/setup/clients';
import { binScript } from '../src/main/engine/setup/environment';
import {
  check,
  plan,
  pointsAtLoci,
  write,
  type SetupEnvironment,
} from '../src/main/engine/setup/setup';
import { rotateToken } from '../src/main/engine/store/token';
import { openTestEngine, tempDir, type TestEngine } from './helpers/engine';

const TOKEN = 'tok_0123456789abcdefghijklmnopqrstuvwxyz';
const NOW = new Date('2026-03-01T09:00:00.000Z');
const STAMP = '2026-03-01T09-00-00-000Z';
// Real paths, so that a stdio entry is not reported stale for a missing program.
const NODE = process.execPath;
const SCRIPT = binScript();
const windows = process.platform === 'win32';

let home: string;
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

function envFor(
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

const stdio = { command: NODE, args: [SCRIPT, 'mcp'] };
const http = (port = 4747, token = TOKEN) => ({
  url: `http://127.0.0.1:${port}/mcp`,
  headers: { Authorization: `Bearer ${token}` },
});

/** Every file under the fake home, with its bytes: proves what changed and what did not. */
function snapshot(dir = home): Record<string, string> {
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

function put(rel: string, text: string): string {
  const file = join(home, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const read = (file: string) => readFileSync(file, 'utf8');
const json = (file: string) => JSON.parse(read(file)) as Record<string, Record<string, unknown>>;
const backups = (file: string) =>
  readdirSync(dirname(file)).filter((n) => n.includes('.loci-backup-'));

function thrown(fn: () => unknown): LociError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LociError);
    return err as LociError;
  }
  throw new Error('expected an error');
}

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

describe('write', () => {
  it('creates a missing configuration, private to the user, without a backup', () => {
    const r = write(envFor(), 'cursor', undefined, NOW);
    const file = join(home, '.cursor', 'mcp.json');
    expect(r).toEqual({ client: 'cursor', file, backup: null, action: 'add' });
    expect(read(file)).toBe(`${JSON.stringify({ mcpServers: { loci: stdio } }, null, 2)}\n`);
    if (!windows) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.keys(snapshot())).toEqual([join('.cursor', 'mcp.json')]);
  });

  it('writes each client its own documented shape', () => {
    const e = envFor({ daemonRunning: true, port: 5151 });
    const url = 'http://127.0.0.1:5151/mcp';
    const headers = { Authorization: `Bearer ${TOKEN}` };
    const cases: [ClientId, 'http' | 'stdio', string, Record<string, unknown>][] = [
      ['claude-code', 'http', 'mcpServers', { type: 'http', url, headers }],
      ['claude-code', 'stdio', 'mcpServers', { type: 'stdio', ...stdio }],
      ['claude-desktop', 'stdio', 'mcpServers', stdio],
      ['cursor', 'http', 'mcpServers', { url, headers }],
      ['cursor', 'stdio', 'mcpServers', stdio],
      ['vscode', 'http', 'servers', { type: 'http', url, headers }],
      ['vscode', 'stdio', 'servers', { type: 'stdio', ...stdio }],
      ['windsurf', 'http', 'mcpServers', { serverUrl: url, headers }],
      ['windsurf', 'stdio', 'mcpServers', stdio],
      ['zed', 'stdio', 'context_servers', { source: 'custom', ...stdio, env: {} }],
    ];
    for (const [id, transport, container, entry] of cases) {
      rmSync(home, { recursive: true, force: true });
      mkdirSync(home);
      const r = write(e, id, transport, NOW);
      expect(r.action, `${id} ${transport}`).toBe('add');
      expect(json(r.file), `${id} ${transport}`).toEqual({ [container]: { loci: entry } });
      expect(pointsAtLoci(entry)).toBe(true);
    }
  });

  it('backs up the original, then keeps the other servers, the comments and the trailing commas', () => {
    const original = [
      '{',
      '  // My servers',
      '  "servers": {',
      '    "github": {',
      '      "type": "http",',
      '      "url": "https://api.githubcopilot.com/mcp/", // remote',
      '    },',
      '  },',
      '  "inputs": [],',
      '}',
      '',
    ].join('\n');
    const file = put('.config/Code/User/mcp.json', original);
    const r = write(envFor({ daemonRunning: true }), 'vscode', undefined, NOW);
    expect(r).toEqual({
      client: 'vscode',
      file,
      backup: `${file}.loci-backup-${STAMP}`,
      action: 'add',
    });
    expect(read(r.backup as string)).toBe(original);
    expect(read(file)).toBe(
      [
        '{',
        '  // My servers',
        '  "servers": {',
        '    "github": {',
        '      "type": "http",',
        '      "url": "https://api.githubcopilot.com/mcp/", // remote',
        '    },',
        '    "loci": {',
        '      "type": "http",',
        '      "url": "http://127.0.0.1:4747/mcp",',
        '      "headers": {',
        `        "Authorization": "Bearer ${TOKEN}"`,
        '      }',
        '    },',
        '  },',
        '  "inputs": [],',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('adds a Zed context server beside the settings, leaving one-line entries as they were', () => {
    const original = [
      '// Zed settings',
      '{',
      '  "theme": "One Dark",',
      '  /* servers */',
      '  "context_servers": {',
      '    "other": { "source": "custom", "command": "other-mcp", "args": [], "env": {} },',
      '  },',
      '}',
      '',
    ].join('\n');
    const file = put('.config/zed/settings.json', original);
    const r = write(envFor({ daemonRunning: true }), 'zed', undefined, NOW);
    expect(read(r.backup as string)).toBe(original);
    const text = read(file);
    expect(text).toBe(
      [
        '// Zed settings',
        '{',
        '  "theme": "One Dark",',
        '  /* servers */',
        '  "context_servers": {',
        '    "other": { "source": "custom", "command": "other-mcp", "args": [], "env": {} },',
        '    "loci": {',
        '      "source": "custom",',
        `      "command": ${JSON.stringify(NODE)},`,
        '      "args": [',
        `        ${JSON.stringify(SCRIPT)},`,
        '        "mcp"',
        '      ],',
        '      "env": {}',
        '    },',
        '  },',
        '}',
        '',
      ].join('\n'),
    );
    expect(parse(text, [], { allowTrailingComma: true })).toEqual({
      theme: 'One Dark',
      context_servers: {
        other: { source: 'custom', command: 'other-mcp', args: [], env: {} },
        loci: { source: 'custom', ...stdio, env: {} },
      },
    });
  });

  it('accepts comments in a Cursor file and keeps them', () => {
    const original =
      '{\n  // servers I use\n  "mcpServers": {\n    "db": { "command": "db-mcp" }, // local db\n  },\n}\n';
    const file = put('.cursor/mcp.json', original);
    const r = write(envFor(), 'cursor', undefined, NOW);
    expect(r.action).toBe('add');
    const text = read(file);
    expect(text).toContain('// servers I use');
    expect(text).toContain('// local db');
    expect(text).toContain('"db": { "command": "db-mcp" },');
    expect(parse(text, [], { allowTrailingComma: true })).toEqual({
      mcpServers: { db: { command: 'db-mcp' }, loci: stdio },
    });
  });

  it("keeps the rest of Claude Code's file untouched", () => {
    const data = {
      numStartups: 41,
      projects: { '/src/app': { mcpServers: { local: { command: 'x' } } } },
      mcpServers: { playwright: { type: 'stdio', command: 'npx', args: ['@playwright/mcp'] } },
      userID: 'abc',
    };
    const file = put('.claude.json', JSON.stringify(data, null, 2));
    write(envFor({ daemonRunning: true }), 'claude-code', undefined, NOW);
    expect(json(file)).toEqual({
      ...data,
      mcpServers: { ...data.mcpServers, loci: { type: 'http', ...http() } },
    });
  });

  it('keeps tabs, CRLF line ends and a byte-order mark', () => {
    const original = '\uFEFF{\r\n\t"mcpServers": {\r\n\t\t"a": {"command": "x"}\r\n\t}\r\n}\r\n';
    const file = put('.codeium/windsurf/mcp_config.json', original);
    write(envFor(), 'windsurf', undefined, NOW);
    const expected = [
      '\uFEFF{',
      '\t"mcpServers": {',
      '\t\t"a": {"command": "x"},',
      '\t\t"loci": {',
      `\t\t\t"command": ${JSON.stringify(NODE)},`,
      '\t\t\t"args": [',
      `\t\t\t\t${JSON.stringify(SCRIPT)},`,
      '\t\t\t\t"mcp"',
      '\t\t\t]',
      '\t\t}',
      '\t}',
      '}',
      '',
    ].join('\r\n');
    expect(read(file)).toBe(expected);
    // Read back with its BOM, the file is current.
    expect(plan(envFor(), 'windsurf')[0]?.action).toBe('unchanged');
  });

  it('is idempotent: a second write changes nothing and makes no second backup', () => {
    const file = put('.cursor/mcp.json', '{ "mcpServers": { "other": { "command": "o" } } }\n');
    const first = write(envFor(), 'cursor', undefined, NOW);
    expect(first.action).toBe('add');
    const after = read(file);
    const second = write(envFor(), 'cursor', undefined, new Date('2026-03-02T00:00:00Z'));
    expect(second).toEqual({ client: 'cursor', file, backup: null, action: 'unchanged' });
    expect(read(file)).toBe(after);
    expect(backups(file)).toEqual([`mcp.json.loci-backup-${STAMP}`]);
    expect(Object.keys(json(file).mcpServers ?? {})).toEqual(['other', 'loci']);
  });

  it('updates in place, never overwriting an earlier backup made in the same instant', () => {
    const original = '{ "mcpServers": {} }\n';
    const file = put('.cursor/mcp.json', original);
    const a = write(envFor(), 'cursor', 'stdio', NOW);
    const afterStdio = read(file);
    const b = write(envFor(), 'cursor', 'http', NOW);
    expect(b.action).toBe('update');
    expect(b.backup).not.toBe(a.backup);
    expect(read(a.backup as string)).toBe(original);
    expect(read(b.backup as string)).toBe(afterStdio);
    expect(json(file)).toEqual({ mcpServers: { loci: http() } });
    expect(backups(file).sort()).toEqual([
      `mcp.json.loci-backup-${STAMP}`,
      `mcp.json.loci-backup-${STAMP}-1`,
    ]);
  });

  it('updates a Loci entry the user named differently instead of adding a duplicate', () => {
    const file = put(
      '.cursor/mcp.json',
      JSON.stringify({ mcpServers: { memory: http(4700, 'old-token') } }, null, 2),
    );
    const [p] = plan(envFor({ daemonRunning: true }), 'cursor');
    expect(p).toMatchObject({ entry: 'memory', action: 'update' });
    expect(p?.diff.split('\n')[0]).toBe('mcpServers.memory');
    write(envFor({ daemonRunning: true }), 'cursor', undefined, NOW);
    expect(json(file)).toEqual({ mcpServers: { memory: http() } });
    expect(check(envFor({ daemonRunning: true })).find((c) => c.client === 'cursor')).toMatchObject(
      { status: 'ok', problems: [] },
    );
  });

  it.skipIf(windows)('keeps the mode of an existing file', () => {
    const file = put('.cursor/mcp.json', '{}\n');
    chmodSync(file, 0o640);
    write(envFor(), 'cursor', undefined, NOW);
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it.skipIf(windows)('edits the target of a symlinked configuration, keeping the link', () => {
    const target = put('dotfiles/cursor-mcp.json', '{ "mcpServers": {} }\n');
    mkdirSync(join(home, '.cursor'));
    const link = join(home, '.cursor', 'mcp.json');
    symlinkSync(target, link);
    const r = write(envFor(), 'cursor', undefined, NOW);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(json(target)).toEqual({ mcpServers: { loci: stdio } });
    expect(read(r.backup as string)).toBe('{ "mcpServers": {} }\n');
  });

  it('treats an empty file as an empty configuration', () => {
    const file = put('.cursor/mcp.json', '  \n');
    const r = write(envFor(), 'cursor', undefined, NOW);
    expect(r.action).toBe('add');
    expect(read(r.backup as string)).toBe('  \n');
    expect(json(file)).toEqual({ mcpServers: { loci: stdio } });
  });
});

describe('invalid configurations', () => {
  const cases: [string, ClientId, string, RegExp][] = [
    [
      'broken JSON',
      'cursor',
      '.cursor/mcp.json',
      /mcp\.json is not valid JSON \(with comments\): InvalidSymbol at line 2, column 3; Loci will not edit it/,
    ],
    [
      'a comment in a strict-JSON file',
      'claude-desktop',
      '.config/Claude/claude_desktop_config.json',
      /claude_desktop_config\.json is not valid JSON: InvalidCommentToken at line 1, column 3/,
    ],
    [
      'a trailing comma in a strict-JSON file',
      'claude-code',
      '.claude.json',
      /\.claude\.json is not valid JSON: (PropertyNameExpected|ValueExpected)/,
    ],
    ['an array', 'windsurf', '.codeium/windsurf/mcp_config.json', /does not hold a JSON object/],
    [
      'a server list that is not an object',
      'vscode',
      '.config/Code/User/mcp.json',
      /mcp\.json has a "servers" that is not an object/,
    ],
  ];
  const texts: Record<string, string> = {
    'broken JSON': '{\n  mcpServers: {}\n}\n',
    'a comment in a strict-JSON file': '{ // mine\n  "mcpServers": {}\n}\n',
    'a trailing comma in a strict-JSON file': '{ "mcpServers": {}, }\n',
    'an array': '[]\n',
    'a server list that is not an object': '{ "servers": [] }\n',
  };

  for (const [what, id, rel, message] of cases) {
    it(`refuses ${what}: named in plan, write and check, and never touched`, () => {
      const original = texts[what] as string;
      const file = put(rel, original);
      const before = snapshot();
      const [p] = plan(envFor(), id);
      expect(p).toMatchObject({ action: 'blocked', before: null, diff: '' });
      expect(p?.problem).toContain(file);
      expect(p?.problem).toMatch(message);
      const err = thrown(() => write(envFor(), id, undefined, NOW));
      expect(err.code).toBe('invalid-args');
      expect(err.message).toBe(p?.problem);
      const c = check(envFor()).find((x) => x.client === id);
      expect(c).toMatchObject({ status: 'invalid', problems: [p?.problem] });
      // No backup, no temporary file, the bytes as they were.
      expect(snapshot()).toEqual(before);
      expect(read(file)).toBe(original);
    });
  }
});

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
      problems: ['"loci" has an old token'],
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

describe('through the API', () => {
  let t: TestEngine;
  beforeEach(async () => {
    t = await openTestEngine({ setupHome: home });
  });
  afterEach(async () => {
    await t.close();
  });
  const ctx = { actor: { kind: 'cli' as const } };
  const dispatch = <T>(method: string, args: unknown) =>
    t.handlers.dispatch(method, args, ctx) as Promise<T>;

  it('plans, writes and checks in the given home folder', async () => {
    mkdirSync(join(home, '.cursor'));
    const planned = await dispatch<SetupPlanResult>('setup.plan', {});
    expect(planned.clients.map((p) => [p.client, p.installed, p.action])).toEqual([
      ['claude-code', false, 'add'],
      ['claude-desktop', false, 'add'],
      ['cursor', true, 'add'],
      ['vscode', false, 'add'],
      ['windsurf', false, 'add'],
      ['zed', false, 'add'],
    ]);
    for (const p of planned.clients) expect(p.file.startsWith(home)).toBe(true);
    expect(snapshot()).toEqual({});
    // The daemon's token (made on first use).
    const token = read(join(t.dir, 'token')).trim();

    // No daemon: the stdio entry, starting this installation's `loci mcp`.
    const w = await dispatch<SetupWriteResult>('setup.write', { client: 'cursor' });
    expect(w).toEqual({
      client: 'cursor',
      file: join(home, '.cursor', 'mcp.json'),
      backup: null,
      action: 'add',
    });
    expect(json(w.file)).toEqual({ mcpServers: { loci: stdio } });

    // A daemon on port 5151 (its lock names the port): HTTP with the token.
    t.engine.updateLock({ port: 5151 });
    const h = await dispatch<SetupWriteResult>('setup.write', {
      client: 'vscode',
      transport: 'http',
    });
    expect(json(h.file)).toEqual({
      servers: {
        loci: {
          type: 'http',
          url: 'http://127.0.0.1:5151/mcp',
          headers: { Authorization: `Bearer ${token}` },
        },
      },
    });
    const checked = await dispatch<SetupCheckResult>('setup.check', {});
    expect(checked.endpoint).toBe('http://127.0.0.1:5151/mcp');
    expect(checked.clients.map((c) => [c.client, c.status])).toEqual([
      ['claude-code', 'not-installed'],
      ['claude-desktop', 'not-installed'],
      ['cursor', 'ok'],
      ['vscode', 'ok'],
      ['windsurf', 'not-installed'],
      ['zed', 'not-installed'],
    ]);

    // Rotating the token makes the HTTP entry stale; writing again fixes it, with a backup.
    rotateToken(t.dir);
    const stale = await dispatch<SetupCheckResult>('setup.check', {});
    expect(stale.clients.find((c) => c.client === 'vscode')).toMatchObject({
      status: 'stale',
      problems: ['"loci" has an old token'],
    });
    const again = await dispatch<SetupWriteResult>('setup.write', { client: 'vscode' });
    expect(again.action).toBe('update');
    expect(again.backup).toMatch(/mcp\.json\.loci-backup-/);
    expect(
      (await dispatch<SetupCheckResult>('setup.check', {})).clients.find(
        (c) => c.client === 'vscode',
      )?.status,
    ).toBe('ok');
  });

  it('validates arguments and refuses an invalid file', async () => {
    await expect(dispatch('setup.write', {})).rejects.toMatchObject({ code: 'invalid-args' });
    await expect(dispatch('setup.plan', { client: 'emacs' })).rejects.toMatchObject({
      code: 'invalid-args',
    });
    await expect(dispatch('setup.check', { client: 'cursor' })).rejects.toMatchObject({
      code: 'invalid-args',
    });
    await expect(
      dispatch('setup.write', { client: 'zed', transport: 'http' }),
    ).rejects.toMatchObject({
      code: 'invalid-args',
      message: expect.stringMatching(/Zed takes only a stdio/),
    });
    const file = put('.cursor/mcp.json', '{ "mcpServers": ');
    await expect(dispatch('setup.write', { client: 'cursor' })).rejects.toMatchObject({
      code: 'invalid-args',
      message: expect.stringContaining(`${file} is not valid JSON`),
    });
    expect(read(file)).toBe('{ "mcpServers": ');
    expect(backups(file)).toEqual([]);
  });
});

describe('through the CLI', () => {
  let data: string;
  beforeEach(() => {
    data = tempDir('loci-setup-data-');
  });
  afterEach(() => {
    rmSync(data, { recursive: true, force: true });
  });

  async function loci(args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      stdin: Readable.from(['']),
      // The editors' files are looked for in this home folder only.
      env: { LOCI_HOME: data, HOME: home, USERPROFILE: home },
      interactive: false,
    });
    return { code, stdout, stderr };
  }

  it('says so when no client is found', async () => {
    const r = await loci(['setup']);
    expect(r).toEqual({
      code: 0,
      stdout:
        'No MCP client found on this machine (looked for Claude Code, Claude Desktop, Cursor, VS Code, Windsurf and Zed). Use --client to write one anyway.\n' +
        // No model is installed and nobody is at a terminal: the offer is a hint, no download.
        '\nWithout a model recall matches words and spelling only: a question worded differently from the memory may miss it.\n' +
        'Recall by meaning: `loci models install all-minilm-l6-v2-int8` (all-MiniLM-L6-v2 (int8), about 23 MB, licence Apache-2.0).\n',
      stderr: '',
    });
  });

  it('--dry-run shows the installed clients and writes nothing', async () => {
    mkdirSync(join(home, '.cursor'));
    const original = '{ "mcpServers": { "other": { "command": "o" } } }\n';
    const file = put('.config/zed/settings.json', original);
    const r = await loci(['setup', '--dry-run']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Cursor  ${join(home, '.cursor', 'mcp.json')}\n  add (stdio)\n`);
    expect(r.stdout).toContain(
      `Zed  ${file}\n  add (stdio)\n    context_servers.loci\n    - (none)\n    + {\n`,
    );
    expect(r.stdout).not.toContain('Claude');
    expect(r.stdout).not.toContain('Wrote');
    expect(snapshot()).toEqual({ [join('.config', 'zed', 'settings.json')]: original });
    // Without --yes and without a terminal to ask on, nothing is written either.
    const asked = await loci(['setup']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('Nothing written. Run `loci setup --yes` to write.\n');
    expect(snapshot()).toEqual({ [join('.config', 'zed', 'settings.json')]: original });
  });

  it('--client cursor --yes writes that client (installed or not), then check audits', async () => {
    const r = await loci(['setup', '--client', 'cursor', '--yes']);
    const file = join(home, '.cursor', 'mcp.json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Wrote ${file}\n`);
    expect(r.stdout).toContain('Restart the editors');
    expect(json(file)).toEqual({ mcpServers: { loci: stdio } });

    const again = await loci(['setup', '--client', 'cursor', '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^Cursor  ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n  already set up\n`),
    );

    const c = await loci(['setup', 'check', '--json']);
    expect(c.code).toBe(0);
    const result = JSON.parse(c.stdout) as SetupCheckResult;
    expect(result.endpoint).toBe('http://127.0.0.1:4747/mcp');
    expect(result.clients.find((x) => x.client === 'cursor')).toMatchObject({
      installed: true,
      status: 'ok',
    });
    const human = await loci(['setup', 'check']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/Cursor +ok +—/);
    expect(human.stdout).toMatch(/Zed +not-installed/);
    expect(human.stdout).toContain('Loci endpoint: http://127.0.0.1:4747/mcp');
  });

  it('--json --yes prints the plan and what was written as JSON', async () => {
    mkdirSync(join(home, '.codeium', 'windsurf'), { recursive: true });
    const r = await loci(['setup', '--yes', '--json', '--transport', 'http']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as SetupPlanResult & { written: SetupWriteResult[] };
    expect(out.clients.map((p) => [p.client, p.transport, p.action])).toEqual([
      ['windsurf', 'http', 'add'],
    ]);
    expect(out.written).toEqual([
      {
        client: 'windsurf',
        file: join(home, '.codeium', 'windsurf', 'mcp_config.json'),
        backup: null,
        action: 'add',
      },
    ]);
    const token = read(join(data, 'token')).trim();
    expect(json(out.written[0]?.file as string)).toEqual({
      mcpServers: {
        loci: {
          serverUrl: 'http://127.0.0.1:4747/mcp',
          headers: { Authorization: `Bearer ${token}` },
        },
      },
    });
  });

  it('--transport http across clients keeps stdio for Claude Desktop and Zed', async () => {
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    mkdirSync(join(home, '.config', 'zed'), { recursive: true });
    mkdirSync(join(home, '.cursor'));
    const r = await loci(['setup', '--transport', 'http', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(join(home, '.config', 'Claude', 'claude_desktop_config.json'))).toEqual({
      mcpServers: { loci: stdio },
    });
    expect(json(join(home, '.config', 'zed', 'settings.json')).context_servers).toEqual({
      loci: { source: 'custom', ...stdio, env: {} },
    });
    expect(json(join(home, '.cursor', 'mcp.json')).mcpServers?.loci).toMatchObject({
      url: 'http://127.0.0.1:4747/mcp',
    });
    const one = await loci(['setup', '--client', 'zed', '--transport', 'http', '--yes']);
    expect(one.code).toBe(EXIT_CODES['invalid-args']);
    expect(one.stderr).toBe('loci: Zed takes only a stdio entry from its configuration file.\n');
  });

  it('fails with a clear message on an invalid file, writes the others, and never touches it', async () => {
    mkdirSync(join(home, '.cursor'));
    const bad = put('.config/Code/User/mcp.json', '{ "servers": { "a": } }');
    const r = await loci(['setup', '--yes']);
    expect(r.code).toBe(EXIT_CODES['invalid-args']);
    expect(r.stderr).toMatch(
      new RegExp(
        `^loci: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON \\(with comments\\): ValueExpected at line 1, column 21; Loci will not edit it\\. Fix it, or add the entry by hand\\.\\n$`,
      ),
    );
    expect(r.stdout).toContain(`Wrote ${join(home, '.cursor', 'mcp.json')}`);
    expect(read(bad)).toBe('{ "servers": { "a": } }');
    expect(backups(bad)).toEqual([]);

    const only = await loci(['setup', '--client', 'vscode', '--yes']);
    expect(only.code).toBe(EXIT_CODES['invalid-args']);
    expect(only.stderr).toContain(`${bad} is not valid JSON`);

    const c = await loci(['setup', 'check']);
    // A check that finds something to fix says so in its exit code.
    expect(c.code).toBe(EXIT_FINDINGS);
    expect(c.stdout).toMatch(/VS Code +invalid/);
    expect(read(bad)).toBe('{ "servers": { "a": } }');

    const usage = await loci(['setup', '--client', 'emacs']);
    expect(usage.code).toBe(EXIT_CODES.usage);
  });
});
